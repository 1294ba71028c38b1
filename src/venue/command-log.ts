import type { Side } from '../core/types.ts';
import type { VenueListener } from './feeds.ts';
import type { Market } from './market.ts';
import { OrderEvent, type OrderFeedType } from './order-events.ts';
import { OrderEventRows } from './order-event-rows.ts';
import { TradeCursor, TradeRows } from './trade-record.ts';
import { saveAverages, saveClosure, saveMarket, saveTrades, undoEntry } from './undo.ts';
import { grown, UndoJournal } from './undo-journal.ts';
import type { VenueState } from './venue-state.ts';

/**
 * A command that did not apply: a step threw after validation. Nothing of it remains (the
 * venue rolled every change back and no listener saw any of it); `cause` is what threw.
 */
export class CommandFailedError extends Error {
  constructor(cause: unknown) {
    super(`command not applied: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** What a client is told when its command failed midway and was rolled back (REST and websockets). */
export const COMMAND_ROLLED_BACK = 'command not applied: an internal failure stopped it and every change was rolled back';

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
 * Makes every venue command all-or-nothing. While a command runs, each change to venue state
 * registers how to take it back (`onUndo`, newest first on failure), and everything the
 * listeners would be told waits in an outbox. When the command returns, the outbox is delivered
 * in order; when a step throws, the undo log runs, the outbox is dropped and the caller gets a
 * `CommandFailedError`: state, book, candles, stats, ids and feeds are as if the command had
 * never run.
 *
 * Listeners see the state after the whole command (they are told after it applied), except
 * for the per-trade session stats, which the outbox keeps as they were after each trade so that
 * every trade's ticker still reads its own print (`md-instants.ts`).
 */
export class CommandLog {
  /** The undo entries of the current command (see undo.ts). */
  readonly journal = new UndoJournal();
  /** The order events of the current command, in the order they happened. */
  private readonly events = new OrderEventRows();
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
  /** Order slots to free once the command is over and told (a failed command restores them instead). */
  private readonly toFree: number[] = [];
  /** Entries in use in `toFree` (a count: setting an array's length is a runtime call). */
  private toFreeLength = 0;
  private orderCount = 0;
  private liquidationCount = 0;
  private executionCount = 0;
  private tradeCount = 0;

  constructor(private readonly counters: CommandCounters & VenueState) {
    this.cursor = new OrderEvent(counters);
    this.tradeCursor = new TradeCursor(counters);
  }

  /** Registers how to take back a change just made (or about to be made); hot paths write journal entries instead. */
  onUndo(fn: () => void): void {
    saveClosure(this.journal, fn);
  }

  /** Saves `market`'s state once per command, before its first change (see undo.ts). */
  touchMarket(market: Market): void {
    const epoch = this.journal.epoch;
    if (market.undoMarks.state === epoch) return;
    market.undoMarks.state = epoch;
    saveMarket(this.journal, market);
  }

  /** Saves `market`'s funding averages once per command, before their first change. */
  touchAverages(market: Market): void {
    const epoch = this.journal.epoch;
    if (market.undoMarks.averages === epoch) return;
    market.undoMarks.averages = epoch;
    saveAverages(this.journal, market);
  }

  /** Saves `market`'s candles and stats once per command, before its first trade. */
  touchTrades(market: Market): void {
    const epoch = this.journal.epoch;
    if (market.undoMarks.trades === epoch) return;
    market.undoMarks.trades = epoch;
    saveTrades(this.journal, market);
  }

  /**
   * An order event of the command, written as a row (see `OrderEventRows.add`; the caller sets
   * what its type carries through `rows`), in the outbox in the order it happened.
   */
  feedRow(t: OrderFeedType, userId: number, slot: number, eid: number, filled: number, state: number): number {
    return this.events.add(t, userId, slot, eid, filled, state);
  }

  /** The rows of `feedRow`. */
  get rows(): OrderEventRows {
    return this.events;
  }

  /** Tells the listeners now what is waiting (outside a command: nothing to commit first). */
  deliverNow(listeners: CommandListeners): void {
    if (this.outboxLength > 0 || this.events.length > 0) this.deliver(listeners);
  }

  /** Frees the order slot when the command is over (its record must survive a rollback). */
  freeLater(slot: number): void {
    this.toFree[this.toFreeLength++] = slot;
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

  /** Starts a command: notes the counters it may advance. */
  begin(): void {
    const c = this.counters;
    this.journal.begin();
    c.orders.markAllocations(this.journal.epoch);
    this.orderCount = c.orderIds.count;
    this.liquidationCount = c.liquidationIds.count;
    this.executionCount = c.executionIds.count;
    this.tradeCount = c.tradeIds.count;
    this.feesCollectedBase = c.feesCollectedBase;
    this.liquidations = c.liquidations;
    this.openOrders = c.openOrders;
  }

  /** The command applied: forget the undo log, tell the listeners, free the ended orders' slots. */
  commit(listeners: CommandListeners, free: (slot: number) => void): void {
    this.journal.clear();
    if (this.outboxLength > 0 || this.events.length > 0) this.deliver(listeners);
    const n = this.toFreeLength;
    if (n > 0) {
      const slots = this.toFree;
      for (let i = 0; i < n; i++) free(slots[i]!);
      this.toFreeLength = 0;
    }
  }

  /** The command threw: take everything back and say so. */
  fail(cause: unknown): CommandFailedError {
    this.rollBack();
    return cause instanceof CommandFailedError ? cause : new CommandFailedError(cause);
  }

  private feesCollectedBase = 0n;
  private liquidations = 0;
  private openOrders = 0;

  private rollBack(): void {
    try {
      this.journal.rollBack(undoEntry, this.counters.orders);
      // The orders the command made, after every entry that touched them ran.
      this.counters.orders.undoAllocations();
    } finally {
      this.outboxLength = 0;
      this.announcedLength = 0;
      this.trades.clear();
      this.events.clear();
    }
    this.toFreeLength = 0;
    const c = this.counters;
    // The scratch record of an order that ended in this command (an IOC that could not cross)
    // has no undo entry: its slot is left unowned as a commit would leave it.
    c.orders.endScratch();
    c.orderIds.rewind(this.orderCount);
    c.liquidationIds.rewind(this.liquidationCount);
    c.executionIds.rewind(this.executionCount);
    c.tradeIds.rewind(this.tradeCount);
    c.feesCollectedBase = this.feesCollectedBase;
    c.liquidations = this.liquidations;
    c.openOrders = this.openOrders;
  }

  /** Tells the listeners, in the order the command produced it (the outbox is emptied first). */
  private deliver(listeners: CommandListeners): void {
    // Listeners cannot add to the outbox (they must not call the venue while it is busy), so it
    // is read in place and emptied afterwards, whatever a listener throws.
    const box = this.outbox;
    const events = this.events;
    const end = this.outboxLength;
    // Every event of the command happened at its time, which is the clock's now.
    const clock = this.counters.clock;
    this.cursor.at(clock.nowSec, clock.nowNanos);
    let e = 0;
    try {
      for (let i = 0; i < end; i += Box.Entry) {
        // The order events before this entry, then the entry.
        const before = box[i + 3]!;
        if (e < before) e = this.deliverEvents(listeners.order, e, before);
        const kind = box[i];
        if (kind === Box.Book) {
          const market = this.counters.markets[box[i + 1]!]!;
          const book = listeners.book;
          for (let l = 0; l < book.length; l++) book[l]!.bookChanged!(market);
        } else if (kind === Box.Trade) {
          const market = this.counters.markets[box[i + 1]!]!;
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
      this.outboxLength = 0;
      this.announcedLength = 0;
      this.trades.clear();
      this.events.clear();
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

/** The listeners by hook, as the venue keeps them. */
export interface CommandListeners {
  readonly all: readonly VenueListener[];
  readonly order: readonly VenueListener[];
  readonly trade: readonly VenueListener[];
  readonly book: readonly VenueListener[];
}

/** The venue-wide counters a command may advance (ids, fee and liquidation totals). */
export interface CommandCounters {
  readonly orderIds: { readonly count: number; rewind(count: number): void };
  readonly liquidationIds: { readonly count: number; rewind(count: number): void };
  readonly executionIds: { readonly count: number; rewind(count: number): void };
  readonly tradeIds: { readonly count: number; rewind(count: number): void };
  /** Σ fees but for those the markets count in tick·lots (their undo is the market's). */
  feesCollectedBase: bigint;
  liquidations: number;
  /** Open orders of all accounts (the books hold more when they hold recorded liquidity). */
  openOrders: number;
}
