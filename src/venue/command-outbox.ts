import type { Side } from '../core/types.ts';
import type { VenueListener } from './feeds.ts';
import type { Market } from './market.ts';
import { OrderEvent } from './order-events.ts';
import { OrderEventRows } from './order-event-rows.ts';
import { TradeCursor, TradeRows } from './trade-record.ts';
import { grown } from './undo-journal.ts';
import type { VenueState } from './venue-state.ts';

// Outbox entry kinds: an announcement to the listeners' hook of that name, a trade, a book change.
// Order events have no entry: their rows are in order already, and each entry notes how many
// rows came before it. An entry is numbers only (`Box.Entry` of them: kind, market index or announcement,
// trade row, rows before), so writing one stores no reference (no write barrier); an
// announcement's hook and arguments wait in `announced`.
// (A const enum: literals in the code, where a module constant costs a load and a check per use.)
const enum Box {
  Announce = 1,
  Trade = 2,
  Book = 3,
  Entry = 4,
}

/**
 * What the listeners are told of a command, kept until it applied (see `CommandLog`): its order
 * events as rows, its trades as rows (each with the session stats as of it), and an outbox of
 * book changes, trades and announcements in the order they happened. `deliver` tells them in
 * that order; a failed command's are dropped (`clear`).
 */
export class CommandOutbox {
  /** The order events of the current command, in the order they happened. */
  readonly events = new OrderEventRows();
  /** The one event that delivery loads each kept row into. */
  private readonly cursor: OrderEvent;
  /** The trades of the current command, in the order they happened, each with the session stats as of it. */
  private readonly trades = new TradeRows();
  /** The one trade that delivery loads each kept trade row into. */
  private readonly tradeCursor: TradeCursor;
  /** Flat outbox: kind, the market's index (a trade, a book change) or where the announcement is in `announced`, a trade's row, order event rows before it. */
  private outbox = new Float64Array(16 * Box.Entry);
  /** Numbers in use in `outbox`. */
  private outboxLength = 0;
  /** The announcements of the outbox: hook, first argument, second argument. */
  private readonly announced: unknown[] = [];
  private announcedLength = 0;

  constructor(private readonly s: VenueState) {
    this.cursor = new OrderEvent(s);
    this.tradeCursor = new TradeCursor(s);
  }

  /** True when something waits to be told. */
  get pending(): boolean {
    return this.outboxLength > 0 || this.events.length > 0;
  }

  /** A book changed: its listeners hear it after the command (a kind of its own: no hook looked up by name). */
  bookChanged(market: Market): void {
    this.push(Box.Book, market.index, 0);
  }

  announce(hook: keyof VenueListener, a: unknown, b: unknown): void {
    const k = this.announcedLength;
    const refs = this.announced;
    refs[k] = hook;
    refs[k + 1] = a;
    refs[k + 2] = b;
    this.announcedLength = k + 3;
    this.push(Box.Announce, k, 0);
  }

  /**
   * A trade of the command, written as a row (see `TradeRows.add`) with the market's session
   * stats as of it (its listeners read those: no snapshot object per trade), in the outbox in
   * the order it happened. `maker` / `taker`: order slots, `NO_SLOT` for an external side.
   */
  tradeRow(market: Market, tradeNumber: number, sec: number, nanos: number, priceTicks: number, qtyLots: number, takerSide: Side, maker: number, taker: number, makerUserId: number, takerUserId: number): void {
    this.push(Box.Trade, market.index, this.trades.length);
    this.trades.add(tradeNumber, sec, nanos, priceTicks, qtyLots, takerSide, maker, taker, makerUserId, takerUserId, market.stats);
  }

  /** A trade outside a command: its listeners hear it now (the stats are as of it already). */
  tradeNow(listeners: readonly VenueListener[], market: Market, tradeNumber: number, sec: number, nanos: number, priceTicks: number, qtyLots: number, takerSide: Side, maker: number, taker: number, makerUserId: number, takerUserId: number): void {
    const rows = this.trades;
    const i = rows.add(tradeNumber, sec, nanos, priceTicks, qtyLots, takerSide, maker, taker, makerUserId, takerUserId, market.stats);
    try {
      const t = this.tradeCursor.load(rows, i, market.symbol);
      for (const l of listeners) l.trade!(t, market);
    } finally {
      rows.length = i;
    }
  }

