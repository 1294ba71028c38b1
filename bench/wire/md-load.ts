import type { WebSocket } from 'ws';
import { LatencyRecorder, nowNs, type LatencySummary } from './latency.ts';
import { openSocket, request } from './ws-order-load.ts';

/**
 * Market-data fan-out: `subscribers` market-data sockets on one symbol at one level, and one
 * order socket that changes the book in cycles. Cycle c sends, in order on the order socket,
 * an IOC sell that takes the bid of cycle c−1 (a trade: one stats message to every subscriber,
 * priced at that bid) and a GTC bid one tick-tag higher or lower (the touch moves: one book
 * update). The book stays at its base levels plus one bid, and the account stays flat (it
 * trades with itself).
 *
 * The stats message of cycle c carries the price of bid c−1, which tags it: its arrival at each
 * subscriber gives that subscriber's latency for the cycle, and cycle c+window is sent only once
 * every subscriber has cycle c's stats, so nothing queues without bound.
 */
export interface MdLoad {
  mdUrl: string;
  symbol: string;
  level: 'LEVEL_1' | 'LEVEL_2';
  cycles: number;
  window: number;
}

export interface MdResult {
  cycles: number;
  /** Messages received by all subscribers together (stats + book updates). */
  messages: number;
  bookUpdates: number;
  stats: number;
  elapsedNs: number;
  latency: LatencySummary;
}

/** Tags are bid prices base + tag·tick, tag in [0, TAGS): wide enough to tell any window apart. */
export const TAGS = 400;

export interface MdRig {
  subs: WebSocket[];
  orders: WebSocket;
  /** Bid price text of a tag (the order socket's price format). */
  priceOf(tag: number): string;
  /** Tag of a stats message's price text. */
  tagOf(price: string): number;
  nextRid: number;
  /** Cycles run so far on this rig (the bid of the last one rests). */
  cycle: number;
}

/** Opens and logs in `count` market-data sockets and subscribes each to `symbol` at `level`. */
export async function openSubscribers(url: string, count: number, user: string, token: string, symbol: string, level: string): Promise<WebSocket[]> {
  const subs: WebSocket[] = [];
  for (let i = 0; i < count; i++) {
    const ws = await openSocket(url);
    const login = await request(ws, { request_id: 1, type: 'login', username: user, token });
    if (login.error !== undefined) throw new Error(`md login failed: ${JSON.stringify(login)}`);
    const sub = await request(ws, { request_id: 2, type: 'subscribe', symbol, level });
    if (sub.error !== undefined) throw new Error(`subscribe failed: ${JSON.stringify(sub)}`);
    subs.push(ws);
  }
  return subs;
}

const STATS_PRICE = '"p":"';

/** Runs `load.cycles` cycles on the rig and measures what the subscribers receive. */
export function runMdLoad(rig: MdRig, load: MdLoad): Promise<MdResult> {
  const n = rig.subs.length;
  const latency = new LatencyRecorder(load.cycles * n);
  const sentAt = new Float64Array(TAGS);
  const got = new Int32Array(TAGS); // subscribers that have the stats of the cycle with this tag
  const start = rig.cycle; // the bid of cycle `start` rests; cycles start+1 … start+cycles run now
  const last = start + load.cycles;
  let sent = start;
  let completed = start;
  let messages = 0;
  let bookUpdates = 0;
  let stats = 0;
  const socket = (rig.orders as unknown as { _socket: import('node:net').Socket })._socket;
  const t0 = nowNs();
  const sym = JSON.stringify(load.symbol);

  const sendCycles = (): void => {
    socket.cork();
    while (sent < last && sent - completed < load.window) {
      const c = ++sent;
      sentAt[c % TAGS] = nowNs();
      got[(c - 1) % TAGS] = 0;
      rig.orders.send(`{"rid":${rig.nextRid++},"t":"p","s":${sym},"d":"S","q":1,"p":"${rig.priceOf((c - 1) % TAGS)}","tif":"IOC","po":false}`);
      rig.orders.send(`{"rid":${rig.nextRid++},"t":"p","s":${sym},"d":"B","q":1,"p":"${rig.priceOf(c % TAGS)}","tif":"GTC","po":false}`);
    }
    socket.uncork();
  };

  return new Promise((resolve) => {
    const handlers = rig.subs.map(() => (data: Buffer): void => {
      messages++;
      if (data[6] !== 0x73) {
        // '1' / '2' book update (heartbeats are rare and counted as updates; they do not matter at this rate)
        bookUpdates++;
        return;
      }
      stats++;
      const at = data.indexOf(STATS_PRICE) + STATS_PRICE.length;
      const tag = rig.tagOf(data.toString('latin1', at, data.indexOf(0x22, at)));
      // The trade on the bid of tag t is made by the cycle after it.
      latency.record(nowNs() - sentAt[(tag + 1) % TAGS]!);
      if (++got[tag]! === n) {
        completed++;
        if (completed === last) {
          rig.subs.forEach((ws, i) => ws.off('message', handlers[i]!));
          rig.cycle = last;
          resolve({ cycles: load.cycles, messages, bookUpdates, stats, elapsedNs: nowNs() - t0, latency: latency.summary() });
        } else queueMicrotask(sendCycles);
      }
    });
    rig.subs.forEach((ws, i) => ws.on('message', handlers[i]!));
    sendCycles();
  });
}
