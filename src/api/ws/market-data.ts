import type { RawData } from 'ws';
import type { Market } from '../../venue/market.ts';
import type { Exchange } from '../exchange.ts';
import { describeValue } from '../json-depth.ts';
import { depthProblem } from '../../wire/market-data.ts';
import { requireEnum, requireString } from './fields.ts';
import { errorOf, readFrame, requestIdOf, sendText, WsRequestError, type Frame } from './frames.ts';
import { MarketDataFanout } from './md-fanout.ts';
import { LEVELS, type Level } from './md-messages.ts';
import { SessionGateway, type GatewayOptions } from './session-gateway.ts';
import type { WireSocket } from './wire-socket.ts';

/** One connection to the market-data websocket. */
interface MdSession {
  readonly ws: WireSocket;
  user: string | undefined;
  /** Subscribed symbols and their level and depth (one subscription per symbol). */
  readonly subscriptions: Map<string, { level: Level; depth: number | undefined }>;
}

/** What a request produced: the `result`, and what to send after it (stats and book). */
interface Outcome {
  result: Record<string, unknown>;
  after?: () => void;
}

const REQUEST_TYPES = new Set(['login', 'logout', 'subscribe', 'unsubscribe']);

/** The optional `depth` of a subscribe: absent or null → every level; else an integer 1…{@link MAX_MARKET_DATA_DEPTH}. */
function optionalDepth(frame: Frame): number | undefined {
  const value = frame.depth;
  const problem = depthProblem(value);
  if (problem !== undefined) throw new WsRequestError(400, problem);
  return value === null ? undefined : (value as number | undefined);
}

/**
 * The market-data websocket (`{ws_base_url}/md/ws`): request `{request_id, type, …}`, success
 * `{request_id, result}`, error `{request_id, error: {code, message}}`. Login first; then
 * subscribe to symbols at LEVEL_1, LEVEL_2 or LEVEL_3 (see {@link MarketDataFanout} for what
 * is sent and when). Heartbeats `{t: "h", ts, tn}` in sim time go to every socket.
 *
 * Interpretations: one subscription per symbol — subscribing again, at any level, is a 409
 * (unsubscribe first to change level); logout ends the socket's subscriptions; an unknown
 * `type` is a 400 even before login; a missing `level` is a 400. Extension: an optional
 * `depth` on subscribe limits book updates to the first `depth` levels a side.
 */
export class MarketDataGateway extends SessionGateway<MdSession> {
  private readonly fanout: MarketDataFanout;
  private readonly removeFlush: () => void;
  protected readonly expiredFrame = JSON.stringify({ request_id: null, error: { code: 401, message: 'token expired or revoked; log in again' } });

  constructor(exchange: Exchange, options: GatewayOptions) {
    super(exchange, options, 'market-data');
    this.fanout = new MarketDataFanout(exchange.venue);
    this.removeFlush = exchange.onAfterRun(() => this.fanout.flush());
  }

  protected closeChannel(): void {
    this.removeFlush();
    this.fanout.close();
  }

  protected connect(ws: WireSocket): void {
    const session: MdSession = { ws, user: undefined, subscriptions: new Map() };
    ws.on('message', (data: RawData) => this.onMessage(session, data));
    ws.on('close', () => {
      this.watch.unwatch(session);
      this.dropSubscriptions(session);
    });
  }

  /** The session's token ended: its subscriptions and login end at once (it is told and closed next). */
  protected override tokenEnded(session: MdSession): void {
    this.dropSubscriptions(session);
    session.user = undefined;
  }

  private onMessage(session: MdSession, data: RawData): void {
    const read = readFrame(data);
    if ('refused' in read) {
      sendText(session.ws, JSON.stringify({ request_id: null, error: { code: 400, message: read.refused } }));
      return;
    }
    const frame = read.frame;
    if (!this.watch.check(session)) return;
    const rid = requestIdOf(frame, 'request_id');
    this.exchange.sync();
    this.fanout.flush();
    let outcome: Outcome;
    try {
      if (rid.error !== undefined) throw rid.error;
      outcome = this.dispatch(session, frame);
    } catch (e) {
      const { code, message } = errorOf(e);
      sendText(session.ws, JSON.stringify({ request_id: rid.id, error: { code, message } }));
      return;
    }
    sendText(session.ws, JSON.stringify({ request_id: rid.id, result: outcome.result }));
    outcome.after?.();
  }

  private dispatch(session: MdSession, frame: Frame): Outcome {
    const type = frame.type;
    if (type === undefined || type === null) throw new WsRequestError(400, 'type is required');
    if (typeof type !== 'string' || !REQUEST_TYPES.has(type)) throw new WsRequestError(400, `unknown request type ${describeValue(type)}`);
    if (type === 'login') return { result: this.login(session, frame) };
    const user = session.user;
    if (user === undefined) throw new WsRequestError(401, 'not logged in');
    switch (type) {
      case 'logout':
        this.dropSubscriptions(session);
        this.watch.unwatch(session);
        session.user = undefined;
        return { result: { logged_out: user } };
      case 'subscribe':
        return this.subscribe(session, frame);
      default: // 'unsubscribe'
        return { result: { unsubscribed: this.unsubscribeOne(session, frame) } };
    }
  }

  private login(session: MdSession, frame: Frame): Record<string, unknown> {
    if (session.user !== undefined) throw new WsRequestError(409, `already logged in as ${session.user}`);
    const username = requireString(frame, 'username');
    const token = requireString(frame, 'token');
    if (this.exchange.users.userForToken(token) !== username) throw new WsRequestError(401, 'invalid or expired token for this user');
    this.admit(session, username, token);
    session.user = username;
    return { logged_in: username };
  }

  private subscribe(session: MdSession, frame: Frame): Outcome {
    const symbol = requireString(frame, 'symbol');
    const level = requireEnum(frame, 'level', LEVELS);
    const depth = optionalDepth(frame);
    const market = this.marketOf(symbol);
    if (session.subscriptions.has(symbol)) throw new WsRequestError(409, `already subscribed to ${symbol}`);
    session.subscriptions.set(symbol, { level, depth });
    // `depth` is echoed when it was asked for (an extension: clients that do not send it see the reply they always did).
    const result = depth === undefined ? { subscribed: symbol } : { subscribed: symbol, depth };
    return { result, after: () => this.fanout.subscribe(session.ws, market, level, depth) };
  }

  private unsubscribeOne(session: MdSession, frame: Frame): string {
    const symbol = requireString(frame, 'symbol');
    const sub = session.subscriptions.get(symbol);
    if (sub === undefined) throw new WsRequestError(404, `not subscribed to ${symbol}`);
    session.subscriptions.delete(symbol);
    this.fanout.unsubscribe(session.ws, symbol, sub.level, sub.depth);
    return symbol;
  }

  private marketOf(symbol: string): Market {
    const market = this.exchange.venue.market(symbol);
    if (market === undefined) throw new WsRequestError(404, `unknown symbol ${symbol}`);
    return market;
  }

  private dropSubscriptions(session: MdSession): void {
    for (const [symbol, sub] of session.subscriptions) this.fanout.unsubscribe(session.ws, symbol, sub.level, sub.depth);
    session.subscriptions.clear();
  }
}