  private push(kind: number, which: number, row: number): void {
    const n = this.outboxLength;
    if (n + Box.Entry > this.outbox.length) this.outbox = grown(this.outbox, n + Box.Entry);
    const box = this.outbox;
    box[n] = kind;
    box[n + 1] = which;
    box[n + 2] = row;
    box[n + 3] = this.events.length;
    this.outboxLength = n + Box.Entry;
  }

  /** Forgets everything waiting (a failed command's). */
  clear(): void {
    this.outboxLength = 0;
    this.announcedLength = 0;
    this.trades.clear();
    this.events.clear();
  }

  /** Tells the listeners, in the order the command produced it; empties the outbox afterwards. */
  deliver(listeners: CommandListeners): void {
    // Listeners cannot add to the outbox (they must not call the venue while it is busy), so it
    // is read in place and emptied afterwards, whatever a listener throws.
    const box = this.outbox;
    const events = this.events;
    const end = this.outboxLength;
    // Every event of the command happened at its time, which is the clock's now.
    const clock = this.s.clock;
    this.cursor.at(clock.nowSec, clock.nowNanos);
    let e = 0;
    try {
      for (let i = 0; i < end; i += Box.Entry) {
        // The order events before this entry, then the entry.
        const before = box[i + 3]!;
        if (e < before) e = this.deliverEvents(listeners.order, e, before);
        const kind = box[i];
        if (kind === Box.Book) {
          const market = this.s.markets[box[i + 1]!]!;
          const book = listeners.book;
          for (let l = 0; l < book.length; l++) book[l]!.bookChanged!(market);
        } else if (kind === Box.Trade) {
          const market = this.s.markets[box[i + 1]!]!;
          const row = box[i + 2]!;
          // The stats as of the trade, read from its row only by a listener that asks.
          market.stats.showAsOf(this.trades.nums, this.trades.statsAt(row));
          try {
            const t = this.tradeCursor.load(this.trades, row, market.symbol);
            for (const l of listeners.trade) l.trade!(t, market);
          } finally {
            market.stats.showAsOf(undefined);
          }
        } else {
          const k = box[i + 1]!;
          const refs = this.announced;
          const hook = refs[k] as keyof VenueListener;
          for (const l of listeners.all) {
            const f = l[hook] as ((...a: unknown[]) => void) | undefined;
            if (f !== undefined) f.call(l, refs[k + 1], refs[k + 2]);
          }
        }
      }
      // The order events after the last entry.
      if (e < events.length) this.deliverEvents(listeners.order, e, events.length);
    } finally {
      this.clear();
    }
  }

  /** Order event rows `from` up to `to` to the order listeners, in order; returns `to`. */
  private deliverEvents(order: readonly VenueListener[], from: number, to: number): number {
    const events = this.events;
    const cursor = this.cursor;
    for (let e = from; e < to; e++) {
      const event = cursor.load(events, e);
      for (let k = 0; k < order.length; k++) {
        const l = order[k]!;
        if (l.orderEvent !== undefined) l.orderEvent(event);
        if (l.orderFeed !== undefined) l.orderFeed(event.userId, event.feed());
      }
    }
    return to;
  }
}

/**
 * The listeners by hook, as the venue keeps them. Delivery looks each hook up on its listener
 * per event: with one listener at a call site V8 inlines the method there. Hooks bound once at
 * subscribe (bound functions, or the method and its `this` called with `call`) were not
 * inlined: ~100–180 instructions more a command (bench/README, round 16 `cmd16`).
 */
export interface CommandListeners {
  readonly all: readonly VenueListener[];
  readonly order: readonly VenueListener[];
  readonly trade: readonly VenueListener[];
  readonly book: readonly VenueListener[];
}
