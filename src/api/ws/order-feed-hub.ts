import type { VenueListener } from '../../venue/feeds.ts';
import type { OrderEvent } from '../../venue/order-events.ts';
import { JsonBytes, writeOrderEvent } from './json-bytes.ts';
import { sendBytes } from './outbox.ts';
import type { WireSocket } from './wire-socket.ts';

/**
 * Routes the venue's order feeds to the order sockets logged in as the feed's user. One hub
 * listens to the venue for the whole server; each feed is serialized once, straight to UTF-8
 * bytes (./json-bytes.ts), and only when some socket wants it; the bytes are copied into each
 * socket's frames for the turn.
 *
 * While a socket's own command runs (`holdFeeds` … `releaseFeeds`), feeds are queued and sent
 * after the command's response, so a client sees `{rid, res: {oid}}` before the `n` feed of
 * that order and `cxl_rx` before the `c` / `e` feed of its cancel.
 */
export class OrderFeedHub implements VenueListener {
  private readonly socketsByUser = new Map<number, Set<WireSocket>>();
  private holdDepth = 0;
  /** Feeds written and not yet delivered (only while holding; else emptied after each feed). */
  private readonly out = new JsonBytes();
  /** Held feeds as (userId, start, end) triples over `out`. */
  private readonly held: number[] = [];

  /** Starts sending `userId`'s feeds to `ws`. */
  attach(userId: number, ws: WireSocket): void {
    let set = this.socketsByUser.get(userId);
    if (set === undefined) this.socketsByUser.set(userId, (set = new Set()));
    set.add(ws);
  }

  /** Stops sending `userId`'s feeds to `ws`. */
  detach(userId: number, ws: WireSocket): void {
    const set = this.socketsByUser.get(userId);
    if (set === undefined) return;
    set.delete(ws);
    if (set.size === 0) this.socketsByUser.delete(userId);
  }

  /**
   * Venue hook: one feed for one user, before it is an object. It is written (from the event,
   * with no feed object) only for a user some socket is logged in as; other users' feeds cost a
   * map lookup.
   */
  orderEvent(e: OrderEvent): void {
    const userId = e.userId;
    if (!this.socketsByUser.has(userId)) return;
    const out = this.out;
    const start = out.end;
    writeOrderEvent(out, e);
    if (this.holdDepth > 0) this.held.push(userId, start, out.end);
    else {
      this.deliver(userId, start, out.end);
      out.reset();
    }
  }

  /**
   * Holds feeds back (a command runs and sends its response) until the matching
   * {@link releaseFeeds}, which sends them in the order the venue emitted them. Nests.
   */
  holdFeeds(): void {
    this.holdDepth++;
  }

  /** Ends a {@link holdFeeds}; the outermost sends the held feeds. */
  releaseFeeds(): void {
    if (--this.holdDepth > 0 || this.held.length === 0) return;
    const held = this.held;
    for (let i = 0; i < held.length; i += 3) this.deliver(held[i]!, held[i + 1]!, held[i + 2]!);
    held.length = 0;
    this.out.reset();
  }

  private deliver(userId: number, start: number, end: number): void {
    const set = this.socketsByUser.get(userId);
    if (set !== undefined) for (const ws of set) sendBytes(ws, this.out.buf, start, end);
  }
}
