import { Field, RecordBatch, Schema, Struct, makeData, type Data } from 'apache-arrow';
import { CANCEL_REASONS, INSTRUMENT_STATES, ORDER_STATES, REJECT_REASONS } from '../../core/types.ts';
import { BoolColumn, Int64Column, Uint32Column, Utf8Column, type Column } from './columns.ts';
import { DictionaryColumn } from './dictionary-column.ts';
import { IdHoles } from './id-holes.ts';
import { EVENT_KINDS } from './kinds.ts';

export { EVENT_KINDS, EVENT_LOG_VERSION, K_BOOK, K_FEED, K_FUNDING, K_INDEX, K_MARK, K_STATE, K_TRADE, type EventKind } from './kinds.ts';

/** The builders of one batch, one per column, in schema order. */
export class EventColumns {
  /** Row number in the whole log, from 0. */
  readonly seq: Uint32Column;
  /** Sim time, integer nanoseconds since the Unix epoch. */
  readonly ts_ns: Int64Column;
  readonly kind: DictionaryColumn;
  readonly symbol: DictionaryColumn;
  /** Username: the feed's recipient, or a trade's taker. */
  readonly user: DictionaryColumn;
  /** Wire order id: the feed's order (`oid` of a cancel reject), or a trade's taker order. */
  readonly order_id: Utf8Column;
  /** Feed type letter: n j p f c x e d r. */
  readonly feed: DictionaryColumn;
  /** Order state after the feed, or the instrument's state on `state` rows. */
  readonly state: DictionaryColumn;
  /** B or S: the order's side, or a trade's taker side. */
  readonly side: DictionaryColumn;
  readonly tif: DictionaryColumn;
  readonly liquidation: BoolColumn;
  /** Price in ticks (null for a price off the tick grid). */
  readonly price_ticks: Int64Column;
  /**
   * The price as the wire showed it, written only when `price_ticks` does not give it (a price
   * off the tick grid, or text that is not the minimal decimal of its ticks); otherwise null,
   * and the text is the ticks times the symbol's tick size (`perpsim.tick_sizes` metadata) as
   * minimal decimal text, which `batchRecords` fills in.
   */
  readonly price: Utf8Column;
  /** Order quantity, or a trade's quantity, lots. */
  readonly qty: Int64Column;
  /** Lots filled so far (the order's `xq`). */
  readonly filled: Int64Column;
  /** Reject reason (`r`) or cancel reason (`xr`). */
  readonly reason: DictionaryColumn;
  readonly trade_id: Int64Column;
  readonly maker_order_id: Utf8Column;
  readonly maker_user: DictionaryColumn;
  readonly bid_ticks: Int64Column;
  readonly bid_qty: Int64Column;
  readonly ask_ticks: Int64Column;
  readonly ask_qty: Int64Column;
  readonly bid_depth5: Int64Column;
  readonly ask_depth5: Int64Column;
  readonly mark_ticks: Int64Column;
  readonly index_ticks: Int64Column;
  /** Funding rate of the settlement, decimal text. */
  readonly funding_rate: Utf8Column;
  readonly schema: Schema;
  /** `order_id` cells of this batch whose bytes are still to be written (`IdHoles`). */
  readonly orderIdHoles: IdHoles;

