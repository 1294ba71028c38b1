import type { OrderEvent } from '../venue/order-events.ts';
import type { Market } from '../venue/market.ts';
import { MarketDataInstants, type InstantBatch } from '../venue/md-instants.ts';
import type { Venue } from '../venue/venue.ts';
import { removeAt } from '../core/arrays.ts';

/** What the hub calls on a port for its user's orders. */
export interface OrderSink {
  /**
   * An order event of the port's user, at the instant the venue produced it (valid during the
   * call only: `e.feed()` for the wire object, or the numbers).
   */
  onOrderEvent(e: OrderEvent): void;
}

/** What the hub calls on a port's market data (`PortMarketData`, called directly: no hop through the port). */
export interface MarketSink {
  /** End of an instant in which the batch's market traded or its book changed. */
  deliverInstant(batch: InstantBatch): void;
}

const hubs = new WeakMap<Venue, PortHub>();

/**
 * The one venue listener behind every in-process port of a venue: routes each order feed to
 * the ports of its user only, and hands each instant's market data (the rule of
 * venue/md-instants.ts, which the websocket follows too) to every port watching the market,
 * with a single clock event per instant for all ports (rather than one listener and one event
 * per port). Ports are served in the order they started watching.
 */
export class PortHub {
  /** Sinks by user id (ids are small and dense: an array, read on every feed of the venue). */
  private readonly byUser: OrderSink[][] = [];
  /**
   * Sinks watching each market, by `market.index`, in the order they started watching. Read on
   * every trade and book change of the venue; changed in place (agents glance at books, so
   * watch / unwatch come often), never while a delivery iterates: a port only schedules.
   */
  private readonly byMarket: MarketSink[][] = [];
  private readonly instants: MarketDataInstants;

  /** The hub of `venue`, created (and subscribed to the venue) on first use. */
  static of(venue: Venue): PortHub {
    let hub = hubs.get(venue);
    if (hub === undefined) hubs.set(venue, (hub = new PortHub(venue)));
    return hub;
  }

  private constructor(venue: Venue) {
    venue.subscribe({
      // Events, not feeds: a feed object is built only for a port whose strategy takes feeds.
      orderEvent: (e) => {
        const sinks = this.byUser[e.userId];
        if (sinks !== undefined) for (const s of sinks) s.onOrderEvent(e);
      },
    });
    this.instants = new MarketDataInstants(
      venue,
      (market) => (this.byMarket[market.index]?.length ?? 0) > 0,
      (batch) => {
        const sinks = this.byMarket[batch.market.index];
        if (sinks !== undefined) for (const s of sinks) s.deliverInstant(batch);
      },
    );
  }

  /** `bookChanged` announcements of `market` while watched (see `MarketDataInstants.bookChanges`). */
  bookChanges(market: Market): number {
    return this.instants.bookChanges(market);
  }

  /** Routes the feeds of user `userId` to `sink`. */
  addUser(userId: number, sink: OrderSink): void {
    const sinks = (this.byUser[userId] ??= []);
    if (!sinks.includes(sink)) sinks.push(sink);
  }

  /** Stops routing feeds to `sink`. */
  removeUserSink(sink: OrderSink): void {
    for (const sinks of this.byUser) {
      const at = sinks === undefined ? -1 : sinks.indexOf(sink);
      if (at >= 0) sinks!.splice(at, 1);
    }
  }

  /** Stops handing `sink` any market's instants. */
  unwatchAll(sink: MarketSink): void {
    for (let i = 0; i < this.byMarket.length; i++) this.unwatchAt(i, sink);
  }

  /** `sink` wants book and trade captures of `market`. */
  watch(market: Market, sink: MarketSink): void {
    const sinks = (this.byMarket[market.index] ??= []);
    if (!sinks.includes(sink)) sinks.push(sink);
  }

  unwatch(market: Market, sink: MarketSink): void {
    this.unwatchAt(market.index, sink);
  }

  private unwatchAt(index: number, sink: MarketSink): void {
    const sinks = this.byMarket[index];
    const at = sinks === undefined ? -1 : sinks.indexOf(sink);
    if (at >= 0) removeAt(sinks!, at);
  }
}
