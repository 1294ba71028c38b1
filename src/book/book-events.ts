/**
 * The book's events as records in one flat array with a cursor: the hot-path form of
 * `BookEvent` values.
 *
 * Why not an array of event objects: a consumer that handles a command's events and then
 * empties the array with `out.length = 0` pays a runtime call (~60–80 ns) and, when the array
 * held more than one event, drops its backing store, so the next command allocates another;
 * the event objects themselves are garbage a moment later. Here `clear()` resets the cursor,
 * the records are overwritten in place, and nothing is allocated once the buffer has grown to
 * the largest command's output. Each record is still a value: `at(i)` / `toArray()` copy one
 * out as a `BookEvent` (what the book's `place` / `cancel` / `reduce` return), and the typed
 * accessors read a field without copying. A record stays valid until `clear()`.
 *
 * Numbers are kept in a plain number array (small integers, untagged; see `OrderSlots`).
 */
import type { Side } from '../core/types.ts';
import type { BookCancelReason, BookEvent } from './events.ts';
import { growNumbers, zeros } from './order-slots.ts';

/** Event kinds, as stored in a record (`BookEvents.kind(i)`). */
export const EV_RESTED = 0;
export const EV_TRADE = 1;
export const EV_EXPIRED = 2;
export const EV_REJECTED = 3;
export const EV_CANCELED = 4;
export const EV_REDUCED = 5;
export const EV_CANCEL_REJECTED = 6;

/**
 * `EV_*` as literals for this file (a module-level constant costs a load and a check at every
 * use in V8's optimized code; see `Rec` in `book-core.ts`). `test/book/layout.test.ts` checks
 * they agree.
 */
export const enum Ev {
  Rested = 0,
  Trade = 1,
  Expired = 2,
  Rejected = 3,
  Canceled = 4,
  Reduced = 5,
  CancelRejected = 6,
}

/** Record fields. ORDER is the order of every kind but a trade, where it is the maker. */
const enum F {
  Kind = 0,
  Order = 1,
  Owner = 2,
  Taker = 3,
  TakerOwner = 4,
  /** Side (0 buy, 1 sell) of a rested order or a trade's taker; the reason code of a cancel. */
  Code = 5,
  Price = 6,
  /** qtyLots of rested / trade / expired / canceled; byLots of reduced. */
  Qty = 7,
  /** makerRemainingLots of a trade; remainingLots of reduced. */
  Left = 8,
  TakerLeft = 9,
  /** Numbers a record. */
  Stride = 10,
}

const SIDES: readonly Side[] = ['B', 'S'];
const CANCEL_REASONS: readonly BookCancelReason[] = ['REQUESTED', 'SELF_TRADE'];
/** Codes of `BookCancelReason`s in a canceled record. */
export const CANCEL_REQUESTED = 0;
export const CANCEL_SELF_TRADE = 1;

/** A reusable buffer of book events, appended to by the book and read by the consumer. */
export class BookEvents {
  /** Number of events held. */
  length = 0;
  private data = zeros(16 * F.Stride);

  /** Forgets every event; the records are reused by the next command. */
  clear(): void {
    this.length = 0;
  }

  kind(i: number): number {
    return this.data[i * F.Stride + F.Kind]!;
  }
  /** The order of any event but a trade. */
  orderId(i: number): number {
    return this.data[i * F.Stride + F.Order]!;
  }
  makerId(i: number): number {
    return this.data[i * F.Stride + F.Order]!;
  }
  makerOwnerId(i: number): number {
    return this.data[i * F.Stride + F.Owner]!;
  }
  takerId(i: number): number {
    return this.data[i * F.Stride + F.Taker]!;
  }
  takerOwnerId(i: number): number {
    return this.data[i * F.Stride + F.TakerOwner]!;
  }
  /** The rested order's side, or a trade's taker side. */
  side(i: number): Side {
    return SIDES[this.data[i * F.Stride + F.Code]!]!;
  }
  priceTicks(i: number): number {
    return this.data[i * F.Stride + F.Price]!;
  }
  /** Lots rested, traded, expired or canceled; lots taken off by a reduce. */
  qtyLots(i: number): number {
    return this.data[i * F.Stride + F.Qty]!;
  }
  makerRemainingLots(i: number): number {
    return this.data[i * F.Stride + F.Left]!;
  }
  takerRemainingLots(i: number): number {
    return this.data[i * F.Stride + F.TakerLeft]!;
  }
  /** What is left of a reduced order. */
  remainingLots(i: number): number {
    return this.data[i * F.Stride + F.Left]!;
  }
  cancelReason(i: number): BookCancelReason {
    return CANCEL_REASONS[this.data[i * F.Stride + F.Code]!]!;
  }

