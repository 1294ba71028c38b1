import type { Money } from '../core/money.ts';
import type { Side, TimeInForce } from '../core/types.ts';
import { OrderSlotPool, type OddTexts } from './order-slot-pool.ts';

export * from './order-record.ts';
export { SeqIndex } from './seq-index.ts';

/**
 * The record layout of order-record.ts (`F_*`, `STRIDE`, the `B_*` flags and `ST_*` states this
 * file reads) as literals for the hot methods: in V8's optimized code every use of an imported
 * or module-level constant is a load and a small-integer check, and an offset sum an add with
 * an overflow check (bench/README, round 14; the book does the same, see src/book/book-core.ts).
 * test/venue/record-layout.test.ts checks they agree.
 */
export const enum Rec {
  User = 0, Bits = 1, Price = 2, Qty = 3, Filled = 4, Saved = 5, BookRef = 6, Market = 7, Seq = 8, Notional = 9, Sec = 10, Nanos = 11,
  Stride = 12, FreeUser = -1,
  Sell = 1, Ioc = 2, ImBig = 32, SideUsed = 64, StateShift = 8,
  Pending = 0, New = 1, Partial = 2,
}

/**
 * Every live order of the venue as a record in one flat array, like the book's `OrderSlots`:
 * the order at slot `s` has its fields at `data[s * STRIDE + F_*]`.
 *
 * Why records and not one object per order: a venue holds hundreds of thousands of resting
 * orders; as objects (19 fields, an id string, a Map entry in the account and one in a global
 * map) every order was ~10 scattered heap objects that each command touched and every major GC
 * traced. Here an order is 96 bytes (its layout in order-record.ts) in one typed array, found from its engine id through an
 * `IdIndex`-style table (`SeqIndex`). An account's open orders are not chained or listed: the
 * few readers that want them find them by a scan of the records (`openSlotsOf`), so resting
 * and ending an order touch no other order's record. Its wire id is text only when someone
 * reads it.
 *
 * Slots are reused once an order is terminal and its command is over (`free`); an `OrderView`
 * handed out for the order copies the record first (see order-view.ts).
 */

export class OrderStore extends OrderSlotPool {
  /** Initial margin reserved by each slot's open remainder, for orders flagged `B_IM_BIG` (else 0n: see `VenueState.reservedImOf`). */
  readonly reservedIm: readonly Money[] = this.sides.reservedIm;
  /** Wire id and price texts per slot, '' until first read (read only for slots flagged `B_SIDE`). */
  readonly idText: readonly string[] = this.sides.idText;
  readonly priceText: readonly string[] = this.sides.priceText;
  /** Snapshot holders per slot (see order-view.ts); detached before a slot is reused. */
  readonly views: readonly ({ detach(): void } | undefined)[] = this.sides.views;

  /** Keeps the symbol and price text of an order the records cannot describe (rejected). */
  setOddTexts(slot: number, symbol: string, priceText: string): void {
    this.odd.set(slot, { symbol, priceText });
  }

  oddTexts(slot: number): OddTexts | undefined {
    return this.odd.get(slot);
  }

  /** Notes that `slot` has a view or a cached text in the side arrays (`free` clears them then). */
  private markSide(slot: number): void {
    this.data[slot * Rec.Stride + Rec.Bits]! |= Rec.SideUsed;
  }

  /** The cached wire id of `slot`, '' when none was made. */
  cachedId(slot: number): string {
    return (this.data[slot * Rec.Stride + Rec.Bits]! & Rec.SideUsed) === 0 ? '' : this.idText[slot]!;
  }

  /** The cached price text of `slot`, '' when none was made. */
  cachedPriceText(slot: number): string {
    return (this.data[slot * Rec.Stride + Rec.Bits]! & Rec.SideUsed) === 0 ? '' : this.priceText[slot]!;
  }

  /** Caches the wire id text of `slot`. */
  setSideId(slot: number, text: string): void {
    this.sides.reach(slot);
    this.sides.idText[slot] = text;
    this.markSide(slot);
  }

  /** Caches the price text of `slot`. */
  setSidePriceText(slot: number, text: string): void {
    this.sides.reach(slot);
    this.sides.priceText[slot] = text;
    this.markSide(slot);
  }

  /** Keeps the view handed out for `slot`. */
  setSideView(slot: number, view: { detach(): void }): void {
    this.sides.reach(slot);
    this.sides.views[slot] = view;
    this.markSide(slot);
  }

  /** Money reserved by `slot` (orders flagged `B_IM_BIG`: `free` clears it then). */
  setReservedIm(slot: number, im: Money): void {
    if (slot >= this.reservedIm.length && im === 0n) return;
    this.sides.reach(slot);
    this.sides.reservedIm[slot] = im;
  }

