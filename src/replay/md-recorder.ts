import { obtainToken } from '../api/client/auth.ts';
import { WireError, WireSocketError } from '../api/client/errors.ts';
import { MARKET_DATA_ENVELOPE, RequestSocket, type Message } from '../api/client/request-socket.ts';
import { RestClient } from '../api/client/rest-client.ts';
import type { InstrumentInfo } from '../wire/records.ts';
import { TickSize } from '../core/price.ts';
import type { Side } from '../core/types.ts';
import type { Level } from './levels.ts';
import { MarketArrowWriter } from './market-arrow.ts';
import { bookRows, levelDiff, type MarketRecord, type SymbolUnits } from './market-records.ts';

/**
 * Records the market-data websocket of any server speaking the exchange interface
 * (`{ws_base_url}/md/ws`) into a normalized market-records Arrow file (`market-arrow.ts`),
 * talking to the server through the wire client's pieces (src/api/client: REST, token, socket):
 *
 * - with a username and password, a token from `POST {base_url}/auth/get_user_token`, the socket
 *   login, and the tick sizes from `GET {base_url}/auth/instruments` (or given);
 * - per message: the receive time (wall clock, ns), the message's `ts`/`tn` as exchange time;
 *   a LEVEL_2 book → book rows (the first per symbol a reset snapshot, later ones only the
 *   levels that changed — the socket sends full books, the file keeps the changes); a LEVEL_1
 *   book → a quote; stats (`t: "s"`) → a stats row, plus a trade row (side unknown) when the
 *   volume rose by exactly the last quantity (one print);
 * - a record batch is written every `flushMs` and every `batchRows` rows, so a crash loses at
 *   most the last interval; `stop()` writes the footer.
 */

export const RECORD_LEVELS = ['LEVEL_1', 'LEVEL_2'] as const;
export type RecordLevel = (typeof RECORD_LEVELS)[number];

export interface RecorderOptions {
  /** The market-data socket, e.g. `ws://127.0.0.1:8080/md/ws`. */
  url: string;
  symbols: readonly string[];
  level: RecordLevel;
  out: string;
  /** Credentials for the token endpoint (the interface's socket wants a login first). */
  username?: string;
  password?: string;
  /** Tick size for every symbol, instead of asking the instrument endpoint. */
  tickSize?: string;
  /** Wall ms between batch flushes (default 1000). */
  flushMs?: number;
  batchRows?: number;
  /**
   * Receive clock, ns since the epoch. A live capture stamps wall time, which only the edge
   * (the CLI: `wallClockNs` in src/cli/wall-clock.ts) may read; tests may pass any clock.
   */
  now: () => bigint;
}

/** What a recording wrote. */
export interface RecordSummary {
  messages: number;
  rows: number;
  bytes: number;
  /** Why it stopped: `stopped` (stop() / duration / signal) or the server closed the socket. */
  reason: 'stopped' | 'closed';
}

/** A failure to connect, log in or subscribe: the message says which and why. */
export class RecorderError extends Error {}

type Msg = Message;

/** Limit for each REST call and socket request of the recorder. */
const TIMEOUT_MS = 10_000;

/** A running recording: `start()` connects and subscribes, `stop()` ends it and closes the file. */
export class MarketDataRecorder {
  /** Market-data messages received (heartbeats and replies excluded). */
  messages = 0;
  private socket: RequestSocket | undefined;
  private writer: MarketArrowWriter | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly ticks = new Map<string, TickSize>();
  private readonly books = new Map<string, { bids: Level[]; asks: Level[] }>();
  private readonly volumes = new Map<string, number>();
  private finished: Promise<RecordSummary> | undefined;
  private resolveDone!: (s: RecordSummary) => void;
  private failure: Error | undefined;
  /** Resolves when the recording ends (stop() or the server closing the socket). */
  readonly done: Promise<RecordSummary> = new Promise((resolve) => (this.resolveDone = resolve));
  private readonly now: () => bigint;

