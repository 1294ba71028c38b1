import { EXTERNAL_USERNAME } from '../../venue/external-owner.ts';
import type { VenueTrade, VenueListener } from '../../venue/feeds.ts';
import type { OrderFeed } from '../../wire/order.ts';
import type { OrderEvent } from '../../venue/order-events.ts';
import type { Market } from '../../venue/market.ts';
import type { Venue } from '../../venue/venue.ts';
import { TradeCursor } from '../../venue/trade-record.ts';
import type { RowBuilderSetup, RowCells } from './row-builder.ts';
import { EXTERNAL_USER, NO_TEXT, OP_CELLS, OP_NAMED, RowTape } from './row-tape.ts';
import { BookTops } from './book-tops.ts';
import { PriceTexts } from './price-texts.ts';
import { feedCells, tradeNumber } from './feed-cells.ts';
import { EVENT_KINDS, EVENT_LOG_VERSION, K_BOOK, K_FEED, K_FUNDING, K_INDEX, K_MARK, K_STATE, K_TRADE, type EventKind } from './kinds.ts';

import { DEFAULT_BATCH_ROWS, type EventLogRecorderOptions } from './recorder-options.ts';

/**
 * Records everything a venue announces as rows of the event log (see `kinds.ts`), handing over
 * every `batchRows` rows as numbers for a writer thread to build the batch (`onRows`: see
 * `row-tape.ts`). `EventLogRecorder` (recorder.ts) adds `onBatch`, building the batches
 * in-process with the same `RowBuilder`, so the bytes are the same; this part loads no Arrow
 * (`perpsim run`'s simulation thread starts without it).
 *
 * A `book` row is written only when what it shows (touch and top-five depth) changed, an
 * `index` row only when the index moved, and a `mark` row once per mark record. Use
 * `attachTapeRecorder` (subscribe + `snapshot`) before running the clock, and call `flush()` at
 * the end. Nothing in the log depends on wall time.
 */
export class TapeRecorder implements VenueListener {
  private readonly capacity: number;
  private readonly onRows: EventLogRecorderOptions['onRows'];
  /** What a `RowBuilder` of this log needs (the writer thread's, or `EventLogRecorder`'s). */
  readonly setup: RowBuilderSetup;
  private tape: RowTape;
  private row = -1;
  private rowsInBatch = 0;
  private batches = 0;
  private readonly tops: BookTops;
  private readonly lastIndex: number[];
  private readonly lastMark: { sec: number; nanos: number; markTicks: number }[];
  private readonly priceTexts = new PriceTexts();
  /** Accounts and markets whose names went with a tape already. */
  private usersSent = 0;
  private symbolsSent = 0;
  /** Rows written so far, by `EVENT_KINDS` index (a number, not a property named at run time, per row). */
  private readonly kindRows = new Float64Array(EVENT_KINDS.length);
  /** Lots traded, by symbol. */
  readonly volumeLots = new Map<string, number>();

  constructor(
    protected readonly venue: Venue,
    options: EventLogRecorderOptions,
  ) {
    this.capacity = options.batchRows ?? DEFAULT_BATCH_ROWS;
    if (!Number.isSafeInteger(this.capacity) || this.capacity < 1) throw new RangeError(`batchRows must be a positive integer, got ${this.capacity}`);
    if ((options.onBatch === undefined) === (options.onRows === undefined)) throw new TypeError('give the event log recorder one of onBatch and onRows');
    if (options.onRows === undefined && new.target === TapeRecorder) throw new TypeError('onBatch builds the columns in-process: use an EventLogRecorder');
    this.onRows = options.onRows;
    const tickSizes = Object.fromEntries(venue.markets.map((m) => [m.symbol, m.instrument.tick.text]));
    this.setup = {
      capacity: this.capacity,
      metadata: [['perpsim.event_log', EVENT_LOG_VERSION], ['perpsim.tick_sizes', JSON.stringify(tickSizes)], ...Object.entries(options.metadata ?? {})],
      seedSymbols: venue.markets.map((m) => m.symbol),
      seedUsers: venue.accounts.map((a) => a.username),
      externalName: EXTERNAL_USERNAME,
      reuse: options.reuseBuffers === true,
    };
    this.tape = new RowTape(this.capacity);
    this.tops = new BookTops(venue.markets.length);
    this.lastIndex = venue.markets.map(() => NaN);
    this.lastMark = venue.markets.map(() => ({ sec: NaN, nanos: NaN, markTicks: NaN }));
  }

  /**
   * Writes one `state` and one `index` row per market with their current values, so the log
   * alone tells where the run started. Call once, before the run (`attachTapeRecorder` and `attachEventLog` do).
   */
  snapshot(): void {
    for (const market of this.venue.markets) {
      this.instrumentStateChanged(market);
      this.indexChanged(market);
    }
  }

