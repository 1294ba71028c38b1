import { connect, type Socket } from 'node:net';
import { LatencyRecorder, nowNs, type LatencySummary } from './latency.ts';

/** A REST load: `count` POSTs of `bodies` (round robin) over `connections` keep-alive sockets, `depth` pipelined on each. */
export interface RestLoad {
  host: string;
  port: number;
  path: string;
  token: string;
  bodies: string[];
  count: number;
  connections: number;
  depth: number;
}

export interface RestResult {
  requests: number;
  elapsedNs: number;
  non200: number;
  latency: LatencySummary;
}

const HEADER_END = Buffer.from('\r\n\r\n');

/**
 * A minimal HTTP/1.1 client: requests are pre-encoded and written back to back on keep-alive
 * sockets (pipelining), responses parsed just enough to find their end (Content-Length or
 * chunked) and status. Cheap per request, so the server, not the client, is what is measured.
 */
export async function runRestLoad(load: RestLoad): Promise<RestResult> {
  const requests = load.bodies.map((body) =>
    Buffer.from(
      `POST ${load.path} HTTP/1.1\r\nHost: ${load.host}:${load.port}\r\nAuthorization: Bearer ${load.token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    ),
  );
  const latency = new LatencyRecorder(load.count);
  let sent = 0;
  let done = 0;
  let non200 = 0;
  const sockets: Socket[] = [];
  const t0 = nowNs();
  await new Promise<void>((resolve, reject) => {
    for (let c = 0; c < load.connections; c++) {
      const socket = connect(load.port, load.host);
      socket.setNoDelay(true);
      const sentAt: number[] = [];
      let pending: Buffer = Buffer.alloc(0);
      const sendMore = (s: Socket, n: number): void => {
        if (n <= 0) return;
        s.cork();
        for (let i = 0; i < n && sent < load.count; i++) {
          sentAt.push(nowNs());
          s.write(requests[sent++ % requests.length]!);
        }
        s.uncork();
      };
      socket.on('connect', () => sendMore(socket, load.depth));
      socket.on('error', reject);
      socket.on('data', (chunk: Buffer) => {
        pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
        let finished = 0;
        for (;;) {
          const end = responseEnd(pending);
          if (end < 0) break;
          if (!(pending[9] === 0x32 && pending[10] === 0x30 && pending[11] === 0x30)) non200++; // "HTTP/1.1 200"
          latency.record(nowNs() - sentAt.shift()!);
          pending = pending.subarray(end);
          finished++;
        }
        done += finished;
        if (done >= load.count) {
          for (const s of sockets) s.destroy();
          resolve();
        } else sendMore(socket, finished);
      });
      sockets.push(socket);
    }
  });
  return { requests: done, elapsedNs: nowNs() - t0, non200, latency: latency.summary() };
}

/** Byte offset just past the first complete response in `buf`, or -1 when it is not all there yet. */
function responseEnd(buf: Buffer): number {
  const headerEnd = buf.indexOf(HEADER_END);
  if (headerEnd < 0) return -1;
  const head = buf.toString('latin1', 0, headerEnd).toLowerCase();
  const bodyStart = headerEnd + 4;
  const cl = head.indexOf('content-length:');
  if (cl >= 0) {
    const eol = head.indexOf('\r\n', cl);
    const len = parseInt(head.slice(cl + 15, eol < 0 ? head.length : eol), 10);
    return buf.length >= bodyStart + len ? bodyStart + len : -1;
  }
  if (head.includes('transfer-encoding: chunked')) {
    let at = bodyStart;
    for (;;) {
      const lineEnd = buf.indexOf('\r\n', at);
      if (lineEnd < 0) return -1;
      const size = parseInt(buf.toString('latin1', at, lineEnd), 16);
      const next = lineEnd + 2 + size + 2;
      if (buf.length < next) return -1;
      if (size === 0) return next;
      at = next;
    }
  }
  return bodyStart;
}
