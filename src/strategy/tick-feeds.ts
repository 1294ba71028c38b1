import type { Side } from '../core/types.ts';
import type { BookUpdate } from '../wire/market-data.ts';
import type { OrderFeed } from '../wire/order.ts';

/**
 * What a port can hand an in-process strategy as numbers instead of wire objects: its user's
 * order events (`OwnOrderNote`) and LEVEL_1 books (`TopTicks`), in ticks and lots, with no
 * price text made by the venue and parsed back by the strategy. Same messages, same times,
 * same order as the wire forms (`onOrderFeed`, `onMarketData`) would arrive; where a port offers
 * it (the in-process port), a strategy that implements `TickStrategy` gets these instead.
 * A note or a top is valid during the handler's call only: the port reuses its record for a
 * later message (copy what you keep).
 */
export interface TickFeeds {
  /** Registers a handler for this user's order events as notes; returns the function that removes it. */
  onOwnOrder(handler: (note: OwnOrderNote) => void): () => void;
  /** Registers a handler for LEVEL_1 books of subscribed markets as tops in ticks; returns the remover. */
  onTop(handler: (top: TopTicks) => void): () => void;
  /**
   * The wire id of an order from a note's `seq`, `insertSec` and `insertNanos`: for a strategy
   * that keeps an order's numbers and makes its id only if it ever needs the text.
   */
  formatOrderId(seq: number, insertSec: number, insertNanos: number): string;
}

/** One order feed of the user, as the numbers an agent reads (see `noteOfFeed` for the mapping). */
export interface OwnOrderNote {
  /** The feed's type. */
  readonly t: OrderFeed['t'];
  /** `o.oid`; '' for a feed without an order (`e`). */
  readonly oid: string;
  /** The order's engine id where the port knows it (`OneWayRequests.cancelSeq`), else NaN. */
  readonly seq: number;
  /**
   * `o.ts` / `o.tn` where the port knows the engine id (else NaN): with `seq`, what
   * `TickFeeds.formatOrderId` makes `oid` of (an in-process port makes `oid` only when read).
   */
  readonly insertSec: number;
  readonly insertNanos: number;
  /** `o.s` ('' without an order). */
  readonly symbol: string;
  /** `o.d`. */
  readonly side: Side;
  /** `o.p` in ticks; NaN when it is not on the market's tick grid. */
  readonly priceTicks: number;
  /** `o.tif`. */
  readonly tif: string;
  /** `o.rq`. */
  readonly remainingLots: number;
  /** `r` of a `j` / `e`, `xr` of a `c`. */
  readonly reason: string | undefined;
  /** `xs.q` of a `p` / `f` (0 otherwise). */
  readonly fillLots: number;
  /** `xs.p` in ticks (NaN without a fill). */
  readonly fillPriceTicks: number;
}

/** A LEVEL_1 book in ticks and lots (a side's ticks undefined when it is empty). */
export interface TopTicks {
  /** The symbol. */
  readonly s: string;
  readonly bidTicks: number | undefined;
  readonly bidLots: number;
  readonly askTicks: number | undefined;
  readonly askLots: number;
}

/** A strategy that takes notes and tops where the port offers them (`attachStrategy` chooses). */
export interface TickStrategy {
  /** Instead of `onOrderFeed`, where the port has `ticks`. */
  onOwnOrder?(note: OwnOrderNote): void;
  /** Instead of `onBook` for LEVEL_1 books, where the port has `ticks` (agents subscribe at LEVEL_1 only). */
  onTop?(top: TopTicks): void;
}

/** A price text of `symbol` in ticks, undefined when it is not on the tick grid. */
export type TextToTicks = (symbol: string, priceText: string) => number | undefined;

/**
 * The note of a wire feed: what a strategy that works on notes reads when its port has only
 * feeds, and what the in-process port sends for an order its records cannot describe. `toTicks`
 * gives a price text's ticks (NaN off the grid or for an unknown symbol).
 */
export function noteOfFeed(feed: OrderFeed, toTicks: TextToTicks): OwnOrderNote {
  const o = feed.o;
  const xs = feed.xs;
  const fill = feed.t === 'p' || feed.t === 'f' ? xs : undefined;
  return {
    t: feed.t,
    oid: o?.oid ?? '',
    seq: Number.NaN,
    insertSec: Number.NaN,
    insertNanos: Number.NaN,
    symbol: o?.s ?? '',
    side: o?.d ?? 'B',
    priceTicks: o === undefined ? Number.NaN : (toTicks(o.s, o.p) ?? Number.NaN),
    tif: o?.tif ?? 'GTC',
    remainingLots: o?.rq ?? 0,
    reason: feed.r ?? feed.xr,
    fillLots: fill?.q ?? 0,
    fillPriceTicks: fill === undefined ? Number.NaN : (toTicks(fill.s, fill.p) ?? Number.NaN),
  };
}

/** The top of a LEVEL_1 (or deeper) book update in ticks. */
export function topOfBook(book: BookUpdate, toTicks: TextToTicks): TopTicks {
  const bid = book.b[0];
  const ask = book.a[0];
  return {
    s: book.s,
    bidTicks: bid === undefined ? undefined : toTicks(book.s, bid.p),
    bidLots: bid?.q ?? 0,
    askTicks: ask === undefined ? undefined : toTicks(book.s, ask.p),
    askLots: ask?.q ?? 0,
  };
}
