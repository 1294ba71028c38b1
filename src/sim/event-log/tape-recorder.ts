import type { VenueTrade, VenueListener } from '../../venue/feeds.ts';
import type { OrderFeed } from '../../wire/order.ts';
import type { OrderEvent } from '../../venue/order-events.ts';
import type { Market } from '../../venue/market.ts';
import type { Venue } from '../../venue/venue.ts';
import { TradeCursor } from '../../venue/trade-record.ts';
import { NO_TEXT, OP_NAMED } from './row-tape.ts';
import { TapeRows } from './tape-rows.ts';
import { BookTops } from './book-tops.ts';
import { PriceTexts } from './price-texts.ts';
import { feedCells, tradeNumber } from './feed-cells.ts';
import { K_BOOK, K_FEED, K_FUNDING, K_INDEX, K_MARK, K_STATE, K_TRADE } from './kinds.ts';
import type { EventLogRecorderOptions } from './recorder-options.ts';

/**
 * Records everything a venue announces as rows of the event log (see `kinds.ts`), handing over
 * every `batchRows` rows as numbers for a writer thread to build the batch (`onRows`: see
 * `row-tape.ts`; the tape and its hand-over are `TapeRows`', this writes the rows' fields).
 * `EventLogRecorder` (recorder.ts) adds `onBatch`, building the batches in-process with the same
 * `RowBuilder`, so the bytes are the same; this part loads no Arrow (`perpsim run`'s simulation
 * thread starts without it).
 *
 * A `book` row is written only when what it shows (touch and top-five depth) changed, an
 * `index` row only when the index moved, and a `mark` row once per mark record. Use
 * `attachTapeRecorder` (subscribe + `snapshot`) before running the clock, and call `flush()` at
 * the end. Nothing in the log depends on wall time.
 */
export class TapeRecorder extends TapeRows implements VenueListener {
  private readonly tops: BookTops;
  private readonly lastIndex: number[];
  private readonly lastMark: { sec: number; nanos: number; markTicks: number }[];
  private readonly priceTexts = new PriceTexts();
  /** Lots traded, by symbol. */
  readonly volumeLots = new Map<string, number>();

  constructor(venue: Venue, options: EventLogRecorderOptions) {
    super(venue, options);
    if (options.onRows === undefined && new.target === TapeRecorder) throw new TypeError('onBatch builds the columns in-process: use an EventLogRecorder');
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
}

/** Creates a recorder for `venue` that hands its rows over as numbers (`onRows`), subscribes it and writes the opening snapshot. */
export function attachTapeRecorder(venue: Venue, options: EventLogRecorderOptions & Required<Pick<EventLogRecorderOptions, 'onRows'>>): TapeRecorder {
  const recorder = new TapeRecorder(venue, options);
  venue.subscribe(recorder);
  recorder.snapshot();
  return recorder;
}
