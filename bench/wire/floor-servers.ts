/**
 * The floors of the wire benchmarks: servers that do nothing but the transport, measured in the
 * same run as perpsim's, alternating, so each wire case prints perpsim's throughput as a ratio
 * of what the libraries alone reach on this machine at this moment.
 *
 * - {@link startHonoFloor}: a trivial POST handler on the same stack as perpsim's REST
 *   (hono on @hono/node-server) answering a JSON object.
 * - {@link startBareWsFloor}: a bare `ws` server speaking the same messages as perpsim's order and
 *   market-data websockets for the bench loads: the same replies, `n` and `f` feeds, stats and L1 / L2
 *   book updates, byte for byte in shape and size, built by string templates. Its "book" is a
 *   list of resting orders that trade one lot against one lot at an identical price text: all the
 *   loads need. Output is corked per event-loop turn, as perpsim's (src/api/ws/outbox.ts) is:
 *   without that the floor would pay one `writev` per frame and be no floor.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import { WebSocket, WebSocketServer, type RawData } from 'ws';

export interface FloorServer {
  port: number;
  close(): Promise<void>;
}

/**
 * The trivial Hono POST handler: answers `{"order_id": …}` without looking at the request (node's
 * parser still reads and drops the body). This is the floor issue 11's 19.4k req/s was measured
 * against; a handler that also read the body with `c.req.json()` ran 3–6× slower than that here
 * (a fetch `Request` with a web stream per request), which would flatter perpsim.
 */
export async function startHonoFloor(): Promise<FloorServer> {
  const app = new Hono();
  let n = 0;
  app.post('/orders/insert_order', (c) => c.json({ order_id: `O-01KDVDNA${String(++n).padStart(18, '0')}` }));
  return listen(createAdaptorServer({ fetch: app.fetch }) as Server);
}

const TS = 1767225600;
const orderId = (n: number): string => `O-01KDVDNA${String(n).padStart(18, '0')}`;

interface Resting {
  id: string;
  side: string;
  price: string;
  qty: number;
  tif: string;
  ws: WebSocket;
}

/** Corks a socket until the end of this event-loop turn (one `writev` per socket per turn). */
const corked: Socket[] = [];
function send(ws: WebSocket, data: string | Buffer): void {
  const socket = (ws as unknown as { _socket: Socket })._socket;
  if (socket.writableCorked === 0) {
    socket.cork();
    if (corked.push(socket) === 1) setImmediate(() => corked.splice(0).forEach((s) => s.uncork()));
  }
  ws.send(data, { binary: false, compress: false });
}

/** The bare `ws` floor: /orders and /md/ws on one port. */
export async function startBareWsFloor(): Promise<FloorServer> {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const subscribers = new Set<WebSocket>();
  const book: Resting[] = [];
  let orders = 0;
  let events = 0;
  let trades = 0;
  let volume = 0;
  let bookDirty = false;
  let symbol = '';
  let depth = Infinity; // LEVEL_1 subscribers get the touch only (the bench subscribes all at one level)

  const wsOrder = (o: Resting, filled: number): string =>
    `{"oid":"${o.id}","u":"alice","s":"${symbol}","p":"${o.price}","q":${o.qty},"xq":${filled},"rq":${o.qty - filled},` +
    `"o":"${filled === 0 ? 'NEW' : 'FILLED'}","d":"${o.side}","tif":"${o.tif}","liq":false,"ts":${TS},"tn":0}`;
  const fillFeed = (o: Resting, tid: number, agg: boolean): string =>
    `{"t":"f","ts":${TS},"tn":0,"eid":"${++events}","o":${wsOrder(o, 1)},"xs":{"tid":"${tid}","s":"${symbol}","q":1,"p":"${o.price}","d":"${o.side}","agg":${agg}}}`;
  const levels = (side: string): string => {
    const own = book.filter((o) => o.side === side).sort((x, y) => (side === 'B' ? Number(y.price) - Number(x.price) : Number(x.price) - Number(y.price)));
    return own.slice(0, depth).map((o) => `{"p":"${o.price}","q":${o.qty}}`).join(',');
  };
  const toSubscribers = (text: string): void => {
    const bytes = Buffer.from(text);
    for (const ws of subscribers) send(ws, bytes);
  };
  const flushBook = (): void => {
    bookDirty = false;
    toSubscribers(`{"t":"${depth === 1 ? 1 : 2}","ts":${TS},"tn":0,"s":"${symbol}","b":[${levels('B')}],"a":[${levels('S')}]}`);
  };

  const place = (ws: WebSocket, rid: number, f: Record<string, unknown>): void => {
    symbol = String(f.s);
    const o: Resting = { id: orderId(++orders), side: String(f.d), price: String(f.p), qty: Number(f.q), tif: String(f.tif), ws };
    send(ws, `{"rid":${rid},"res":{"oid":"${o.id}"}}`);
    send(ws, `{"t":"n","ts":${TS},"tn":0,"eid":"${++events}","o":${wsOrder(o, 0)}}`);
    const at = book.findIndex((r) => r.side !== o.side && r.price === o.price && r.qty === 1 && o.qty === 1);
    if (at >= 0) {
      const maker = book.splice(at, 1)[0]!;
      const tid = ++trades;
      volume++;
      send(maker.ws, fillFeed(maker, tid, false));
      send(ws, fillFeed(o, tid, true));
      toSubscribers(`{"t":"s","ts":${TS},"tn":0,"s":"${symbol}","p":"${o.price}","q":1,"o":"3000","l":"2990","h":"3000","v":${volume}}`);
    } else if (o.tif === 'GTC') book.push(o);
    if (subscribers.size > 0 && !bookDirty) {
      bookDirty = true;
      queueMicrotask(flushBook);
    }
  };

  const onOrders = (ws: WebSocket, data: RawData): void => {
    const f = JSON.parse(String(data)) as Record<string, unknown>;
    const rid = Number(f.rid);
    if (f.t === 'a') send(ws, `{"rid":${rid},"res":{"li":"${String(f.u)}","o":[]}}`);
    else if (f.t === 'p') place(ws, rid, f);
    else send(ws, `{"rid":${rid},"err":{"code":400,"message":"unknown request"}}`);
  };
  const onMarketData = (ws: WebSocket, data: RawData): void => {
    const f = JSON.parse(String(data)) as Record<string, unknown>;
    if (f.type === 'login') send(ws, `{"request_id":${Number(f.request_id)},"result":{"logged_in":"${String(f.username)}"}}`);
    else if (f.type === 'subscribe') {
      symbol = String(f.symbol);
      depth = f.level === 'LEVEL_1' ? 1 : Infinity;
      send(ws, `{"request_id":${Number(f.request_id)},"result":{"subscribed":"${symbol}"}}`);
      subscribers.add(ws);
      send(ws, `{"t":"${depth === 1 ? 1 : 2}","ts":${TS},"tn":0,"s":"${symbol}","b":[${levels('B')}],"a":[${levels('S')}]}`);
    }
  };

  const server = createServer((_req, res) => res.writeHead(404).end());
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const onMessage = req.url === '/orders' ? onOrders : req.url === '/md/ws' ? onMarketData : undefined;
    if (onMessage === undefined) return void socket.destroy();
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.on('error', () => ws.terminate());
      ws.on('message', (data) => onMessage(ws, data));
      ws.on('close', () => subscribers.delete(ws));
    });
  });
  const floor = await listen(server);
  return {
    port: floor.port,
    async close() {
      for (const ws of wss.clients) ws.terminate();
      await floor.close();
    },
  };
}

function listen(server: Server): Promise<FloorServer> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      }),
    );
  });
}
