import type { OrderFeed } from '../wire/order.ts';
import type { Market } from '../venue/market.ts';
import type { Venue } from '../venue/venue.ts';

/** What the hub calls on a port. */
export interface PortSink {
  /** An order feed of the port's user, at the instant the venue produced it. */
  onFeed(feed: OrderFeed): void;
  /** End of an instant in which `market`'s book changed. */
  captureBook(market: Market): void;
  /** End of an instant in which `market` traded. */
  captureStats(market: Market): void;
}

const hubs = new WeakMap<Venue, PortHub>();

/**
 * The one venue listener behind every in-process port of a venue: routes each order feed to
 * the ports of its user only, and coalesces book changes and trades per market and instant
 * with a single clock event for all ports watching that market (rather than one listener and
 * one event per port). Ports are served in the order they started watching.
 */
export class PortHub {
  private readonly byUser = new Map<number, Set<PortSink>>();
  private readonly byMarket = new Map<Market, Set<PortSink>>();
  private readonly pendingBook = new Set<Market>();
  private readonly pendingStats = new Set<Market>();

  /** The hub of `venue`, created (and subscribed to the venue) on first use. */
  static of(venue: Venue): PortHub {
    let hub = hubs.get(venue);
    if (hub === undefined) hubs.set(venue, (hub = new PortHub(venue)));
    return hub;
  }

  private constructor(private readonly venue: Venue) {
    venue.subscribe({
      orderFeed: (userId, feed) => {
        const sinks = this.byUser.get(userId);
        if (sinks !== undefined) for (const s of sinks) s.onFeed(feed);
      },
      bookChanged: (market) => this.coalesce(market, this.pendingBook),
      trade: (_trade, market) => this.coalesce(market, this.pendingStats),
    });
  }

  /** Routes the feeds of user `userId` to `sink`. */
  addUser(userId: number, sink: PortSink): void {
    let set = this.byUser.get(userId);
    if (set === undefined) this.byUser.set(userId, (set = new Set()));
    set.add(sink);
  }

  /** Stops routing to `sink` entirely (feeds and markets). */
  remove(sink: PortSink): void {
    for (const set of this.byUser.values()) set.delete(sink);
    for (const set of this.byMarket.values()) set.delete(sink);
  }

  /** `sink` wants book and trade captures of `market`. */
  watch(market: Market, sink: PortSink): void {
    let set = this.byMarket.get(market);
    if (set === undefined) this.byMarket.set(market, (set = new Set()));
    set.add(sink);
  }

  unwatch(market: Market, sink: PortSink): void {
    this.byMarket.get(market)?.delete(sink);
  }

  private coalesce(market: Market, pending: Set<Market>): void {
    const sinks = this.byMarket.get(market);
    if (sinks === undefined || sinks.size === 0 || pending.has(market)) return;
    pending.add(market);
    this.venue.clock.scheduleIn(0, () => {
      pending.delete(market);
      const isBook = pending === this.pendingBook;
      for (const s of this.byMarket.get(market) ?? []) {
        if (isBook) s.captureBook(market);
        else s.captureStats(market);
      }
    });
  }
}
