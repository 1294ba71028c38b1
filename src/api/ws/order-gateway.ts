import type { RawData } from 'ws';
import { toWsOrder } from '../../venue/wire-forms.ts';
import type { Account } from '../../venue/account.ts';
import type { Exchange } from '../exchange.ts';
import { describeValue } from '../json-depth.ts';
import { requireBool, requireString } from './fields.ts';
import { errorOf, readFrame, requestIdOf, sendText, WsRequestError, type Frame } from './frames.ts';
import { OrderFeedHub } from './order-feed-hub.ts';
import { parseCancelRequest, parsePlaceRequest } from './order-requests.ts';
import { scanRequest } from './request-scanner.ts';
import { SessionGateway, type GatewayOptions } from './session-gateway.ts';
import type { WireSocket } from './wire-socket.ts';
import { sendHotReply } from './reply-bytes.ts';
import { encodeOrderReply as replyText, type ReplyBody } from './wire-json.ts';

/** One connection to the order websocket. */
interface OrderSession {
  readonly ws: WireSocket;
  user: { name: string; account: Account } | undefined;
  /** Cancel-on-disconnect: the user's open orders are canceled when this socket goes away. */
  cod: boolean;
}

/** Request types of the order websocket: login, logout, place, cancel, open orders. */
const REQUEST_TYPES = new Set(['a', 'z', 'p', 'x', 'o']);

/**
 * The order websocket (`{base_url}/orders`): request `{rid, t, …}`, success `{rid, res}`, error
 * `{rid, err: {code, msg}}`. The client logs in with `a` first; until then every known request
 * is a 401 and the socket stays open. Order feeds of the logged-in user are pushed as the venue
 * emits them (to every socket logged in as that user), and a heartbeat `{t: "h", ts, tn}` in sim
 * time goes to every socket.
 *
 * Interpretations: an unknown `t` is a 400 even before login (it is no operation at all); a
 * `rid` that is missing or not an integer is a 400 whose envelope echoes the rid when it is a
 * string or number; the response to a command precedes the feeds the command caused.
 */
export class OrderGateway extends SessionGateway<OrderSession> {
  private readonly hub = new OrderFeedHub();
  private readonly unsubscribe: () => void;
  protected readonly expiredFrame = JSON.stringify({ rid: null, err: { code: 401, msg: 'token expired or revoked; log in again' } });

  constructor(exchange: Exchange, options: GatewayOptions) {
    super(exchange, options, 'order');
    this.unsubscribe = exchange.venue.subscribe(this.hub);
  }

  protected closeChannel(): void {
    this.unsubscribe();
  }

  protected connect(ws: WireSocket): void {
    const session: OrderSession = { ws, user: undefined, cod: false };
    ws.on('message', (data: RawData) => this.onMessage(session, data));
    ws.on('close', () => this.disconnected(session));
  }

  /** The socket went away: cancel-on-disconnect if the login asked for it, then end the login. */
  private disconnected(session: OrderSession): void {
    const user = session.user;
    this.endLogin(session);
    if (user === undefined || !session.cod) return;
    this.exchange.sync();
    this.exchange.commands.cancelAll(user.account);
  }

  private onMessage(session: OrderSession, data: RawData): void {
    // Place and cancel requests are read by the scanner; anything it does not read, by JSON.parse.
    let frame = Buffer.isBuffer(data) ? scanRequest(data) : undefined;
    if (frame === undefined) {
      const read = readFrame(data);
      if ('refused' in read) {
        sendText(session.ws, JSON.stringify({ rid: null, err: { code: 400, msg: read.refused } }));
        return;
      }
      frame = read.frame;
    }
    if (!this.watch.check(session)) return;
    this.exchange.sync();
    // Feeds the command causes wait until its reply is sent (the reply comes first on the wire).
    this.hub.holdFeeds();
    try {
      this.answer(session, frame);
    } finally {
      this.hub.releaseFeeds();
    }
  }

  /** Runs the request and sends its reply: the hot ones (placed, canceled, integer rid) as bytes, the rest as text. */
  private answer(session: OrderSession, frame: Frame): void {
    const raw = frame.rid;
    const rid = typeof raw === 'number' && Number.isSafeInteger(raw) ? { id: raw } : requestIdOf(frame, 'rid');
    let body: ReplyBody;
    try {
      if (rid.error !== undefined) throw rid.error;
      body = this.dispatch(session, frame);
    } catch (e) {
      const { code, message } = errorOf(e);
      body = { err: { code, msg: message } };
    }
    const id = rid.id;
    if (typeof id === 'number') {
      if ('placed' in body && sendHotReply(session.ws, id, body.placed)) return;
      if ('canceled' in body && sendHotReply(session.ws, id, undefined)) return;
    }
    sendText(session.ws, replyText(id, body));
  }

  private dispatch(session: OrderSession, frame: Frame): ReplyBody {
    const t = frame.t;
    if (t === undefined || t === null) throw new WsRequestError(400, 't is required');
    if (typeof t !== 'string' || !REQUEST_TYPES.has(t)) throw new WsRequestError(400, `unknown request type ${describeValue(t)}`);
    if (t === 'a') return { res: this.login(session, frame) };
    const user = session.user;
    if (user === undefined) throw new WsRequestError(401, 'not logged in');
    const venue = this.exchange.venue;
    switch (t) {
      case 'z':
        this.endLogin(session);
        return { res: { lo: user.name } };
      case 'p':
        return { placed: this.exchange.commands.placeId(user.account, parsePlaceRequest(frame)) };
      case 'x':
        this.exchange.commands.cancel(user.account, parseCancelRequest(frame));
        return { canceled: true };
      default: // 'o'
        return { o: venue.openOrders(user.account).map(toWsOrder) };
    }
  }

  private login(session: OrderSession, frame: Frame): Record<string, unknown> {
    if (session.user !== undefined) throw new WsRequestError(409, `already logged in as ${session.user.name}`);
    const username = requireString(frame, 'u');
    const token = requireString(frame, 'k');
    const cod = frame.cod === undefined ? undefined : requireBool(frame, 'cod');
    const account = this.exchange.users.userForToken(token) === username ? this.exchange.venue.account(username) : undefined;
    if (account === undefined) throw new WsRequestError(401, 'invalid or expired token for this user');
    this.admit(session, username, token);
    session.user = { name: username, account };
    session.cod = cod ?? false;
    this.hub.attach(account.id, session.ws);
    const res: Record<string, unknown> = { li: username, o: this.exchange.venue.openOrders(account).map(toWsOrder) };
    if (cod !== undefined) res.cod = cod; // reported when asked for, as the live venue does
    return res;
  }

  private endLogin(session: OrderSession): void {
    this.watch.unwatch(session);
    if (session.user === undefined) return;
    this.hub.detach(session.user.account.id, session.ws);
    session.user = undefined;
  }
}
