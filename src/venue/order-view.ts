import type { Money } from '../core/money.ts';
import type { OrderState, Side, TimeInForce } from '../core/types.ts';
import type { Market } from './market.ts';
import type { Order } from './order.ts';
import { B_LIQUIDATION, B_OFF_GRID, B_POST_ONLY, F_FILLED, F_MARKET, F_NANOS, F_PRICE, F_QTY, F_SEC, F_SEQ, F_USER, STATE_NAMES, type OrderStore } from './order-store.ts';
import type { VenueState } from './venue-state.ts';

/**
 * The `Order` of one record, for callers outside the hot path (the wire, tests, replay
 * drivers). It reads the live record while the order is in the store; when the slot is freed
 * (the order ended and its command is over) the store calls `detach`, and the view keeps a copy
 * of the final order, so a caller holding it still reads its last state and never another
 * order's. One view per slot at most (the store keeps it), made only when someone asks.
 */
export class OrderView implements Order {
  private final: Order | undefined = undefined;

  constructor(
    private readonly s: VenueState,
    private readonly slot: number,
  ) {}

  detach(): void {
    this.final = snapshot(this);
  }

  private get store(): OrderStore {
    return this.s.orders;
  }

  get seq(): number {
    return this.final?.seq ?? this.store.field(this.slot, F_SEQ);
  }
  get id(): string {
    return this.final?.id ?? this.s.orderId(this.slot);
  }
  get userId(): number {
    return this.final?.userId ?? this.store.field(this.slot, F_USER);
  }
  get username(): string {
    return this.final?.username ?? this.s.accounts[this.userId]!.username;
  }
  get market(): Market | undefined {
    if (this.final !== undefined) return this.final.market;
    return this.s.markets[this.store.field(this.slot, F_MARKET)];
  }
  get symbol(): string {
    return this.final?.symbol ?? this.store.oddTexts(this.slot)?.symbol ?? this.market!.symbol;
  }
  get side(): Side {
    return this.final?.side ?? this.store.side(this.slot);
  }
  get priceText(): string {
    if (this.final !== undefined) return this.final.priceText;
    return this.store.oddTexts(this.slot)?.priceText ?? this.market!.instrument.tick.toPrice(this.store.field(this.slot, F_PRICE));
  }
  get priceTicks(): number {
    if (this.final !== undefined) return this.final.priceTicks;
    return this.store.has(this.slot, B_OFF_GRID) ? NaN : this.store.field(this.slot, F_PRICE);
  }
  get qtyLots(): number {
    return this.final?.qtyLots ?? this.store.field(this.slot, F_QTY);
  }
  get tif(): TimeInForce {
    return (this.final?.tif as TimeInForce | undefined) ?? this.store.tif(this.slot);
  }
  get postOnly(): boolean {
    return this.final?.postOnly ?? this.store.has(this.slot, B_POST_ONLY);
  }
  get isLiquidation(): boolean {
    return this.final?.isLiquidation ?? this.store.has(this.slot, B_LIQUIDATION);
  }
  get insertSec(): number {
    return this.final?.insertSec ?? this.store.field(this.slot, F_SEC);
  }
  get insertNanos(): number {
    return this.final?.insertNanos ?? this.store.field(this.slot, F_NANOS);
  }
  get state(): OrderState {
    return this.final?.state ?? STATE_NAMES[this.store.state(this.slot)]!;
  }
  get filledLots(): number {
    return this.final?.filledLots ?? this.store.field(this.slot, F_FILLED);
  }
  get filledNotionalTicks(): bigint {
    return this.final?.filledNotionalTicks ?? this.store.filledNotionalTicks(this.slot);
  }
  get reservedIm(): Money {
    return this.final?.reservedIm ?? this.store.reservedIm[this.slot]!;
  }
}

/** A plain copy of every field, as they are now. */
function snapshot(o: Order): Order {
  return {
    seq: o.seq,
    id: o.id,
    userId: o.userId,
    username: o.username,
    symbol: o.symbol,
    market: o.market,
    side: o.side,
    priceText: o.priceText,
    priceTicks: o.priceTicks,
    qtyLots: o.qtyLots,
    tif: o.tif,
    postOnly: o.postOnly,
    isLiquidation: o.isLiquidation,
    insertSec: o.insertSec,
    insertNanos: o.insertNanos,
    state: o.state,
    filledLots: o.filledLots,
    filledNotionalTicks: o.filledNotionalTicks,
    reservedIm: o.reservedIm,
  };
}
