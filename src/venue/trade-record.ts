import type { Side } from '../core/types.ts';
import { EXTERNAL_ORDER_ID, EXTERNAL_OWNER } from './external-owner.ts';
import type { VenueTrade } from './feeds.ts';
import { F_NANOS, F_SEC, F_SEQ, F_USER, NO_SLOT, type OrderStore } from './order-store.ts';

/** What a trade record needs to write an order's wire id when asked (`VenueState`). */
export interface OrderIdWriter {
  readonly orders: OrderStore;
  formatOrderId(seq: number, sec: number, nanos: number): string;
}

/**
 * One trade as listeners get it (`VenueTrade`), built from numbers: its texts (the trade id, the
 * maker's and taker's wire ids) are written on first read, and most listeners never read them
 * (market data, the stylized facts, the bench read prices and sizes). A wire id is formatted
 * from the order's engine id and entry time, copied here when the trade happens, since the
 * order's record may be freed right after its command.
 */
export class TradeRecord implements VenueTrade {
  readonly makerUserId: number;
  readonly takerUserId: number;
  private tidText = '';
  // Each side's wire id: its text once known ('' until then), else the engine id and entry time.
  private makerText: string;
  private readonly makerSeq: number;
  private readonly makerSec: number;
  private readonly makerNanos: number;
  private takerText: string;
  private readonly takerSeq: number;
  private readonly takerSec: number;
  private readonly takerNanos: number;

  constructor(
    private readonly ids: OrderIdWriter,
    private readonly tradeNumber: number,
    readonly symbol: string,
    readonly sec: number,
    readonly nanos: number,
    readonly priceTicks: number,
    readonly qtyLots: number,
    readonly takerSide: Side,
    maker: number,
    taker: number,
  ) {
    const o = ids.orders;
    const external = maker === NO_SLOT;
    this.makerText = external ? EXTERNAL_ORDER_ID : o.cachedId(maker);
    this.makerSeq = external ? 0 : o.field(maker, F_SEQ);
    this.makerSec = external ? 0 : o.field(maker, F_SEC);
    this.makerNanos = external ? 0 : o.field(maker, F_NANOS);
    this.makerUserId = external ? EXTERNAL_OWNER : o.field(maker, F_USER);
    const none = taker === NO_SLOT;
    this.takerText = none ? EXTERNAL_ORDER_ID : o.cachedId(taker);
    this.takerSeq = none ? 0 : o.field(taker, F_SEQ);
    this.takerSec = none ? 0 : o.field(taker, F_SEC);
    this.takerNanos = none ? 0 : o.field(taker, F_NANOS);
    this.takerUserId = none ? EXTERNAL_OWNER : o.field(taker, F_USER);
  }

  get tid(): string {
    if (this.tidText === '') this.tidText = String(this.tradeNumber);
    return this.tidText;
  }

  get makerOrderId(): string {
    if (this.makerText === '') this.makerText = this.ids.formatOrderId(this.makerSeq, this.makerSec, this.makerNanos);
    return this.makerText;
  }

  get takerOrderId(): string {
    if (this.takerText === '') this.takerText = this.ids.formatOrderId(this.takerSeq, this.takerSec, this.takerNanos);
    return this.takerText;
  }

  /** The plain object of the same fields (what `JSON.stringify` writes, and a copy to compare). */
  toJSON(): VenueTrade {
    const { tid, symbol, sec, nanos, priceTicks, qtyLots, takerSide, makerOrderId, takerOrderId, makerUserId, takerUserId } = this;
    return { tid, symbol, sec, nanos, priceTicks, qtyLots, takerSide, makerOrderId, takerOrderId, makerUserId, takerUserId };
  }
}
