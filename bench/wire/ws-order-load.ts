import { WebSocket } from 'ws';
import { LatencyRecorder, nowNs, type LatencySummary } from './latency.ts';

/**
 * Websocket order entry: `count` place requests (`t: "p"`) from one logged-in socket, `depth`
 * in flight. `orders` are the request bodies without `rid` (round robin), e.g. a buy and a sell
 * at one price that trade with each other so the book stays bounded.
 */
export interface WsOrderLoad {
  url: string;
  user: string;
  token: string;
  orders: string[];
  count: number;
  depth: number;
}

export interface WsOrderResult {
  orders: number;
  elapsedNs: number;
  /** Replies that were errors (`err`). */
  errors: number;
  /** Feeds received, by type letter (n, f, p, j, …). */
  feeds: Record<string, number>;
  /** Every message received (replies, feeds, heartbeats). */
  messages: number;
  latency: LatencySummary;
}

/** Opens a websocket with masking switched off (a zero mask: ws then skips the XOR), so the client stays cheap. */
export function openSocket(url: string): Promise<WebSocket> {
  const ws = new WebSocket(url, { perMessageDeflate: false, generateMask: (mask: Buffer) => void mask.fill(0) });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

/** Sends one request and resolves with the first message that is not a heartbeat or feed (the reply). */
export function request(ws: WebSocket, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const onMessage = (data: Buffer): void => {
      const msg = JSON.parse(data.toString()) as Record<string, unknown>;
      if (msg.t !== undefined) return;
      ws.off('message', onMessage);
      resolve(msg);
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify(body));
  });
}

/** Logs an order socket in; returns it. */
export async function orderSocket(url: string, user: string, token: string): Promise<WebSocket> {
  const ws = await openSocket(url);
  const reply = await request(ws, { rid: 0, t: 'a', u: user, k: token });
  if ((reply.res as { li?: string } | undefined)?.li !== user) throw new Error(`login failed: ${JSON.stringify(reply)}`);
  return ws;
}

const RID_PREFIX = '{"rid":';
const FEED_PREFIX = '{"t":"';

/**
 * Runs the load on an already logged-in socket. Replies are matched by rid (sent in order, so a
 * FIFO of send times); the run ends when every order has its reply and its `n` or `j` feed.
 * Messages are classified by their first bytes, not parsed: the client must cost far less than
 * the server.
 */
export function runWsOrderLoad(ws: WebSocket, load: WsOrderLoad, firstRid: number): Promise<WsOrderResult> {
  const latency = new LatencyRecorder(load.count);
  const sentAt = new Float64Array(load.count);
  const bodies = load.orders.map((o) => `,${o.slice(1)}`); // `,"t":"p",…}` to follow `{"rid":N`
  const feeds: Record<string, number> = {};
  let sent = 0;
  let replies = 0;
  let accepted = 0;
  let errors = 0;
  let messages = 0;
  let owed = 0;
  let flushQueued = false;
  const socket = (ws as unknown as { _socket: import('node:net').Socket })._socket;
  const t0 = nowNs();

  const sendOwed = (): void => {
    flushQueued = false;
    socket.cork();
    for (; owed > 0 && sent < load.count; owed--) {
      sentAt[sent] = nowNs();
      ws.send(`${RID_PREFIX}${firstRid + sent}${bodies[sent % bodies.length]!}`);
      sent++;
    }
    socket.uncork();
  };

  return new Promise((resolve) => {
    const finish = (): void => {
      if (replies < load.count || accepted < load.count) return;
      ws.off('message', onMessage);
      resolve({ orders: replies, elapsedNs: nowNs() - t0, errors, feeds, messages, latency: latency.summary() });
    };
    const onMessage = (data: Buffer): void => {
      messages++;
      if (data.indexOf(RID_PREFIX) === 0) {
        const end = data.indexOf(0x2c, 7); // the comma after the rid
        const rid = Number(data.toString('latin1', 7, end)) - firstRid;
        if (data.indexOf('"err"', end) === end + 1) {
          errors++;
          accepted++; // an error reply has no feed to wait for
        }
        latency.record(nowNs() - sentAt[rid]!);
        replies++;
        owed++;
        if (!flushQueued) {
          flushQueued = true;
          queueMicrotask(sendOwed);
        }
        finish();
      } else if (data.indexOf(FEED_PREFIX) === 0) {
        const type = String.fromCharCode(data[6]!);
        if (type === 'h') return;
        feeds[type] = (feeds[type] ?? 0) + 1;
        if (type === 'n' || type === 'j') {
          accepted++;
          finish();
        }
      }
    };
    ws.on('message', onMessage);
    owed = load.depth;
    sendOwed();
  });
}
