import type { Money } from '../core/money.ts';
import type { Side, TimeInForce } from '../core/types.ts';
import { OrderSides } from './order-sides.ts';
import { SeqIndex } from './seq-index.ts';

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

/** What only odd orders need (a text the tick grid cannot give back), kept off the records. */
interface OddTexts {
  symbol: string;
  priceText: string;
}

export class OrderStore {
  /** The records; see `F_*`. Public for the venue's hot paths; replaced when it grows. */
  data = new Float64Array(1024 * Rec.Stride);
  /** What a few orders keep beside their record (written through `setSide*`: the arrays grow only as far as a slot that used them). */
  private readonly sides = new OrderSides();
  /** Initial margin reserved by each slot's open remainder, for orders flagged `B_IM_BIG` (else 0n: see `VenueState.reservedImOf`). */
  readonly reservedIm: readonly Money[] = this.sides.reservedIm;
  /** Wire id and price texts per slot, '' until first read (read only for slots flagged `B_SIDE`). */
  readonly idText: readonly string[] = this.sides.idText;
  readonly priceText: readonly string[] = this.sides.priceText;
  private readonly odd = new Map<number, OddTexts>();
  /** Snapshot holders per slot (see order-view.ts); detached before a slot is reused. */
  readonly views: readonly ({ detach(): void } | undefined)[] = this.sides.views;
  private readonly freeSlots: number[] = [];
  private highWater = 0;
  /** Slots below this have been used (records past it were never written): the scans' bound (order-scans.ts). */
  get slotsEverUsed(): number {
    return this.highWater;
  }
  readonly bySeq = new SeqIndex();

  /**
   * A fresh record for a new order (every field set here or by the caller), stamped with the
   * time of `time` (read, not passed: see `IdGenerator.advanceAt`), in the engine id index.
   */
  allocate(seq: number, userId: number, marketIndex: number, bits: number, priceTicks: number, qtyLots: number, time: { readonly nowSec: number; readonly nowNanos: number }): number {
    let slot = this.freeSlots.pop();
    if (slot === undefined) {
      slot = this.highWater++;
      if (slot * Rec.Stride >= this.data.length) this.grow();
    }
    const d = this.data;
    const o = slot * Rec.Stride;
    d[o + Rec.Seq] = seq;
    d[o + Rec.User] = userId;
    d[o + Rec.Market] = marketIndex;
    d[o + Rec.Bits] = bits;
    d[o + Rec.Price] = priceTicks;
    d[o + Rec.Qty] = qtyLots;
    d[o + Rec.Filled] = 0;
    d[o + Rec.Sec] = time.nowSec;
    d[o + Rec.Nanos] = time.nowNanos;
    d[o + Rec.Notional] = 0;
    d[o + Rec.Saved] = 0;
    d[o + Rec.BookRef] = 0;
    this.bySeq.add(seq, slot);
    return slot;
  }

  /**
   * The record of an order that ends in the command that makes it, before anything could name
   * it (an IOC that cannot cross, order-fast-lane.ts), written into the store's one scratch
   * slot: no free slot taken, no index entry, no allocation to undo. Its events read it as any
   * record until the command is over; then `free` (through the command log, as for any ended
   * order) or, after a rollback, `endScratch` leaves the slot unowned again.
   */
  scratch(seq: number, userId: number, marketIndex: number, bits: number, priceTicks: number, qtyLots: number, time: { readonly nowSec: number; readonly nowNanos: number }): number {
    let slot = this.scratchSlot;
    // Undefined in a store restored from a snapshot made before the scratch slot existed.
    if (!(slot >= 0)) {
      slot = this.scratchSlot = this.highWater++;
      if (slot * Rec.Stride >= this.data.length) this.grow();
    }
    const d = this.data;
    const o = slot * Rec.Stride;
    d[o + Rec.Seq] = seq;
    d[o + Rec.User] = userId;
    d[o + Rec.Market] = marketIndex;
    d[o + Rec.Bits] = bits;
    d[o + Rec.Price] = priceTicks;
    d[o + Rec.Qty] = qtyLots;
    d[o + Rec.Filled] = 0;
    d[o + Rec.Sec] = time.nowSec;
    d[o + Rec.Nanos] = time.nowNanos;
    d[o + Rec.Notional] = 0;
    d[o + Rec.Saved] = 0;
    d[o + Rec.BookRef] = 0;
    return slot;
  }

  /**
   * The scratch record's order is over (its command committed or was rolled back): the slot has
   * no owner again (the scans skip it), and a view or text made of it takes its copy and goes.
   */
  endScratch(): void {
    const slot = this.scratchSlot;
    if (!(slot >= 0)) return;
    const o = slot * Rec.Stride;
    if ((this.data[o + Rec.Bits]! & (Rec.SideUsed | Rec.ImBig)) !== 0) this.sides.clear(slot);
    this.data[o + Rec.User] = Rec.FreeUser;
  }

  /** The scratch slot (see `scratch`): -1 until first used. Never in the free list or the index. */
  private scratchSlot = -1;

  /** Keeps the symbol and price text of an order the records cannot describe (rejected). */
  setOddTexts(slot: number, symbol: string, priceText: string): void {
    this.odd.set(slot, { symbol, priceText });
  }

  oddTexts(slot: number): OddTexts | undefined {
    return this.odd.get(slot);
  }

  /** Releases a terminal order's slot, after any view of it took its copy. */
  free(slot: number): void {
    if (slot === this.scratchSlot) return this.endScratch();
    const o = slot * Rec.Stride;
    this.bySeq.take(this.data[o + Rec.Seq]!);
    // The per-slot side arrays are read only for an order flagged as having used them (most
    // never do): four scattered cache lines fewer per ended order.
    if ((this.data[o + Rec.Bits]! & (Rec.SideUsed | Rec.ImBig)) !== 0) this.sides.clear(slot);
    if (this.odd.size !== 0) this.odd.delete(slot);
    if (this.bigNotional !== undefined) this.bigNotional.delete(slot);
    // After any view took its copy of the record (`clearSide`).
    this.data[o + Rec.User] = Rec.FreeUser;
    this.freeSlots.push(slot);
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

  /** True when the next `allocate` takes a new slot rather than a freed one. */
  get nextIsFresh(): boolean {
    return this.freeSlots.length === 0;
  }

  /**
   * Takes back the latest `allocate` (of a command that failed): the slot goes back where it
   * came from, so the next allocation gets it again. `fresh`: `nextIsFresh` before it.
   */
  unallocate(slot: number, fresh: boolean): void {
    this.bySeq.take(this.data[slot * Rec.Stride + Rec.Seq]!);
    this.sides.clear(slot);
    this.data[slot * Rec.Stride + Rec.User] = Rec.FreeUser;
    this.odd.delete(slot);
    this.bigNotional?.delete(slot);
    if (!fresh) {
      this.freeSlots.push(slot);
      return;
    }
    this.highWater--;
    this.sides.dropLast(slot);
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

  /** Filled notionals past 2^53 (an extremely long-lived order): exact, off the records. */
  private bigNotional: Map<number, bigint> | undefined;

  private grow(): void {
    const next = new Float64Array(this.data.length * 2);
    next.set(this.data);
    this.data = next;
  }
}

