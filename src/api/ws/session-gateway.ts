import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocketServer } from 'ws';
import type { Exchange } from '../exchange.ts';
import { CLOSE_TOKEN_EXPIRED, CLOSE_TOO_MANY } from './close-codes.ts';
import { sendText, WsRequestError } from './frames.ts';
import { startHeartbeat } from './heartbeat.ts';
import { closeSocketServer, createSocketServer, upgradeInto, type SocketEndpoint, type SocketLimits } from './socket-server.ts';
import { TokenWatch } from './token-watch.ts';
import type { WireSocket } from './wire-socket.ts';

/** How server.ts sets up a websocket endpoint. */
export interface GatewayOptions {
  /** Wall milliseconds between heartbeats. */
  heartbeatMs: number;
  limits: SocketLimits;
}

/**
 * The life of a websocket endpoint's sessions, which the order and market-data websockets
 * share: a socket server under the server's caps, the heartbeat to every socket, and the token
 * watch that ends a session whose token expired or was revoked (the client is told in its
 * channel's envelope, then the socket is closed). A subclass is one channel: it makes a session
 * per connection, answers its messages (that code stays the subclass's own: it is the wire's
 * hot path) and logs sessions in through `admit`.
 */
export abstract class SessionGateway<S extends { readonly ws: WireSocket }> implements SocketEndpoint {
  private readonly wss: WebSocketServer;
  protected readonly watch: TokenWatch<S>;
  private readonly stopHeartbeat: () => void;
  private readonly maxSocketsPerUser: number;

  /** `socketsName` names the endpoint's sockets in the 429 of a login past the per-user cap. */
  constructor(
    protected readonly exchange: Exchange,
    options: GatewayOptions,
    private readonly socketsName: string,
  ) {
    this.maxSocketsPerUser = options.limits.maxSocketsPerUser;
    this.wss = createSocketServer((ws) => this.connect(ws), options.limits);
    this.stopHeartbeat = startHeartbeat(this.wss, exchange, options.heartbeatMs);
    this.watch = new TokenWatch(exchange.users, (session) => this.expire(session), options.limits.tokenSweepMs);
  }

  /** The 401 a session whose token ended is sent, in the channel's envelope. */
  protected abstract readonly expiredFrame: string;

  /** Makes the session of a new socket and listens to it. */
  protected abstract connect(ws: WireSocket): void;

  /** Stops what the channel feeds its sockets from (on `close`, before the sockets close). */
  protected abstract closeChannel(): void;

  /** What the channel ends at once when a session's token ended (before it is told). */
  protected tokenEnded(_session: S): void {}

  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    upgradeInto(this.wss, req, socket, head);
  }

  async close(): Promise<void> {
    this.watch.close();
    this.stopHeartbeat();
    this.closeChannel();
    await closeSocketServer(this.wss);
  }

  /**
   * Logs `session` in as `username` (its token already checked): watched from now on. Past the
   * per-user cap a 429 is thrown instead and the socket is closed after the reply has gone.
   */
  protected admit(session: S, username: string, token: string): void {
    if (this.watch.countOf(username) >= this.maxSocketsPerUser) {
      setImmediate(() => session.ws.close(CLOSE_TOO_MANY, 'too many sockets for this user'));
      throw new WsRequestError(429, `at most ${this.maxSocketsPerUser} ${this.socketsName} sockets per user`);
    }
    this.watch.watch(session, token, username);
  }

  /** The session's token expired or was revoked: tell the client, then close the socket. */
  private expire(session: S): void {
    this.tokenEnded(session);
    sendText(session.ws, this.expiredFrame);
    session.ws.close(CLOSE_TOKEN_EXPIRED, 'token expired');
  }
}
