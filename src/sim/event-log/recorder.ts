import type { RecordBatch } from 'apache-arrow';
import { EXTERNAL_USERNAME } from '../../venue/external-owner.ts';
import type { VenueTrade, VenueListener } from '../../venue/feeds.ts';
import type { OrderFeed } from '../../wire/order.ts';
import type { OrderEvent } from '../../venue/order-events.ts';
import { STATE_NAMES } from '../../venue/order-store.ts';
import type { Market } from '../../venue/market.ts';
import type { Venue } from '../../venue/venue.ts';
import { ORDER_ID_BYTES } from '../../venue/venue-state.ts';
import { TradeCursor } from '../../venue/trade-record.ts';
import { rowCodes } from './code-cache.ts';
import { BookTops } from './book-tops.ts';
import { PriceTexts } from './price-texts.ts';
import { EVENT_KINDS, EVENT_LOG_VERSION, EventColumns, K_BOOK, K_FEED, K_FUNDING, K_INDEX, K_MARK, K_STATE, K_TRADE, splitTimestamp, type EventKind } from './schema.ts';

export { DEFAULT_BATCH_ROWS, type EventLogRecorderOptions } from './recorder-options.ts';

import { DEFAULT_BATCH_ROWS, type EventLogRecorderOptions } from './recorder-options.ts';

/**
 * Records everything a venue announces as rows of the event log (see `schema.ts`), building
 * Arrow columns in memory and handing over a record batch every `batchRows` rows.
 *
 * A `book` row is written only when what it shows (touch and top-five depth) changed, an
 * `index` row only when the index moved, and a `mark` row once per mark record. Use
 * `attachEventLog` (subscribe + `snapshot`) before running the clock, and call `flush()` at
 * the end. Nothing in the log depends on wall time.
 */
export class EventLogRecorder implements VenueListener {
  private readonly cols: EventColumns;
  private readonly capacity: number;
  private readonly onBatch: EventLogRecorderOptions['onBatch'];
  private row = -1;
  private rowsInBatch = 0;
  private batches = 0;
  private lastSec = NaN;
  private lastNanos = NaN;
  /** The current instant's `ts_ns` as its two 32-bit halves (`splitTimestamp`). */
  private readonly ts: [hi: number, lo: number] = [0, 0];
  private readonly tops: BookTops;
  private readonly lastIndex: number[];
  private readonly lastMark: { sec: number; nanos: number; markTicks: number }[];
  private readonly priceTexts = new PriceTexts();
  /** Dictionary codes by user id (`user`, `maker_user`) and by small keys (symbol, feed, state, side, tif). */
  private readonly codes: ReturnType<typeof rowCodes>;
  /** Dictionary codes of the row kinds by `EVENT_KINDS` index (seeded first in `EventColumns`: taking them adds nothing). */
  private readonly kindCodes: Int32Array;
  /** Rows written so far, by `EVENT_KINDS` index (a number, not a property named at run time, per row). */
  private readonly kindRows = new Float64Array(EVENT_KINDS.length);
  private readonly deferIds: boolean;
  /** Lots traded, by symbol. */
  readonly volumeLots = new Map<string, number>();

  constructor(
    private readonly venue: Venue,
    options: EventLogRecorderOptions,
  ) {
    this.capacity = options.batchRows ?? DEFAULT_BATCH_ROWS;
    if (!Number.isSafeInteger(this.capacity) || this.capacity < 1) throw new RangeError(`batchRows must be a positive integer, got ${this.capacity}`);
    this.onBatch = options.onBatch;
    const tickSizes = Object.fromEntries(venue.markets.map((m) => [m.symbol, m.instrument.tick.text]));
    const metadata = new Map<string, string>([
      ['perpsim.event_log', EVENT_LOG_VERSION],
      ['perpsim.tick_sizes', JSON.stringify(tickSizes)],
      ...Object.entries(options.metadata ?? {}),
    ]);
    this.cols = new EventColumns(this.capacity, metadata, options.reuseBuffers === true);
    const symbols = venue.markets.map((m) => m.symbol);
    const users = venue.accounts.map((a) => a.username);
    this.kindCodes = Int32Array.from(EVENT_KINDS, (k) => this.cols.kind.code(k));
    this.deferIds = options.deferIds === true;
    this.cols.symbol.seed(symbols);
    this.cols.user.seed(users);
    this.cols.maker_user.seed(users);
    this.codes = rowCodes(this.cols, venue.accounts, EXTERNAL_USERNAME);
    this.tops = new BookTops(venue.markets.length);
    this.lastIndex = venue.markets.map(() => NaN);
    this.lastMark = venue.markets.map(() => ({ sec: NaN, nanos: NaN, markTicks: NaN }));
  }