  constructor(private readonly options: RecorderOptions) {
    if (!RECORD_LEVELS.includes(options.level)) throw new RecorderError(`level ${options.level} cannot be recorded (LEVEL_1 or LEVEL_2)`);
    if (options.symbols.length === 0) throw new RecorderError('no symbols to record');
    this.now = options.now;
  }

  /** Connects, logs in, subscribes to every symbol; resolves once all are subscribed. */
  async start(): Promise<void> {
    try {
      await this.connectAndSubscribe();
    } catch (e) {
      await this.finish('stopped');
      throw e;
    }
  }

  private async connectAndSubscribe(): Promise<void> {
    const { url, username, password } = this.options;
    const rest = new RestClient(httpBase(url), TIMEOUT_MS);
    const token = username !== undefined && password !== undefined ? await this.login(rest, username, password) : undefined;
    if (token !== undefined) rest.setBearer(token);
    const units = await this.units(rest, token);
    for (const [symbol, u] of Object.entries(units)) this.ticks.set(symbol, new TickSize(u.tickSize));
    this.writer = new MarketArrowWriter(this.options.out, { instruments: units, source: `recording ${url} ${this.options.level}`, batchRows: this.options.batchRows });
    this.writer.flush();
    this.socket = await RequestSocket.open(url, MARKET_DATA_ENVELOPE, TIMEOUT_MS, (m) => this.onMessage(m), () => void this.finish('closed')).catch((e: Error) => {
      throw new RecorderError(`cannot connect to ${url} (${e.message})`);
    });
    if (token !== undefined) await this.request('login', { username, token }, 'login');
    for (const symbol of this.options.symbols) await this.request('subscribe', { symbol, level: this.options.level }, `subscribe ${symbol}`);
    this.timer = setInterval(() => this.flush(), this.options.flushMs ?? 1000);
    this.timer.unref();
  }

  private login(rest: RestClient, username: string, password: string): Promise<string> {
    return obtainToken(rest, { username, password }, 86_400).catch((e: Error) => {
      throw new RecorderError(`login as ${username} failed: ${e.message}`);
    });
  }

  /** Ends the recording: closes the socket, writes the last batch and the footer. */
  stop(): Promise<RecordSummary> {
    return this.finish('stopped');
  }

  private finish(reason: RecordSummary['reason']): Promise<RecordSummary> {
    this.finished ??= (async () => {
      clearInterval(this.timer);
      await this.socket?.close();
      this.writer?.close();
      const summary = { messages: this.messages, rows: this.writer?.rows ?? 0, bytes: this.writer?.bytesWritten ?? 0, reason };
      this.resolveDone(summary);
      return summary;
    })();
    return this.finished;
  }

  /** The first error a message caused (a price off the tick grid, a malformed book), if any. */
  get error(): Error | undefined {
    return this.failure;
  }

  private flush(): void {
    try {
      this.writer?.flush();
    } catch (e) {
      this.failure ??= e as Error;
    }
  }

  private async units(rest: RestClient, token: string | undefined): Promise<Record<string, SymbolUnits>> {
    const { symbols, tickSize } = this.options;
    if (tickSize !== undefined) return Object.fromEntries(symbols.map((s) => [s, { tickSize, lotSize: '1' }]));
    if (token === undefined) throw new RecorderError('give --username and --password (to read tick sizes from the instrument endpoint) or --tick-size');
    const list = (await rest.get<{ instruments: InstrumentInfo[] }>('/auth/instruments').catch((e: Error) => {
      throw new RecorderError(`cannot read the instruments: ${e.message}`);
    })).instruments;
    const out: Record<string, SymbolUnits> = {};
    for (const symbol of symbols) {
      const instrument = list.find((i) => i.symbol === symbol);
      if (instrument === undefined) throw new RecorderError(`unknown symbol ${symbol} (the server lists ${list.map((i) => i.symbol).join(', ')})`);
      out[symbol] = { tickSize: instrument.tick_size, lotSize: '1' };
    }
    return out;
  }

  private async request(type: string, fields: Msg, what: string): Promise<Msg> {
    try {
      return await this.socket!.request(type, fields);
    } catch (e) {
      if (e instanceof WireSocketError) throw new RecorderError(`${what}: error ${e.code}: ${e.message}`);
      if (e instanceof WireError) throw new RecorderError(`${what}: ${e.message}`);
      throw e;
    }
  }

