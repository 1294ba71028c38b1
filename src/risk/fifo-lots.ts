/**
 * A position's open lots, oldest first, for FIFO matching (`Position`): (price, size) pairs of
 * `pairs` from pair `head` up to pair `len`, the oldest less the `headUsedLots` closed of it.
 *
 * One array for the position's life; its layout is no state of the position (see `list`). While
 * a save of the running command holds the storage (`pinFor`), lots are only appended: closing
 * part of the oldest lot counts `headUsedLots` instead of rewriting its size and going flat moves
 * `head` past every lot, so the saved (head, headUsedLots, len) still describes the lots before
 * the command. Once free (the next command's save, or no save at all) the closed lots are
 * reclaimed in place (`reclaim`): no array per flat position (each used to start two new arrays,
 * ~14 MB of garbage per `venue.mix` pass). A plain array, not a typed one: it grows in the heap
 * as lots are appended (a typed array's growth is a new buffer, off the heap past 64 bytes, whose
 * external memory set off extra scavenges).
 */
export class FifoLots {
  private readonly pairs: number[] = [];
  len = 0;
  head = 0;
  headUsedLots = 0;
  /** The undo journal of the last `pinFor` and its command number then: the storage is pinned while they match. */
  private pin: { readonly epoch: number } | undefined = undefined;
  private pinEpoch = 0;

  /** Entry price of the oldest open lot (some lot is open). */
  headPrice(): number {
    return this.pairs[2 * this.head]!;
  }

  /** Closes up to `lots` of the oldest open lot (some lot is open); returns the lots closed. */
  closeHead(lots: number): number {
    const lotSize = this.pairs[2 * this.head + 1]! - this.headUsedLots;
    const closed = Math.min(lotSize, lots);
    if (closed === lotSize) {
      this.head++;
      this.headUsedLots = 0;
    } else {
      this.headUsedLots += closed;
    }
    return closed;
  }

  /** Appends a lot of `lots` at `priceTicks` (written at or below the array's end: appended, or over a reclaimed pair). */
  append(priceTicks: number, lots: number): void {
    this.pairs[2 * this.len] = priceTicks;
    this.pairs[2 * this.len + 1] = lots;
    this.len++;
  }

  /** Flat: no open lot (`head` past every lot; the storage rewound when free). */
  clear(): void {
    this.head = this.len;
    this.headUsedLots = 0;
    this.reclaim();
  }

  /**
   * Moves the open lots to the front of the storage, in place, when at least half of the pairs
   * it holds are closed (so the copy is paid for by the closed lots) and no save holds it.
   */
  reclaim(): void {
    const head = this.head;
    if (head === 0 || 2 * head < this.len || !this.free()) return;
    const pairs = this.pairs;
    for (let i = 2 * head, o = 0; i < 2 * this.len; i++, o++) pairs[o] = pairs[i]!;
    this.len -= head;
    this.head = 0;
  }

  /** Pins the storage for the command of `pin.epoch` (a save of the position holds it). */
  pinFor(pin: { readonly epoch: number }): void {
    // The venue's journal is the same object command after command: no pointer store (and its
    // write barrier) per save.
    if (this.pin !== pin) this.pin = pin;
    this.pinEpoch = pin.epoch;
  }

  /** True when no save of the running command holds the storage (it may be rewritten). */
  private free(): boolean {
    return this.pin === undefined || this.pin.epoch !== this.pinEpoch;
  }

  /** Number of open lots. */
  get count(): number {
    return this.len - this.head;
  }

  /** The open lots, oldest first, as [priceTicks, lots] (the oldest less what was closed of it). */
  list(): [number, number][] {
    const out: [number, number][] = [];
    for (let i = this.head; i < this.len; i++) out.push([this.pairs[2 * i]!, this.pairs[2 * i + 1]! - (i === this.head ? this.headUsedLots : 0)]);
    return out;
  }
}
