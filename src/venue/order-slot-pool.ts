import { OrderSides } from './order-sides.ts';
import { SeqIndex } from './seq-index.ts';

/** The record layout of order-record.ts this file writes, as literals (see `Rec` in order-store.ts; test/venue/record-layout checks they agree). */
export const enum Slot {
  User = 0, Bits = 1, Price = 2, Qty = 3, Filled = 4, Saved = 5, BookRef = 6, Market = 7, Seq = 8, Notional = 9, Sec = 10, Nanos = 11,
  Stride = 12, FreeUser = -1, ImBig = 32, SideUsed = 64,
}

/** What only odd orders need (a text the tick grid cannot give back), kept off the records. */
export interface OddTexts {
  symbol: string;
  priceText: string;
}

/**
 * The order records' slots (`OrderStore`'s half that makes and ends records): the flat array,
 * the free list, the engine id index, the scratch record of an order that ends in its own
 * command, and the marks by which a failed command's records are given back. `OrderStore`
 * adds the reads and writes of a record's fields, the side cells and the Money kept off it.
 */
export class OrderSlotPool {
  /** The records; see `F_*`. Public for the venue's hot paths; replaced when it grows. */
  data = new Float64Array(1024 * Slot.Stride);
  /** What a few orders keep beside their record (written through `setSide*`: the arrays grow only as far as a slot that used them). */
  protected readonly sides = new OrderSides();
  protected readonly odd = new Map<number, OddTexts>();
  protected readonly freeSlots: number[] = [];
  protected highWater = 0;
  /** Slots below this have been used (records past it were never written): the scans' bound (order-scans.ts). */
  get slotsEverUsed(): number {
    return this.highWater;
  }
  readonly bySeq = new SeqIndex();

  /**
   * A fresh record for a new order (every field set here or by the caller), stamped with the
   * time of `time` (read, not passed: see `IdGenerator.advanceAt`), in the engine id index.
   * A failed command gives it back by its marks (`undoAllocations`): no undo entry per order;
   * its record needs no copy in the command that made it (marked saved in it, so `saveRecord`
   * skips it).
   */
  allocate(seq: number, userId: number, marketIndex: number, bits: number, priceTicks: number, qtyLots: number, time: { readonly nowSec: number; readonly nowNanos: number }): number {
    let slot = this.freeSlots.pop();
    if (slot === undefined) {
      slot = this.highWater++;
      if (slot * Slot.Stride >= this.data.length) this.grow();
    } else {
      this.popped[this.poppedCount++] = slot;
    }
    this.write(slot, seq, userId, marketIndex, bits, priceTicks, qtyLots, time);
    this.bySeq.add(seq, slot);
    return slot;
  }