  /** @param reuse see `Column`: clear and keep the arrays between batches. */
  constructor(capacity: number, metadata: ReadonlyMap<string, string>, reuse = false) {
    const dict = (id: number, width: 8 | 32) => new DictionaryColumn(capacity, id, width, reuse);
    const i64 = () => new Int64Column(capacity, reuse);
    const utf8 = () => new Utf8Column(capacity, reuse);
    this.seq = new Uint32Column(capacity, reuse);
    this.ts_ns = i64();
    this.kind = dict(0, 8);
    this.symbol = dict(1, 32);
    this.user = dict(2, 32);
    this.order_id = utf8();
    this.feed = dict(3, 8);
    this.state = dict(4, 8);
    this.side = dict(5, 8);
    this.tif = dict(6, 8);
    this.liquidation = new BoolColumn(capacity, reuse);
    this.price_ticks = i64();
    this.price = utf8();
    this.qty = i64();
    this.filled = i64();
    this.reason = dict(7, 8);
    this.trade_id = i64();
    this.maker_order_id = utf8();
    this.maker_user = dict(8, 32);
    this.bid_ticks = i64();
    this.bid_qty = i64();
    this.ask_ticks = i64();
    this.ask_qty = i64();
    this.bid_depth5 = i64();
    this.ask_depth5 = i64();
    this.mark_ticks = i64();
    this.index_ticks = i64();
    this.funding_rate = utf8();
    this.orderIdHoles = new IdHoles(capacity);
    // Fixed vocabularies first, so codes are stable and the first batch has every value.
    this.kind.seed(EVENT_KINDS);
    this.feed.seed(['n', 'j', 'p', 'f', 'c', 'x', 'e', 'd', 'r']);
    this.state.seed([...ORDER_STATES, ...INSTRUMENT_STATES]);
    this.side.seed(['B', 'S']);
    this.tif.seed(['GTC', 'IOC', 'UNDEFINED']);
    this.reason.seed([...REJECT_REASONS, ...CANCEL_REASONS, 'UNKNOWN_ORDER']);
    const required = new Set(['seq', 'ts_ns', 'kind']);
    const fields = this.columns().map(([name, column]) => {
      return new Field(name, column.type, !required.has(name));
    });
    this.schema = new Schema(fields, new Map(metadata));
  }

  /**
   * The batch's rows as a record batch; every builder starts the next batch empty. With
   * `fillIds` false the `order_id` holes stay zeros, for a reader that fills them from
   * `orderIdHoles` (the writer thread) before `clearHoles`.
   */
  finish(rows: number, fillIds = true): RecordBatch {
    if (fillIds) this.order_id.fillHoles(this.orderIdHoles);
    const children: Data[] = this.columns().map(([, column]) => column.finish(rows));
    const data = makeData({ type: new Struct(this.schema.fields), length: rows, nullCount: 0, children });
    return new RecordBatch(this.schema, data);
  }

  /** Forgets the holes of the batch finished last (once it is filled or handed over). */
  clearHoles(): void {
    this.orderIdHoles.clear();
  }

  /** With reuse: clears every builder once the batch handed out last is no longer needed. */
  recycle(): void {
    for (const [, column] of this.columns()) column.recycle();
  }

  private columns(): [string, Column][] {
    return [
      ['seq', this.seq], ['ts_ns', this.ts_ns], ['kind', this.kind], ['symbol', this.symbol], ['user', this.user],
      ['order_id', this.order_id], ['feed', this.feed], ['state', this.state], ['side', this.side], ['tif', this.tif],
      ['liquidation', this.liquidation], ['price_ticks', this.price_ticks], ['price', this.price], ['qty', this.qty],
      ['filled', this.filled], ['reason', this.reason], ['trade_id', this.trade_id], ['maker_order_id', this.maker_order_id],
      ['maker_user', this.maker_user], ['bid_ticks', this.bid_ticks], ['bid_qty', this.bid_qty], ['ask_ticks', this.ask_ticks],
      ['ask_qty', this.ask_qty], ['bid_depth5', this.bid_depth5], ['ask_depth5', this.ask_depth5],
      ['mark_ticks', this.mark_ticks], ['index_ticks', this.index_ticks], ['funding_rate', this.funding_rate],
    ];
  }
}

const TWO_32 = 2 ** 32;

/**
 * `sec × 10^9 + nanos` as the signed high and unsigned low 32-bit words of an int64, exactly,
 * without bigint (every intermediate stays below 2^53). Needs 0 ≤ sec < 2^37.
 */
export function splitTimestamp(sec: number, nanos: number, out: [hi: number, lo: number] = [0, 0]): [hi: number, lo: number] {
  const secHi = Math.floor(sec / 65_536);
  const a = secHi * 1e9; // × 2^16
  const b = (sec - secHi * 65_536) * 1e9 + nanos;
  const aHi = Math.floor(a / 65_536);
  const low = (a - aHi * 65_536) * 65_536 + b;
  const carry = Math.floor(low / TWO_32);
  out[0] = aHi + carry;
  out[1] = low - carry * TWO_32;
  return out; // into the caller's pair when given one: the recorder splits a timestamp per instant
}
