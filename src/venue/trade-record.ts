import type { Side } from '../core/types.ts';
import type { SessionStats } from '../market/session-stats.ts';
import { EXTERNAL_ORDER_ID } from './external-owner.ts';
import type { VenueTrade } from './feeds.ts';
import { NO_SLOT } from './order-store.ts';
import { grown } from './undo-journal.ts';

/** What a trade cursor needs to write an order's wire id when asked (`VenueState.orderId`). */
export interface OrderIdWriter {
  orderId(slot: number): string;
  /** The same text as ASCII bytes at `out[at]`, without making it; returns the end. */
  writeOrderIdInto(slot: number, out: Uint8Array, at: number): number;
}

/**
 * The numbers of one trade row (`TradeRows`): the trade, both sides' order slots and owners,
 * then the market's session stats as of the trade (`SessionStats.saveTo`). Literals (a same-file
 * const enum): a module constant costs a load and a check at every use in optimized code, and a
 * row is written once per trade; test/venue/account-row-layout checks `Stats` against `STATS_SAVED`.
 */
export const enum T {
  Number = 0,
  Sec = 1,
  Nanos = 2,
  Price = 3,
  Qty = 4,
  /** 1 when the taker sold. */
  Sell = 5,
  /** The maker's and taker's order slots (`NO_SLOT`: the external side). */
  Maker = 6,
  Taker = 7,
  MakerUser = 8,
  TakerUser = 9,
  Stats = 10,
  Row = 18,
}

/**
 * The trades of the current command as rows of numbers (reused from command to command: a
 * trade allocates nothing). Each row keeps the order slots of its maker and taker, not their
 * wire ids: a slot is freed only once its command is over and told (see `VenueState.free`), so
 * while the listeners hear of the trade the slot still holds the order, and its wire id is
 * written only when a listener reads it (most read prices and sizes only).
 */
export class TradeRows {
  nums = new Float64Array(16 * T.Row);
  length = 0;

  /**
   * A new row: trade `tradeNumber` at (sec, nanos), the order slots of maker and taker
   * (`NO_SLOT` for an external side) and their owners, and `stats` as they are now.
   */
  add(tradeNumber: number, sec: number, nanos: number, priceTicks: number, qtyLots: number, takerSide: Side, maker: number, taker: number, makerUserId: number, takerUserId: number, stats: SessionStats): number {
    const i = this.length++;
    if ((i + 1) * T.Row > this.nums.length) this.nums = grown(this.nums, (i + 1) * T.Row);
    const n = this.nums;
    const o = i * T.Row;
    n[o + T.Number] = tradeNumber;
    n[o + T.Sec] = sec;
    n[o + T.Nanos] = nanos;
    n[o + T.Price] = priceTicks;
    n[o + T.Qty] = qtyLots;
    n[o + T.Sell] = takerSide === 'S' ? 1 : 0;
    n[o + T.Maker] = maker;
    n[o + T.Taker] = taker;
    n[o + T.MakerUser] = makerUserId;
    n[o + T.TakerUser] = takerUserId;
    stats.saveTo(n, o + T.Stats);
    return i;
  }

  /** Where row `i`'s session stats start in `nums` (`SessionStats.showAsOf` is handed them). */
  statsAt(i: number): number {
    return i * T.Row + T.Stats;
  }

  clear(): void {
    this.length = 0;
  }
}

/**
 * One trade as listeners get it (`VenueTrade`): a cursor the venue loads with each trade row in
 * turn, so a trade is no object of its own. Valid during the listener call only (the next trade
 * reloads it); a listener that keeps a trade keeps `toJSON()`, the plain object of its fields.
 * The trade id and both wire ids are texts only when read.
 */
export class TradeCursor implements VenueTrade {
  symbol = '';
  sec = 0;
  nanos = 0;
  priceTicks = 0;
  qtyLots = 0;
  takerSide: Side = 'B';
  makerUserId = 0;
  takerUserId = 0;
  private tradeNumber = 0;
  private makerSlot = NO_SLOT;
  private takerSlot = NO_SLOT;

  constructor(private readonly ids: OrderIdWriter) {}

  /** Makes this cursor row `i` of `rows`, a trade of the market named `symbol`. */
  load(rows: TradeRows, i: number, symbol: string): this {
    const n = rows.nums;
    const o = i * T.Row;
    this.symbol = symbol;
    this.tradeNumber = n[o + T.Number]!;
    this.sec = n[o + T.Sec]!;
    this.nanos = n[o + T.Nanos]!;
    this.priceTicks = n[o + T.Price]!;
    this.qtyLots = n[o + T.Qty]!;
    this.takerSide = n[o + T.Sell] === 1 ? 'S' : 'B';
    this.makerSlot = n[o + T.Maker]!;
    this.takerSlot = n[o + T.Taker]!;
    this.makerUserId = n[o + T.MakerUser]!;
    this.takerUserId = n[o + T.TakerUser]!;
    return this;
  }

  get tid(): string {
    return String(this.tradeNumber);
  }

  get makerOrderId(): string {
    return this.makerSlot === NO_SLOT ? EXTERNAL_ORDER_ID : this.ids.orderId(this.makerSlot);
  }

  get takerOrderId(): string {
    return this.takerSlot === NO_SLOT ? EXTERNAL_ORDER_ID : this.ids.orderId(this.takerSlot);
  }

  /** `makerOrderId` as ASCII at `out[at]`, without making the text (`ORDER_ID_BYTES` of room); returns the end. */
  writeMakerOrderId(out: Uint8Array, at: number): number {
    return this.makerSlot === NO_SLOT ? writeAscii(EXTERNAL_ORDER_ID, out, at) : this.ids.writeOrderIdInto(this.makerSlot, out, at);
  }

  /** `takerOrderId` as `writeMakerOrderId` writes the maker's. */
  writeTakerOrderId(out: Uint8Array, at: number): number {
    return this.takerSlot === NO_SLOT ? writeAscii(EXTERNAL_ORDER_ID, out, at) : this.ids.writeOrderIdInto(this.takerSlot, out, at);
  }

  /** The plain object of the same fields: what `JSON.stringify` writes, and the copy to keep. */
  toJSON(): VenueTrade {
    const { tid, symbol, sec, nanos, priceTicks, qtyLots, takerSide, makerOrderId, takerOrderId, makerUserId, takerUserId } = this;
    return { tid, symbol, sec, nanos, priceTicks, qtyLots, takerSide, makerOrderId, takerOrderId, makerUserId, takerUserId };
  }
}

function writeAscii(text: string, out: Uint8Array, at: number): number {
  for (let i = 0; i < text.length; i++) out[at + i] = text.charCodeAt(i);
  return at + text.length;
}
