import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { batchWritesPerTurn, PASS_THROUGH_BYTES } from '../../../src/api/rest/turn-writes.ts';

type GenericWrite = (...args: unknown[]) => unknown;

/** Counts the writes that reach a socket's real write path (installed before batching, so batching's writes count). */
function countRealWrites(socket: Socket): { count: number } {
  const counter = { count: 0 };
  const internals = socket as unknown as { _writeGeneric: GenericWrite };
  const original = internals._writeGeneric;
  internals._writeGeneric = function (this: Socket, ...args: unknown[]) {
    counter.count++;
    return original.apply(this, args);
  };
  return counter;
}

let servers: Server[] = [];
afterEach(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
  servers = [];
});

/**
 * A server answering `POST /n/<n>` with a JSON body of n's size (some answers in a later turn),
 * batched or not; it reports how many real writes each connection made.
 */
async function answeringServer(batched: boolean): Promise<{ port: number; writes: { count: number }[] }> {
  const writes: { count: number }[] = [];
  const seen = new WeakSet<Socket>();
  const server = createServer((req, res) => {
    const socket = req.socket;
    if (!seen.has(socket)) {
      seen.add(socket);
      writes.push(countRealWrites(socket));
      if (batched) batchWritesPerTurn(socket);
    }
    res.sendDate = false; // the byte streams are compared
    const n = Number(req.url!.split('/')[2]);
    const answer = (): void => {
      const text = JSON.stringify({ n, pad: 'é'.repeat(n % 97) });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    };
    req.resume();
    req.on('end', () => (n % 10 === 9 ? setImmediate(answer) : answer()));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { port: (server.address() as AddressInfo).port, writes };
}

/** Sends `count` pipelined POSTs in one write, the last with Connection: close; resolves with every byte answered. */
function pipelined(port: number, count: number): Promise<Buffer> {
  const requests = Array.from({ length: count }, (_, n) => {
    const body = `{"n":${n}}`;
    return `POST /n/${n} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n${n === count - 1 ? 'Connection: close\r\n' : ''}\r\n${body}`;
  });
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(requests.join('')));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

describe('batchWritesPerTurn', () => {
  it("sends pipelined answers byte for byte as node does, in order, ending with the server's close, in a few writes", async () => {
    const count = 200;
    const plain = await answeringServer(false);
    const batched = await answeringServer(true);
    const expected = await pipelined(plain.port, count);
    const got = await pipelined(batched.port, count);
    const bodies = got
      .toString('utf8')
      .split('HTTP/1.1 200 OK')
      .slice(1)
      .map((r) => (JSON.parse(r.slice(r.indexOf('\r\n\r\n') + 4)) as { n: number }).n);
    expect(bodies).toEqual(Array.from({ length: count }, (_, n) => n));
    expect(got.equals(expected)).toBe(true);
    // Node alone writes each answer on its own; batched, a turn's answers leave together.
    expect(plain.writes[0]!.count).toBeGreaterThanOrEqual(count);
    expect(batched.writes[0]!.count).toBeLessThan(count / 4);
  });

  it('lets node hold back a connection that does not read its answers (write() turns false), instead of buffering without bound', async () => {
    let verdict: { wroteBytes: number; pushedBack: boolean } | undefined;
    const done = new Promise<void>((resolve) => {
      const server = createServer();
      server.on('connection', (socket: Socket) => {
        batchWritesPerTurn(socket);
        const chunk = Buffer.alloc(64 * 1024, 0x61);
        const cap = 256 * 1024 * 1024; // far beyond any socket buffer: reaching it means nothing pushed back
        let wrote = 0;
        const step = (): void => {
          for (let i = 0; i < 4; i++) {
            wrote += chunk.length;
            if (!socket.write(chunk)) {
              verdict = { wroteBytes: wrote, pushedBack: true };
              return resolve();
            }
          }
          if (wrote >= cap) {
            verdict = { wroteBytes: wrote, pushedBack: false };
            return resolve();
          }
          setImmediate(step); // the next turn: the batch is written, the kernel fills up
        };
        step();
      });
      servers.push(server);
      server.listen(0, '127.0.0.1', () => {
        const client = connect((server.address() as AddressInfo).port, '127.0.0.1');
        client.pause(); // never reads
        client.on('error', () => {});
      });
    });
    await done;
    expect(verdict!.pushedBack).toBe(true);
    expect(verdict!.wroteBytes).toBeGreaterThan(PASS_THROUGH_BYTES); // batching was on until the kernel stopped taking bytes
  });
});
