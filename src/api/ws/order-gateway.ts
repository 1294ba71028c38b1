import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { RawData, WebSocket, WebSocketServer } from 'ws';
import { toWsOrder } from '../../venue/wire-forms.ts';
import type { WsOrder } from '../../wire/order.ts';
import type { Account } from '../../venue/account.ts';
import type { Exchange } from '../exchange.ts';
import { describeValue } from '../json-depth.ts';
import { requireString } from './fields.ts';
import { errorOf, readFrame, requestIdOf, sendText, WsRequestError, type Frame } from './frames.ts';
import { startHeartbeat } from './heartbeat.ts';
import { OrderFeedHub } from './order-feed-hub.ts';
import { parseCancelRequest, parsePlaceRequest } from './order-requests.ts';
import { closeSocketServer, createSocketServer, upgradeInto, type SocketEndpoint } from './socket-server.ts';

/** One connection to the order websocket. */
interface OrderSession {
  readonly ws: WebSocket;
  user: { name: string; account: Account } | undefined;
}

/** Request types of the order websocket: login, logout, place, cancel, open orders. */
const REQUEST_TYPES = new Set(['a', 'z', 'p', 'x', 'o']);

/** The part of a reply that follows `rid`: `res` for most requests, `o` beside rid for `t: "o"`. */
type ReplyBody = { res: Record<string, unknown> } | { o: WsOrder[] };

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
export class OrderGateway implements SocketEndpoint {
  private readonly hub = new OrderFeedHub();
  private readonly wss: WebSocketServer;
  private readonly unsubscribe: () => void;
  private readonly stopHeartbeat: () => void;

  constructor(
    private readonly exchange: Exchange,
    options: { heartbeatMs: number },
  ) {
    this.wss = createSocketServer((ws) => this.connect(ws));
    this.unsubscribe = exchange.venue.subscribe(this.hub);
    this.stopHeartbeat = startHeartbeat(this.wss, exchange, options.heartbeatMs);
  }

  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    upgradeInto(this.wss, req, socket, head);
  }

  async close(): Promise<void> {
    this.stopHeartbeat();
    this.unsubscribe();
    await closeSocketServer(this.wss);
  }

  private connect(ws: WebSocket): void {
    const session: OrderSession = { ws, user: undefined };
    ws.on('message', (data: RawData) => this.onMessage(session, data));
    ws.on('close', () => this.endLogin(session));
  }

  private onMessage(session: OrderSession, data: RawData): void {
    const read = readFrame(data);
    if ('refused' in read) {
      sendText(session.ws, JSON.stringify({ rid: null, err: { code: 400, msg: read.refused } }));
      return;
    }
    const frame = read.frame;
    const rid = requestIdOf(frame, 'rid');
    this.exchange.sync();
    this.hub.hold(() => {
      let reply: Record<string, unknown>;
      try {
        if (rid.error !== undefined) throw rid.error;
        reply = { rid: rid.id, ...this.dispatch(session, frame) };
      } catch (e) {
        const { code, message } = errorOf(e);
        reply = { rid: rid.id, err: { code, msg: message } };
      }
      sendText(session.ws, JSON.stringify(reply));
    });
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
        return { res: { oid: venue.placeOrder(user.account, parsePlaceRequest(frame)).id } };
      case 'x':
        venue.cancelOrder(user.account, parseCancelRequest(frame));
        return { res: { cxl_rx: true } };
      default: // 'o'
        return { o: venue.openOrders(user.account).map(toWsOrder) };
    }
  }

  private login(session: OrderSession, frame: Frame): Record<string, unknown> {
    if (session.user !== undefined) throw new WsRequestError(409, `already logged in as ${session.user.name}`);
    const username = requireString(frame, 'u');
    const token = requireString(frame, 'k');
    const account = this.exchange.users.userForToken(token) === username ? this.exchange.venue.account(username) : undefined;
    if (account === undefined) throw new WsRequestError(401, 'invalid or expired token for this user');
    session.user = { name: username, account };
    this.hub.attach(account.id, session.ws);
    return { li: username, o: this.exchange.venue.openOrders(account).map(toWsOrder) };
  }

  private endLogin(session: OrderSession): void {
    if (session.user === undefined) return;
    this.hub.detach(session.user.account.id, session.ws);
    session.user = undefined;
  }
}