  /** Rows written so far, by kind. */
  get counts(): Record<EventKind, number> {
    return Object.fromEntries(EVENT_KINDS.map((k, i) => [k, this.kindRows[i]!])) as Record<EventKind, number>;
  }

  /** Rows written so far. */
  get rows(): number {
    return this.row + 1;
  }

  /**
   * A `feed` row, read from the event's numbers (no feed object, no price text made and parsed
   * back) when the order record describes it fully; an `e` from its id and reason; from the
   * wire feed otherwise (an order off the tick grid or of an unknown symbol). All write the
   * same cells.
   */
  orderEvent(e: OrderEvent): void {
    const market = e.plainMarket();
    if (market === undefined) return e.t === 'e' ? this.namedRow(e) : this.feedRow(e.userId, e.feed());
    // Each field read once (`t` and `reason` are getters of the venue's cursor, and V8 does not
    // inline every one of them into this function): ~19,600 rows per 10 sim-minutes of a day.
    const t = e.t;
    const reason = e.reason;
    const tape = this.tape;
    const n = tape.nums;
    let i = this.begin(K_FEED);
    n[i++] = t.charCodeAt(0);
    n[i++] = this.userOf(e.userId);
    // The id's bytes from the order's numbers, later (`IdHoles`: when the batch is built).
    n[i++] = e.engineId();
    n[i++] = e.insertSec();
    n[i++] = e.insertNanos();
    n[i++] = market.index;
    n[i++] = e.stateCode();
    n[i++] = e.side() === 'B' ? 0 : 1;
    n[i++] = e.tif() === 'GTC' ? 0 : 1;
    n[i++] = e.isLiquidation() ? 1 : 0;
    n[i++] = e.priceTicks(); // the text is the ticks' own: a reader rebuilds it
    n[i++] = e.qtyLots();
    n[i++] = e.filledLots();
    n[i++] = reason === undefined ? NO_TEXT : tape.reasonText(reason);
    n[i++] = t === 'p' || t === 'f' ? e.tid : NaN;
    this.end(i);
  }

  /** The `feed` row of an `e`, which names an id, not an order (`OP_NAMED`): no feed object, no cells. */
  private namedRow(e: OrderEvent): void {
    const tape = this.tape;
    const n = tape.nums;
    const reason = e.reason;
    let i = this.begin(K_FEED, OP_NAMED);
    n[i++] = this.userOf(e.userId);
    n[i++] = e.t.charCodeAt(0);
    n[i++] = tape.text(e.oid);
    n[i++] = reason === undefined ? NO_TEXT : tape.reasonText(reason);
    this.end(i);
  }

  /** A `feed` row from the wire feed (what `orderEvent` writes, for the events it cannot read as numbers): its cells by name. */
  private feedRow(userId: number, feed: OrderFeed): void {
    this.cellsRow(K_FEED, this.userOf(userId), feedCells(feed, this.venue, this.priceTexts));
  }

  trade(t: VenueTrade, market: Market): void {
    const tape = this.tape;
    const n = tape.nums;
    let i = this.begin(K_TRADE);
    n[i++] = market.index;
    n[i++] = tradeNumber(t.tid);
    n[i++] = t.priceTicks; // the price text is the ticks' (see schema.ts)
    n[i++] = t.qtyLots;
    n[i++] = t.takerSide === 'B' ? 0 : 1;
    n[i++] = this.userOf(t.takerUserId);
    n[i++] = this.userOf(t.makerUserId);
    if (t instanceof TradeCursor) {
      // The venue's trades: both ids' bytes written from the orders' numbers.
      const ids = tape.idRoom();
      const takerStart = tape.idBytes;
      const takerEnd = t.writeTakerOrderId(ids, takerStart);
      const makerEnd = t.writeMakerOrderId(ids, takerEnd);
      tape.idBytes = makerEnd;
      n[i++] = takerStart;
      n[i++] = takerEnd;
      n[i++] = takerEnd;
      n[i++] = makerEnd;
    } else {
      n[i++] = -1 - tape.text(t.takerOrderId);
      n[i++] = 0;
      n[i++] = -1 - tape.text(t.makerOrderId);
      n[i++] = 0;
    }
    this.volumeLots.set(t.symbol, (this.volumeLots.get(t.symbol) ?? 0) + t.qtyLots);
    this.end(i);
  }

  bookChanged(market: Market): void {
    const top = this.tops.changed(market);
    if (top === undefined) return;
    const n = this.tape.nums;
    let i = this.begin(K_BOOK);
    n[i++] = market.index;
    n[i++] = top.bid;
    n[i++] = top.bidQty;
    n[i++] = top.ask;
    n[i++] = top.askQty;
    n[i++] = top.bidDepth;
    n[i++] = top.askDepth;
    this.end(i);
  }