  /** Event `i` as a value. */
  at(i: number): BookEvent {
    if (i < 0 || i >= this.length) throw new RangeError(`no event ${i} of ${this.length}`);
    switch (this.kind(i)) {
      case Ev.Rested:
        return { kind: 'rested', orderId: this.orderId(i), side: this.side(i), priceTicks: this.priceTicks(i), qtyLots: this.qtyLots(i) };
      case Ev.Trade:
        return {
          kind: 'trade',
          makerId: this.makerId(i),
          makerOwnerId: this.makerOwnerId(i),
          takerId: this.takerId(i),
          takerOwnerId: this.takerOwnerId(i),
          takerSide: this.side(i),
          priceTicks: this.priceTicks(i),
          qtyLots: this.qtyLots(i),
          makerRemainingLots: this.makerRemainingLots(i),
          takerRemainingLots: this.takerRemainingLots(i),
        };
      case Ev.Expired:
        return { kind: 'expired', orderId: this.orderId(i), qtyLots: this.qtyLots(i) };
      case Ev.Rejected:
        return { kind: 'rejected', orderId: this.orderId(i), reason: 'POST_ONLY_WOULD_CROSS' };
      case Ev.Canceled:
        return { kind: 'canceled', orderId: this.orderId(i), qtyLots: this.qtyLots(i), reason: this.cancelReason(i) };
      case Ev.Reduced:
        return { kind: 'reduced', orderId: this.orderId(i), byLots: this.qtyLots(i), remainingLots: this.remainingLots(i) };
      default:
        return { kind: 'cancel-rejected', orderId: this.orderId(i), reason: 'UNKNOWN_ORDER' };
    }
  }

  /** Appends every event, as values, to `out`. */
  appendTo(out: BookEvent[]): BookEvent[] {
    for (let i = 0; i < this.length; i++) out.push(this.at(i));
    return out;
  }

  /** Every event as values. */
  toArray(): BookEvent[] {
    return this.appendTo([]);
  }

  // --- appending (the book) ----------------------------------------------------------------
  // Callers pass small integers where they have them (the book's own arrays hold them; command
  // fields go through `smi` once), so the array stays one of small integers.

  /**
   * Starts a record of `kind` about `orderId`; returns its offset. The appends the book makes on
   * every command (rested, trade, canceled, cancel-rejected, expired) write this out instead of
   * calling it: they are inlined into the book's commands, which are too large for V8 to inline
   * a call one level further, and the call cost ~40 instructions an event (callgrind).
   */
  private open(kind: number, orderId: number): number {
    const at = this.length * F.Stride;
    if (at + F.Stride > this.data.length) growNumbers(this.data, this.data.length * 2);
    this.length++;
    const d = this.data;
    d[at + F.Kind] = kind;
    d[at + F.Order] = orderId;
    return at;
  }

  rested(orderId: number, sideCode: number, priceTicks: number, qtyLots: number): void {
    const at = this.length * F.Stride;
    if (at + F.Stride > this.data.length) growNumbers(this.data, this.data.length * 2);
    this.length++;
    const d = this.data;
    d[at + F.Kind] = Ev.Rested;
    d[at + F.Order] = orderId;
    d[at + F.Code] = sideCode;
    d[at + F.Price] = priceTicks;
    d[at + F.Qty] = qtyLots;
  }

  trade(
    makerId: number,
    makerOwnerId: number,
    takerId: number,
    takerOwnerId: number,
    takerSideCode: number,
    priceTicks: number,
    qtyLots: number,
    makerRemainingLots: number,
    takerRemainingLots: number,
  ): void {
    const at = this.length * F.Stride;
    if (at + F.Stride > this.data.length) growNumbers(this.data, this.data.length * 2);
    this.length++;
    const d = this.data;
    d[at + F.Kind] = Ev.Trade;
    d[at + F.Order] = makerId;
    d[at + F.Owner] = makerOwnerId;
    d[at + F.Taker] = takerId;
    d[at + F.TakerOwner] = takerOwnerId;
    d[at + F.Code] = takerSideCode;
    d[at + F.Price] = priceTicks;
    d[at + F.Qty] = qtyLots;
    d[at + F.Left] = makerRemainingLots;
    d[at + F.TakerLeft] = takerRemainingLots;
  }

  expired(orderId: number, qtyLots: number): void {
    const at = this.length * F.Stride;
    if (at + F.Stride > this.data.length) growNumbers(this.data, this.data.length * 2);
    this.length++;
    const d = this.data;
    d[at + F.Kind] = Ev.Expired;
    d[at + F.Order] = orderId;
    d[at + F.Qty] = qtyLots;
  }

  rejected(orderId: number): void {
    this.open(Ev.Rejected, orderId);
  }

  canceled(orderId: number, qtyLots: number, reasonCode: number): void {
    const at = this.length * F.Stride;
    if (at + F.Stride > this.data.length) growNumbers(this.data, this.data.length * 2);
    this.length++;
    const d = this.data;
    d[at + F.Kind] = Ev.Canceled;
    d[at + F.Order] = orderId;
    d[at + F.Qty] = qtyLots;
    d[at + F.Code] = reasonCode;
  }

  reduced(orderId: number, byLots: number, remainingLots: number): void {
    const at = this.open(Ev.Reduced, orderId);
    this.data[at + F.Qty] = byLots;
    this.data[at + F.Left] = remainingLots;
  }

  cancelRejected(orderId: number): void {
    const at = this.length * F.Stride;
    if (at + F.Stride > this.data.length) growNumbers(this.data, this.data.length * 2);
    this.length++;
    const d = this.data;
    d[at + F.Kind] = Ev.CancelRejected;
    d[at + F.Order] = orderId;
  }
}

/** Code of a side in a record. */
export function sideCode(side: Side): number {
  return side === 'B' ? 0 : 1;
}
