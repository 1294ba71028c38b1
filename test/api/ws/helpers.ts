import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { Exchange, type ExchangeOptions } from '../../../src/api/exchange.ts';
import { startServer, type RunningServer } from '../../../src/api/server.ts';
import { parseScenario } from '../../../src/scenario/load.ts';

/** A decoded JSON message (tests read it loosely). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Msg = Record<string, any>;

/** Start of scenarios/empty.json (2026-01-01T00:00:00Z) in Unix seconds. */
export const START_SEC = 1_767_225_600;

const notHeartbeat = (m: Msg) => m.t !== 'h';

/** A websocket client that buffers every message and lets a test wait for the next matching one. */
export class TestSocket {
  /** Messages received and not yet taken, with their raw text. */
  private readonly buffer: { msg: Msg; raw: string }[] = [];
  private wake: (() => void) | undefined;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const raw = data.toString();
      this.buffer.push({ msg: JSON.parse(raw) as Msg, raw });
      this.wake?.();
    });
  }

  static async open(url: string): Promise<TestSocket> {
    const ws = new WebSocket(url);
    const socket = new TestSocket(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return socket;
  }

  send(value: unknown): void {
    this.ws.send(typeof value === 'string' ? value : JSON.stringify(value));
  }

  /** Takes the first buffered (or next arriving) message matching `match` (default: not a heartbeat). */
  async next(match: (m: Msg) => boolean = notHeartbeat, timeoutMs = 2000): Promise<Msg> {
    return (await this.nextRaw(match, timeoutMs)).msg;
  }

  /** Like {@link next}, with the message's raw text. */
  async nextRaw(match: (m: Msg) => boolean = notHeartbeat, timeoutMs = 2000): Promise<{ msg: Msg; raw: string }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = this.buffer.findIndex((e) => match(e.msg));
      if (i >= 0) return this.buffer.splice(i, 1)[0]!;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching message within ${timeoutMs} ms; buffered: ${JSON.stringify(this.buffer.map((e) => e.msg))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }

  /** Sends a request and waits for the reply carrying the same id under `idKey`. */
  async request(value: Msg, idKey = 'rid'): Promise<Msg> {
    this.send(value);
    return this.next((m) => m[idKey] === value[idKey] && m.t === undefined);
  }

  /** Waits `ms`, then takes and returns every buffered message that is not a heartbeat. */
  async drain(ms = 100): Promise<Msg[]> {
    await new Promise((resolve) => setTimeout(resolve, ms));
    const out: Msg[] = [];
    for (let i = 0; i < this.buffer.length; ) {
      if (notHeartbeat(this.buffer[i]!.msg)) out.push(this.buffer.splice(i, 1)[0]!.msg);
      else i++;
    }
    return out;
  }

  get isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      this.ws.once('close', () => resolve());
      this.ws.close();
    });
  }
}

/** An exchange on the empty scenario behind a server on 127.0.0.1, port 0, with tokens for alice and bob. */
export interface Fixture {
  exchange: Exchange;
  server: RunningServer;
  tokens: { alice: string; bob: string };
  /** Opens a socket at `path` (closed by `close`). */
  open(path: '/orders' | '/md/ws'): Promise<TestSocket>;
  /** An order socket logged in as `user`. */
  orderSocket(user: 'alice' | 'bob'): Promise<TestSocket>;
  /** A market-data socket logged in as alice. */
  mdSocket(): Promise<TestSocket>;
  close(): Promise<void>;
}

export function emptyScenario() {
  return parseScenario(JSON.parse(readFileSync(join(import.meta.dirname, '../../../scenarios/empty.json'), 'utf8')));
}

export async function startFixture(
  options: { heartbeatMs?: number; exchange?: ExchangeOptions; appPort?: number } = {},
): Promise<Fixture> {
  const exchange = await Exchange.create(emptyScenario(), { manual: true, scryptCost: 1024, ...options.exchange });
  const server = await startServer(exchange, { port: 0, heartbeatMs: options.heartbeatMs ?? 2000, appPort: options.appPort });
  const tokens = {
    alice: (await exchange.users.tokenForPassword('alice', 'alice-password', 3600))!,
    bob: (await exchange.users.tokenForPassword('bob', 'bob-password', 3600))!,
  };
  const sockets: TestSocket[] = [];
  let rid = 1_000_000;
  const fx: Fixture = {
    exchange,
    server,
    tokens,
    async open(path) {
      const socket = await TestSocket.open(server.wsUrl + path);
      sockets.push(socket);
      return socket;
    },
    async orderSocket(user) {
      const socket = await fx.open('/orders');
      const reply = await socket.request({ rid: ++rid, t: 'a', u: user, k: tokens[user] });
      if (reply.res?.li !== user) throw new Error(`login failed: ${JSON.stringify(reply)}`);
      return socket;
    },
    async mdSocket() {
      const socket = await fx.open('/md/ws');
      const reply = await socket.request({ request_id: ++rid, type: 'login', username: 'alice', token: tokens.alice }, 'request_id');
      if (reply.result?.logged_in !== 'alice') throw new Error(`login failed: ${JSON.stringify(reply)}`);
      return socket;
    },
    async close() {
      await Promise.all(sockets.map((s) => s.close()));
      await server.close();
    },
  };
  return fx;
}

/** A place-order request of the order websocket (BTCUSD-PERP GTC, not post-only, unless overridden). */
export function place(rid: number, d: 'B' | 'S', q: number, p: string, extra: Msg = {}): Msg {
  return { rid, t: 'p', s: 'BTCUSD-PERP', d, q, p, tif: 'GTC', po: false, ...extra };
}

/** Rests a GTC order for `user` straight on the venue (as a REST handler or a sim agent would). */
export function rest(exchange: Exchange, user: string, side: 'B' | 'S', quantity: number, price: string, symbol = 'BTCUSD-PERP') {
  return exchange.venue.placeOrder(exchange.venue.account(user)!, { symbol, side, quantity, price, timeInForce: 'GTC', postOnly: false });
}

/** Sorted keys of an object (for exact key-set checks). */
export function keys(value: Msg | undefined): string[] {
  return Object.keys(value ?? {}).sort();
}

/** Keys of an order in websocket form. */
export const WS_ORDER_KEYS = ['d', 'liq', 'o', 'oid', 'p', 'q', 'rq', 's', 'tif', 'tn', 'ts', 'u', 'xq'];