  /** Filled notional of `slot` past 2^53, if it went there (see `addFilledNotional`). */
  bigNotionalOf(slot: number): bigint | undefined {
    return this.bigNotional?.get(slot);
  }

  /**
   * Writes back what `saveRecord` (undo.ts) kept of the record in `slot`: the fields a command
   * changes (`RECORD_SAVED` numbers at `nums[at]`; the others are fixed when the order is made),
   * and the Money kept off the record for the rare orders that have it.
   */
  restoreRecord(slot: number, nums: Float64Array, at: number, reservedIm: Money, big: bigint | undefined): void {
    const data = this.data;
    const o = slot * Rec.Stride;
    // A side array written during the failed command keeps its flag, so `free` still clears it.
    data[o + Rec.Bits] = nums[at]! | (data[o + Rec.Bits]! & Rec.SideUsed);
    data[o + Rec.Filled] = nums[at + 1]!;
    data[o + Rec.Notional] = nums[at + 2]!;
    this.setReservedIm(slot, reservedIm);
    if (big === undefined) this.bigNotional?.delete(slot);
    else (this.bigNotional ??= new Map()).set(slot, big);
  }

  /** Writes the fields a command may change as `restoreRecord` takes them back. */
  saveRecordTo(slot: number, nums: Float64Array, at: number): void {
    const data = this.data;
    const o = slot * Rec.Stride;
    nums[at] = data[o + Rec.Bits]!;
    nums[at + 1] = data[o + Rec.Filled]!;
    nums[at + 2] = data[o + Rec.Notional]!;
  }

  /** True when the record in `slot` has Money kept off it (`B_IM_BIG`, or a notional past 2^53). */
  hasBigMoney(slot: number): boolean {
    return (this.data[slot * Rec.Stride + Rec.Bits]! & Rec.ImBig) !== 0 || (this.bigNotional !== undefined && this.bigNotional.has(slot));
  }

  /** Slot of a live order by engine id, or `NO_SLOT`. */
  slotOf(seq: number): number {
    return this.bySeq.get(seq);
  }

  state(slot: number): number {
    return (this.data[slot * Rec.Stride + Rec.Bits]! >>> Rec.StateShift) & 15;
  }

  setState(slot: number, state: number): void {
    const o = slot * Rec.Stride + Rec.Bits;
    this.data[o] = (this.data[o]! & 255) | (state << Rec.StateShift);
  }

  side(slot: number): Side {
    return (this.data[slot * Rec.Stride + Rec.Bits]! & Rec.Sell) !== 0 ? 'S' : 'B';
  }

  tif(slot: number): TimeInForce {
    return (this.data[slot * Rec.Stride + Rec.Bits]! & Rec.Ioc) !== 0 ? 'IOC' : 'GTC';
  }

  has(slot: number, bit: number): boolean {
    return (this.data[slot * Rec.Stride + Rec.Bits]! & bit) !== 0;
  }

  /** The engine id, owner and filled lots of `slot` (`field` with the offset a literal here). */
  seq(slot: number): number {
    return this.data[slot * Rec.Stride + Rec.Seq]!;
  }

  user(slot: number): number {
    return this.data[slot * Rec.Stride + Rec.User]!;
  }

  filled(slot: number): number {
    return this.data[slot * Rec.Stride + Rec.Filled]!;
  }

  /** True while the order in `slot` is NEW or PARTIALLY_FILLED. */
  isOpen(slot: number): boolean {
    const st = this.state(slot);
    return st === Rec.New || st === Rec.Partial;
  }

  field(slot: number, f: number): number {
    return this.data[slot * Rec.Stride + f]!;
  }

  setField(slot: number, f: number, value: number): void {
    this.data[slot * Rec.Stride + f] = value;
  }

  /** Open (unfilled) lots: 0 in every terminal state, as the wire shows `rq`. */
  remainingLots(slot: number): number {
    const st = this.state(slot);
    return st === Rec.Pending || st === Rec.New || st === Rec.Partial ? this.field(slot, Rec.Qty) - this.field(slot, Rec.Filled) : 0;
  }

  /** Adds one fill's `priceTicks × lots` to the order's filled notional, exactly. */
  addFilledNotional(slot: number, priceTicks: number, lots: number): void {
    const o = slot * Rec.Stride + Rec.Notional;
    const big = this.bigNotional?.get(slot);
    const product = priceTicks * lots;
    const sum = this.data[o]! + product;
    if (big === undefined && Number.isSafeInteger(product) && Number.isSafeInteger(sum)) this.data[o] = sum;
    else (this.bigNotional ??= new Map()).set(slot, (big ?? BigInt(this.data[o]!)) + BigInt(priceTicks) * BigInt(lots));
  }

  filledNotionalTicks(slot: number): bigint {
    return this.bigNotional?.get(slot) ?? BigInt(this.field(slot, Rec.Notional));
  }

}