  /**
   * Writes one `state` and one `index` row per market with their current values, so the log
   * alone tells where the run started. Call once, before the run (`attachEventLog` does).
   */
  snapshot(): void {
    for (const market of this.venue.markets) {
      this.instrumentStateChanged(market);
      this.indexChanged(market);
    }
  }

  /** The Arrow schema every batch carries. */
  get schema() {
    return this.cols.schema;
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
   * back) when the order record describes it fully; from the wire feed otherwise (an `e`, an
   * order off the tick grid or of an unknown symbol). Both write the same cells.
   */
  orderEvent(e: OrderEvent): void {
    const market = e.plainMarket();
    if (market === undefined) return this.feedRow(e.userId, e.feed());
    const c = this.cols;
    const r = this.begin(K_FEED);
    const t = e.t;
    c.feed.setCode(r, this.codes.feed.of(t.charCodeAt(0), t));
    c.user.setCode(r, this.codes.user.of(e.userId));
    // The id's bytes from the order's numbers, later (`IdHoles`: at `flush`, or on the writer thread).
    c.orderIdHoles.add(c.order_id.reserveCell(r, ORDER_ID_BYTES), e.engineId(), e.insertSec(), e.insertNanos());
    c.symbol.setCode(r, this.codes.symbol.of(market.index, market.symbol));
    const state = e.stateCode();
    c.state.setCode(r, this.codes.state.of(state, STATE_NAMES[state]!));
    const side = e.side();
    c.side.setCode(r, this.codes.side.of(side === 'B' ? 0 : 1, side));
    const tif = e.tif();
    c.tif.setCode(r, this.codes.tif.of(tif === 'GTC' ? 0 : 1, tif));
    c.liquidation.set(r, e.isLiquidation());
    c.price_ticks.setNumber(r, e.priceTicks()); // the text is the ticks' own: a reader rebuilds it
    const qty = e.qtyLots();
    if (Number.isSafeInteger(qty)) c.qty.setNumber(r, qty);
    c.filled.setNumber(r, e.filledLots());
    if (e.reason !== undefined) c.reason.set(r, e.reason);
    if (e.t === 'p' || e.t === 'f') c.trade_id.setNumber(r, e.tid);
    this.end();
  }

  /** A `feed` row from the wire feed (what `orderEvent` writes, for the events it cannot read as numbers). */
  private feedRow(userId: number, feed: OrderFeed): void {
    const c = this.cols;
    const r = this.begin(K_FEED);
    c.feed.set(r, feed.t);
    c.user.setCode(r, this.codes.user.of(userId));
    const o = feed.o;
    if (o !== undefined) {
      c.order_id.set(r, o.oid);
      c.symbol.set(r, o.s);
      c.state.set(r, o.o);
      c.side.set(r, o.d);
      c.tif.set(r, o.tif);
      c.liquidation.set(r, o.liq);
      const market = this.venue.market(o.s);
      const ticks = market?.instrument.tick.toTicks(o.p);
      if (ticks !== undefined) c.price_ticks.setNumber(r, ticks);
      // The text only when the ticks do not say it: a reader rebuilds it from them otherwise.
      if (ticks === undefined || this.priceTexts.of(market!, ticks) !== o.p) c.price.set(r, o.p);
      if (Number.isSafeInteger(o.q)) c.qty.setNumber(r, o.q); // a rejected order may carry any number
      c.filled.setNumber(r, o.xq);
    } else if (feed.oid !== undefined) {
      c.order_id.set(r, feed.oid);
    }
    const reason = feed.r ?? feed.xr;
    if (reason !== undefined) c.reason.set(r, reason);
    if (feed.xs !== undefined) this.setTradeId(r, feed.xs.tid);
    this.end();
  }

  trade(t: VenueTrade, market: Market): void {
    const c = this.cols;
    const r = this.begin(K_TRADE);
    c.symbol.setCode(r, this.codes.symbol.of(market.index, market.symbol));
    this.setTradeId(r, t.tid);
    c.price_ticks.setNumber(r, t.priceTicks); // the price text is the ticks' (see schema.ts)
    c.qty.setNumber(r, t.qtyLots);
    const side = t.takerSide === 'B' ? 0 : 1;
    c.side.setCode(r, this.codes.side.of(side, t.takerSide));
    c.user.setCode(r, this.codes.user.of(t.takerUserId));
    if (t instanceof TradeCursor) {
      const ids = c.order_id, makerIds = c.maker_order_id; // the venue's trades: ids from numbers
      ids.closeCell(r, t.writeTakerOrderId(ids.openCell(r, ORDER_ID_BYTES), ids.cellStart));
      makerIds.closeCell(r, t.writeMakerOrderId(makerIds.openCell(r, ORDER_ID_BYTES), makerIds.cellStart));
    } else (c.order_id.set(r, t.takerOrderId), c.maker_order_id.set(r, t.makerOrderId));
    c.maker_user.setCode(r, this.codes.maker.of(t.makerUserId));
    this.volumeLots.set(t.symbol, (this.volumeLots.get(t.symbol) ?? 0) + t.qtyLots);
    this.end();
  }

