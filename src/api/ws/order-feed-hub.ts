import type { WebSocket } from 'ws';
import type { VenueListener } from '../../venue/feeds.ts';
import type { OrderEvent } from '../../venue/order-events.ts';
import { sendText } from './frames.ts';
import { encodeOrderFeed } from './wire-json.ts';

/**
 * Routes the venue's order feeds to the order sockets logged in as the feed's user. One hub
 * listens to the venue for the whole server; each feed is serialized once (by hand,
 * ./wire-json.ts), and only when some socket wants it.
 *
 * While a socket's own command runs (`hold`), feeds are queued and sent after the command's
 * response, so a client sees `{rid, res: {oid}}` before the `n` feed of that order and
 * `cxl_rx` before the `c` / `e` feed of its cancel.
 */
export class OrderFeedHub implements VenueListener {
  private readonly socketsByUser = new Map<number, Set<WebSocket>>();
  private holdDepth = 0;
  private readonly held: { userId: number; text: string }[] = [];

  /** Starts sending `userId`'s feeds to `ws`. */
  attach(userId: number, ws: WebSocket): void {
    let set = this.socketsByUser.get(userId);
    if (set === undefined) this.socketsByUser.set(userId, (set = new Set()));
    set.add(ws);
  }

  /** Stops sending `userId`'s feeds to `ws`. */
  detach(userId: number, ws: WebSocket): void {
    const set = this.socketsByUser.get(userId);
    if (set === undefined) return;
    set.delete(ws);
    if (set.size === 0) this.socketsByUser.delete(userId);
  }

  /**
   * Venue hook: one feed for one user, before it is an object. The feed object is built (and
   * written) only for a user some socket is logged in as; other users' feeds cost a map lookup.
   */
  orderEvent(e: OrderEvent): void {
    const userId = e.userId;
    if (!this.socketsByUser.has(userId)) return;
    const text = encodeOrderFeed(e.feed());
    if (this.holdDepth > 0) this.held.push({ userId, text });
    else this.deliver(userId, text);
  }

  /**
   * Runs `fn` (a command and the sending of its response) with feeds held back, then sends
   * the held feeds in the order the venue emitted them.
   */
  hold<T>(fn: () => T): T {
    this.holdDepth++;
    try {
      return fn();
    } finally {
      if (--this.holdDepth === 0 && this.held.length > 0) {
        const feeds = this.held.splice(0);
        for (const f of feeds) this.deliver(f.userId, f.text);
      }
    }
  }

  private deliver(userId: number, text: string): void {
    const set = this.socketsByUser.get(userId);
    if (set !== undefined) for (const ws of set) sendText(ws, text);
  }
}
