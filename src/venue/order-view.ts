import type { Money } from '../core/money.ts';
import type { OrderState, Side, TimeInForce } from '../core/types.ts';
import type { Market } from './market.ts';
import type { Order } from './order.ts';
import {
  B_IOC, B_LIQUIDATION, B_OFF_GRID, B_POST_ONLY, B_SELL, F_BITS, F_FILLED, F_MARKET, F_NANOS, F_PRICE, F_QTY, F_SEC, F_SEQ, F_USER, STATE_NAMES, STRIDE,
} from './order-store.ts';
import type { VenueState } from './venue-state.ts';

/**
 * The `Order` of one record, for callers outside the hot path (the wire, tests, replay
 * drivers). It reads the live record while the order is in the store; when the slot is freed
 * (the order ended and its command is over) the store calls `detach`, and the view keeps a
 * copy of the record's numbers (and the texts the record cannot give back), so a caller
 * holding it still reads its last state and never another order's. One view per slot at most
 * (the store keeps it), made only when someone asks.
 */
export class OrderView implements Order {
  /** The record's numbers: the store's array while live, the view's own copy once detached. */
  private rec: Float64Array;
  private at: number;
  /** What the record cannot give back once freed: texts (made lazily) and a big notional. */
  private detached: { id: string; odd: { symbol: string; priceText: string } | undefined; filledNotional: bigint } | undefined = undefined;

  constructor(
    private readonly s: VenueState,
    private readonly slot: number,
  ) {
    this.rec = s.orders.data;
    this.at = slot * STRIDE;
  }

  detach(): void {
    const s = this.s;
    const slot = this.slot;
    this.detached = { id: s.orders.idText[slot]!, odd: s.orders.oddTexts(slot), filledNotional: s.orders.filledNotionalTicks(slot) };
    this.rec = s.orders.data.slice(this.at, this.at + STRIDE);
    this.at = 0;
  }

  private num(field: number): number {
    // The store's array is replaced when it grows: a live view follows it.
    if (this.detached === undefined) this.rec = this.s.orders.data;
    return this.rec[this.at + field]!;
  }

  private bit(mask: number): boolean {
    return (this.num(F_BITS) & mask) !== 0;
  }

  get seq(): number {
    return this.num(F_SEQ);
  }
  get id(): string {
    const d = this.detached;
    if (d === undefined) return this.s.orderId(this.slot);
    if (d.id === '') d.id = this.s.formatOrderId(this.seq, this.insertSec, this.insertNanos);
    return d.id;
  }
  get userId(): number {
    return this.num(F_USER);
  }
  get username(): string {
    return this.s.accounts[this.userId]!.username;
  }
  get market(): Market | undefined {
    return this.s.markets[this.num(F_MARKET)];
  }
  get symbol(): string {
    if (this.detached === undefined) return this.s.symbolOf(this.slot);
    return this.detached.odd?.symbol ?? this.market!.symbol;
  }
  get side(): Side {
    return this.bit(B_SELL) ? 'S' : 'B';
  }
  get priceText(): string {
    if (this.detached === undefined) return this.s.priceTextOf(this.slot);
    return this.detached.odd?.priceText ?? this.market!.instrument.tick.toPrice(this.num(F_PRICE));
  }
  get priceTicks(): number {
    return this.bit(B_OFF_GRID) ? NaN : this.num(F_PRICE);
  }
  get qtyLots(): number {
    return this.num(F_QTY);
  }
  get tif(): TimeInForce {
    return this.bit(B_IOC) ? 'IOC' : 'GTC';
  }
  get postOnly(): boolean {
    return this.bit(B_POST_ONLY);
  }
  get isLiquidation(): boolean {
    return this.bit(B_LIQUIDATION);
  }
  get insertSec(): number {
    return this.num(F_SEC);
  }
  get insertNanos(): number {
    return this.num(F_NANOS);
  }
  get state(): OrderState {
    return STATE_NAMES[(this.num(F_BITS) >>> 8) & 15]!;
  }
  get filledLots(): number {
    return this.num(F_FILLED);
  }
  get filledNotionalTicks(): bigint {
    return this.detached?.filledNotional ?? this.s.orders.filledNotionalTicks(this.slot);
  }
  get reservedIm(): Money {
    // A detached order has ended: it reserves nothing.
    return this.detached !== undefined ? 0n : this.s.reservedImOf(this.slot);
  }
}