  bookChanged(market: Market): void {
    const top = this.tops.changed(market);
    if (top === undefined) return;
    const { bid, bidQty, ask, askQty, bidDepth, askDepth } = top;
    const c = this.cols;
    const r = this.begin(K_BOOK);
    c.symbol.setCode(r, this.codes.symbol.of(market.index, market.symbol));
    if (!Number.isNaN(bid)) {
      c.bid_ticks.setNumber(r, bid);
      c.bid_qty.setNumber(r, bidQty);
    }
    if (!Number.isNaN(ask)) {
      c.ask_ticks.setNumber(r, ask);
      c.ask_qty.setNumber(r, askQty);
    }
    c.bid_depth5.setNumber(r, bidDepth);
    c.ask_depth5.setNumber(r, askDepth);
    this.end();
  }

  markRecorded(market: Market): void {
    // A funding on a minute boundary re-announces that instant's record: write it once.
    const last = market.markHistory[market.markHistory.length - 1];
    const seen = this.lastMark[market.index]!;
    if (last !== undefined && last.sec === seen.sec && last.nanos === seen.nanos && last.markTicks === seen.markTicks) return;
    if (last !== undefined) Object.assign(seen, last);
    this.marketRow(K_MARK, market);
    this.end();
  }

  fundingSettled(market: Market): void {
    const r = this.marketRow(K_FUNDING, market);
    const last = market.fundingHistory[market.fundingHistory.length - 1];
    if (last !== undefined) this.cols.funding_rate.set(r, last.fundingRate);
    this.end();
  }

  indexChanged(market: Market): void {
    if (this.lastIndex[market.index] === market.indexTicks) return;
    this.lastIndex[market.index] = market.indexTicks;
    this.marketRow(K_INDEX, market);
    this.end();
  }

  instrumentStateChanged(market: Market): void {
    const r = this.begin(K_STATE);
    this.cols.symbol.set(r, market.symbol);
    this.cols.state.set(r, market.state);
    this.end();
  }

  /**
   * Hands over the rows not yet in a batch. Call once the run is over. A log that never had a
   * row still gets one (empty) batch, so a file always carries the schema.
   */
  flush(): void {
    if (this.rowsInBatch === 0 && this.batches > 0) return;
    const rows = this.rowsInBatch;
    this.rowsInBatch = 0;
    this.batches++;
    this.onBatch(this.cols.finish(rows, !this.deferIds), this.deferIds ? this.cols.orderIdHoles : undefined);
    this.cols.clearHoles();
    this.cols.recycle();
  }

  /** Trade ids are counter strings ("1", "2", ...): stored as integers. */
  private setTradeId(row: number, tid: string): void {
    const n = Number(tid);
    if (Number.isSafeInteger(n)) this.cols.trade_id.setNumber(row, n);
  }

  /** A row with symbol, mark and index set. */
  private marketRow(kind: number, market: Market): number {
    const c = this.cols;
    const r = this.begin(kind);
    c.symbol.set(r, market.symbol);
    c.mark_ticks.setNumber(r, market.markTicks);
    c.index_ticks.setNumber(r, market.indexTicks);
    return r;
  }

  /** Starts a row of kind `EVENT_KINDS[kind]`: sets seq, ts_ns and kind; returns the row's index within the batch. */
  private begin(kind: number): number {
    const r = this.rowsInBatch;
    this.row++;
    this.kindRows[kind]! += 1;
    const clock = this.venue.clock;
    if (clock.nowSec !== this.lastSec || clock.nowNanos !== this.lastNanos) {
      this.lastSec = clock.nowSec;
      this.lastNanos = clock.nowNanos;
      splitTimestamp(this.lastSec, this.lastNanos, this.ts);
    }
    const c = this.cols;
    c.seq.set(r, this.row);
    c.ts_ns.setHalves(r, this.ts[0], this.ts[1]);
    c.kind.setCode(r, this.kindCodes[kind]!);
    return r;
  }

  /** Ends the row begun last; hands over a full batch. */
  private end(): void {
    if (++this.rowsInBatch === this.capacity) this.flush();
  }
}

/** Creates a recorder for `venue`, subscribes it and writes the opening snapshot. */
export function attachEventLog(venue: Venue, options: EventLogRecorderOptions): EventLogRecorder {
  const recorder = new EventLogRecorder(venue, options);
  venue.subscribe(recorder);
  recorder.snapshot();
  return recorder;
}