  markRecorded(market: Market): void {
    // A funding on a minute boundary re-announces that instant's record: write it once.
    const last = market.markHistory[market.markHistory.length - 1];
    const seen = this.lastMark[market.index]!;
    if (last !== undefined && last.sec === seen.sec && last.nanos === seen.nanos && last.markTicks === seen.markTicks) return;
    if (last !== undefined) Object.assign(seen, last);
    this.marketRow(K_MARK, market, NO_TEXT);
  }

  fundingSettled(market: Market): void {
    const last = market.fundingHistory[market.fundingHistory.length - 1];
    this.marketRow(K_FUNDING, market, last === undefined ? NO_TEXT : this.tape.text(last.fundingRate));
  }

  indexChanged(market: Market): void {
    if (this.lastIndex[market.index] === market.indexTicks) return;
    this.lastIndex[market.index] = market.indexTicks;
    this.marketRow(K_INDEX, market, NO_TEXT);
  }

  instrumentStateChanged(market: Market): void {
    this.cellsRow(K_STATE, NaN, ['symbol', market.symbol, 'state', market.state]);
  }

  /**
   * Hands over the rows not yet in a batch. Call once the run is over. A log that never had a
   * row still gets one (empty) batch, so a file always carries the schema.
   */
  flush(): void {
    if (this.rowsInBatch === 0 && this.batches > 0) return;
    const tape = this.tape;
    tape.rows = this.rowsInBatch;
    this.rowsInBatch = 0;
    this.batches++;
    this.addNames(tape);
    if (this.onRows !== undefined) {
      // The tape travels (its arrays are the thread's now): the next one fills arrays handed back, if any.
      this.tape = new RowTape(this.capacity, this.onRows(tape, this.setup) ?? undefined);
      return;
    }
    this.buildBatch(tape);
    tape.clear();
  }

  /** Builds the batch of `tape` and hands it over in-process (`EventLogRecorder`'s `onBatch`). */
  protected buildBatch(_tape: RowTape): void {
    throw new TypeError('onBatch builds the columns in-process: use an EventLogRecorder');
  }

  /** The names of the accounts and markets added since the last tape, for the builder. */
  private addNames(tape: RowTape): void {
    const { accounts, markets } = this.venue;
    for (; this.usersSent < accounts.length; this.usersSent++) {
      const account = accounts[this.usersSent];
      if (account !== undefined) tape.users.push([this.usersSent, account.username]);
    }
    for (; this.symbolsSent < markets.length; this.symbolsSent++) tape.symbols.push([markets[this.symbolsSent]!.index, markets[this.symbolsSent]!.symbol]);
  }

  /** A user id as the tape holds it: the id, or `EXTERNAL_USER` when no account has it (replayed liquidity). */
  private userOf(userId: number): number {
    return this.venue.accounts[userId] === undefined ? EXTERNAL_USER : userId;
  }

  /** A row with symbol, mark and index set (and the funding rate's text, or `NO_TEXT`). */
  private marketRow(kind: number, market: Market, rateText: number): void {
    const n = this.tape.nums;
    let i = this.begin(kind);
    n[i++] = market.index;
    n[i++] = market.markTicks;
    n[i++] = market.indexTicks;
    n[i++] = rateText;
    this.end(i);
  }

  /** A row of kind `kind` read from a wire object: its user (NaN: none) and cells (`RowCells`). */
  private cellsRow(kind: number, user: number, cells: RowCells): void {
    const n = this.tape.nums;
    let i = this.begin(kind, OP_CELLS + kind);
    n[i++] = user;
    n[i++] = this.tape.text(cells);
    this.end(i);
  }

  /** Starts a row of kind `EVENT_KINDS[kind]` at the clock's instant; returns where its fields go in the tape. */
  private begin(kind: number, op = kind): number {
    this.row++;
    this.kindRows[kind]! += 1;
    const clock = this.venue.clock;
    const n = this.tape.nums;
    const i = this.tape.used;
    n[i] = op;
    n[i + 1] = clock.nowSec;
    n[i + 2] = clock.nowNanos;
    return i + 3;
  }

  /** Ends the row begun last (its fields end at `i`); hands over a full batch. */
  private end(i: number): void {
    this.tape.used = i;
    if (++this.rowsInBatch === this.capacity) this.flush();
  }
}

/** Creates a recorder for `venue` that hands its rows over as numbers (`onRows`), subscribes it and writes the opening snapshot. */
export function attachTapeRecorder(venue: Venue, options: EventLogRecorderOptions & Required<Pick<EventLogRecorderOptions, 'onRows'>>): TapeRecorder {
  const recorder = new TapeRecorder(venue, options);
  venue.subscribe(recorder);
  recorder.snapshot();
  return recorder;
}