  /** One pushed message (replies are the socket's): market data becomes records. */
  private onMessage(m: Msg): void {
    const recvNs = this.now();
    if (m.t === 'h' || this.writer === undefined || this.finished !== undefined) return;
    try {
      const records = this.decode(m, recvNs);
      if (records === undefined) return;
      this.messages++;
      for (const r of records) this.writer.add(r);
    } catch (e) {
      this.failure ??= e as Error;
    }
  }

  private decode(m: Msg, recvNs: bigint): MarketRecord[] | undefined {
    const symbol = m.s;
    if (typeof symbol !== 'string') return undefined;
    const tick = this.ticks.get(symbol);
    if (tick === undefined) return undefined;
    const exchNs = BigInt(Number(m.ts ?? 0)) * 1_000_000_000n + BigInt(Number(m.tn ?? 0));
    const ticks = (p: unknown): number => {
      const n = typeof p === 'string' ? tick.toTicks(p) : undefined;
      if (n === undefined) throw new RecorderError(`${symbol}: price ${JSON.stringify(p)} is not on the tick ${tick.text}`);
      return n;
    };
    const lots = (q: unknown): number => {
      if (typeof q !== 'number' || !Number.isSafeInteger(q) || q < 0) throw new RecorderError(`${symbol}: quantity ${JSON.stringify(q)} is not a non-negative integer`);
      return q;
    };
    const levels = (side: unknown): Level[] => (Array.isArray(side) ? side.map((l: Msg) => ({ priceTicks: ticks(l.p), qtyLots: lots(l.q) })) : []);
    if (m.t === 's') {
      const volume = lots(m.v);
      const lastQty = lots(m.q);
      const previous = this.volumes.get(symbol);
      this.volumes.set(symbol, volume);
      const out: MarketRecord[] = [];
      if (previous !== undefined && volume - previous === lastQty && lastQty > 0) {
        out.push({ kind: 'trade', recvNs, exchNs, symbol, side: undefined, priceTicks: ticks(m.p), qtyLots: lastQty, tradeId: undefined });
      }
      out.push({
        kind: 'stats', recvNs, exchNs, symbol, lastPrice: String(m.p), lastQtyLots: lastQty, openPrice: String(m.o),
        highPrice: String(m.h), lowPrice: String(m.l), volumeLots: volume,
      });
      return out;
    }
    if (m.t === '1') {
      const [bid] = levels(m.b);
      const [ask] = levels(m.a);
      return [{ kind: 'quote', recvNs, exchNs, symbol, bidTicks: bid?.priceTicks, bidQtyLots: bid?.qtyLots, askTicks: ask?.priceTicks, askQtyLots: ask?.qtyLots }];
    }
    if (m.t === '2') {
      const book = { bids: levels(m.b), asks: levels(m.a) };
      const before = this.books.get(symbol);
      this.books.set(symbol, book);
      if (before === undefined) return bookRows(symbol, recvNs, exchNs, true, book.bids, book.asks);
      const out: MarketRecord[] = [];
      const row = (side: Side, priceTicks: number, qtyLots: number) => out.push({ kind: 'book', recvNs, exchNs, symbol, reset: false, side, priceTicks, qtyLots });
      levelDiff('B', before.bids, book.bids, row);
      levelDiff('S', before.asks, book.asks, row);
      return out;
    }
    return undefined;
  }
}

/** `ws://host:port/md/ws` → `http://host:port` (the REST base the token and instrument endpoints hang off). */
export function httpBase(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new RecorderError(`--url ${JSON.stringify(url)} is not a URL`);
  }
  if (u.protocol !== 'ws:' && u.protocol !== 'wss:') throw new RecorderError(`--url must be a ws:// or wss:// URL, got ${JSON.stringify(url)}`);
  const path = u.pathname.replace(/\/md\/ws\/?$/, '').replace(/\/$/, '');
  return `${u.protocol === 'wss:' ? 'https:' : 'http:'}//${u.host}${path}`;
}
