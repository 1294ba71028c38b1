import { WebSocket, type RawData } from 'ws';
import { WireError, WireSocketError } from './errors.ts';

/** A decoded websocket message. */
export type Message = Record<string, unknown>;

/** The envelope keys of one of the document's two websockets. */
export interface Envelope {
  /** Name used in error messages. */
  name: string;
  /** Request id key: `rid` (order socket) or `request_id` (market data). */
  idKey: string;
  /** Request type key: `t` or `type`. */
  typeKey: string;
  /** The error of a reply, when it is an error envelope. */
  errorOf(reply: Message): { code: number; message: string } | undefined;
}

/** Order websocket: `{rid, t, …}` → `{rid, res}` or `{rid, err: {code, msg}}`. */
export const ORDER_ENVELOPE = envelope('order websocket', 'rid', 't', 'err', 'msg');

/** Market-data websocket: `{request_id, type, …}` → `{request_id, result}` or `{request_id, error: {code, message}}`. */
export const MARKET_DATA_ENVELOPE = envelope('market data websocket', 'request_id', 'type', 'error', 'message');

function envelope(name: string, idKey: string, typeKey: string, errorKey: string, messageKey: string): Envelope {
  return {
    name,
    idKey,
    typeKey,
    errorOf: (m) => {
      const err = m[errorKey] as Record<string, unknown> | undefined;
      return err === undefined ? undefined : { code: Number(err.code), message: String(err[messageKey]) };
    },
  };
}

interface Pending {
  resolve(reply: Message): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * One websocket of the document: requests with integer ids matched to their replies (a message
 * carrying the id key and no `t`), and every other message (feeds, market data, heartbeats)
 * handed to `onPush` in arrival order. Error envelopes reject with {@link WireSocketError}; a
 * closed socket rejects everything pending.
 */
export class RequestSocket {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closedError: WireError | undefined;

  private constructor(
    private readonly ws: WebSocket,
    private readonly envelope: Envelope,
    private readonly timeoutMs: number,
    onPush: (message: Message) => void,
    onClose: (() => void) | undefined,
  ) {
    ws.on('message', (data: RawData) => {
      let message: Message;
      try {
        message = JSON.parse(data.toString()) as Message;
      } catch {
        return; // not JSON: nothing the document sends
      }
      const id = message[envelope.idKey];
      if (typeof id === 'number' && message.t === undefined) this.settle(id, message);
      else onPush(message);
    });
    ws.on('close', () => {
      this.fail(new WireError(`${envelope.name} closed`));
      onClose?.();
    });
    ws.on('error', (e) => this.fail(new WireError(`${envelope.name}: ${e.message}`, { cause: e })));
  }

  /** Connects to `url`; `onClose` runs once the socket closed, whoever closed it. */
  static open(url: string, envelope: Envelope, timeoutMs: number, onPush: (message: Message) => void, onClose?: () => void): Promise<RequestSocket> {
    const ws = new WebSocket(url, { handshakeTimeout: timeoutMs });
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new RequestSocket(ws, envelope, timeoutMs, onPush, onClose)));
      ws.once('error', (e) => reject(new WireError(`${envelope.name} ${url}: ${e.message}`, { cause: e })));
    });
  }

  /** Sends `{id, type, …fields}` and resolves with the whole success reply. */
  request(type: string, fields: Message = {}): Promise<Message> {
    if (this.closedError !== undefined) return Promise.reject(this.closedError);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new WireError(`${this.envelope.name}: no reply to ${type} within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      this.ws.send(JSON.stringify({ [this.envelope.idKey]: id, [this.envelope.typeKey]: type, ...fields }));
    });
  }

  /** Closes the socket; resolves once it is closed. */
  close(): Promise<void> {
    this.fail(new WireError(`${this.envelope.name} closed by the client`));
    if (this.ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      this.ws.once('close', () => resolve());
      if (this.ws.readyState !== WebSocket.CLOSING) this.ws.close();
    });
  }

  private settle(id: number, reply: Message): void {
    const p = this.pending.get(id);
    if (p === undefined) return;
    this.pending.delete(id);
    clearTimeout(p.timer);
    const error = this.envelope.errorOf(reply);
    if (error === undefined) p.resolve(reply);
    else p.reject(new WireSocketError(error.code, error.message));
  }

  private fail(error: WireError): void {
    this.closedError ??= error;
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.reject(error);
    }
    this.pending.clear();
  }
}