  /** Writes every field of a new order's record in `slot`, marked saved in the current command (its undo is the slot's). */
  private write(slot: number, seq: number, userId: number, marketIndex: number, bits: number, priceTicks: number, qtyLots: number, time: { readonly nowSec: number; readonly nowNanos: number }): void {
    const d = this.data;
    const o = slot * Slot.Stride;
    d[o + Slot.Seq] = seq;
    d[o + Slot.User] = userId;
    d[o + Slot.Market] = marketIndex;
    d[o + Slot.Bits] = bits;
    d[o + Slot.Price] = priceTicks;
    d[o + Slot.Qty] = qtyLots;
    d[o + Slot.Filled] = 0;
    d[o + Slot.Sec] = time.nowSec;
    d[o + Slot.Nanos] = time.nowNanos;
    d[o + Slot.Notional] = 0;
    d[o + Slot.Saved] = this.commandEpoch;
    d[o + Slot.BookRef] = 0;
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
      if (slot * Slot.Stride >= this.data.length) this.grow();
    }
    this.write(slot, seq, userId, marketIndex, bits, priceTicks, qtyLots, time);
    return slot;
  }

  /**
   * The scratch record's order is over (its command committed or was rolled back): the slot has
   * no owner again (the scans skip it), and a view or text made of it takes its copy and goes.
   */
  endScratch(): void {
    const slot = this.scratchSlot;
    if (slot >= 0) this.unowned(slot);
  }

  /** The scratch slot (see `scratch`): -1 until first used. Never in the free list or the index. */
  private scratchSlot = -1;

  /** Releases a terminal order's slot, after any view of it took its copy. */
  free(slot: number): void {
    if (slot === this.scratchSlot) return this.endScratch();
    this.bySeq.take(this.data[slot * Slot.Stride + Slot.Seq]!);
    this.unowned(slot);
    this.freeSlots.push(slot);
  }

  /**
   * Leaves `slot` without an owner after its order ended. Most orders kept nothing beside their
   * record (no side cells flagged: a view, a text, Money; no odd texts, no notional past 2^53):
   * then only the owner is cleared, and the side arrays' four scattered cache lines are not read.
   */
  private unowned(slot: number): void {
    const o = slot * Slot.Stride;
    const sides = (this.data[o + Slot.Bits]! & (Slot.SideUsed | Slot.ImBig)) !== 0;
    if (sides || this.odd.size !== 0 || this.bigNotional !== undefined) this.disown(slot, sides);
    else this.data[o + Slot.User] = Slot.FreeUser;
  }

  /**
   * Leaves `slot` without an owner (the scans skip it): its side cells (`clearSides`; a view
   * takes its copy first), odd texts and Money kept off it are cleared. Not its index entry or
   * free-list place: those are the caller's (`free`, `undoAllocations`; a scratch slot has neither).
   */
  private disown(slot: number, clearSides: boolean): void {
    if (clearSides) this.sides.clear(slot);
    if (this.odd.size !== 0) this.odd.delete(slot);
    if (this.bigNotional !== undefined) this.bigNotional.delete(slot);
    this.data[slot * Slot.Stride + Slot.User] = Slot.FreeUser;
  }

  /**
   * A command begins (`epoch`: its number, see undo-journal.ts): the slots `allocate` takes from
   * now on are what `undoAllocations` gives back if it fails. Marks, not undo entries: the high
   * water mark and the free slots taken, in order (frees wait for the command's end, so nothing
   * goes back on the free list meanwhile).
   */
  markAllocations(epoch: number): void {
    this.commandEpoch = epoch;
    this.highMark = this.highWater;
    this.poppedCount = 0;
    // Absent in a store restored from a snapshot made before the marks existed.
    this.popped ??= [];
  }

  /**
   * Takes back every `allocate` since `markAllocations` (of a command that failed, after its undo
   * entries ran): the slots go back where they came from, so the next allocations get them again.
   */
  undoAllocations(): void {
    for (let slot = this.highWater - 1; slot >= this.highMark; slot--) {
      this.unown(slot);
      this.sides.dropLast(slot);
    }
    this.highWater = this.highMark;
    // A scratch slot first reserved in the failed command is given back with it.
    if (this.scratchSlot >= this.highWater) this.scratchSlot = -1;
    for (let i = this.poppedCount - 1; i >= 0; i--) {
      const slot = this.popped[i]!;
      this.unown(slot);
      this.freeSlots.push(slot);
    }
    this.poppedCount = 0;
  }

  /**
   * Clears what a record of `slot` made or kept in a failed command (its index entry, side cells,
   * odd texts, Money): the slot has no owner. The side cells are cleared whatever the record's
   * flags say (a rollback is rare; its records' flags were not all written by a finished command).
   */
  private unown(slot: number): void {
    this.bySeq.take(this.data[slot * Slot.Stride + Slot.Seq]!);
    this.disown(slot, true);
  }

  /** The current command's number (`markAllocations`): a new record is marked saved in it. */
  private commandEpoch = 0;
  /** `highWater` when the command began. */
  private highMark = 0;
  /** The free slots `allocate` took in this command, in order (`poppedCount` of them). */
  private popped: number[] = [];
  private poppedCount = 0;

  /** Filled notionals past 2^53 (an extremely long-lived order): exact, off the records. */
  protected bigNotional: Map<number, bigint> | undefined;

  protected grow(): void {
    const next = new Float64Array(this.data.length * 2);
    next.set(this.data);
    this.data = next;
  }
}
