/** A free cell of the table (the order store's `NO_SLOT`). */
const NO_SLOT = -1;

/** Engine id → slot: open addressing over one Float64Array (see src/book/id-index.ts for why). */
export class SeqIndex {
  private bits = 10;
  private mask = 1023;
  private table = new Float64Array(2048).fill(NO_SLOT);
  private used = 0;

  get(seq: number): number {
    const t = this.table;
    for (let i = hashOf(seq, this.mask); ; i = (i + 1) & this.mask) {
      const slot = t[2 * i + 1]!;
      if (slot === NO_SLOT || t[2 * i] === seq) return slot | 0;
    }
  }

  add(seq: number, slot: number): void {
    if (2 * (this.used + 1) > this.mask + 1) this.resize(this.bits + 1);
    insert(this.table, this.mask, seq, slot);
    this.used++;
  }

  take(seq: number): void {
    const t = this.table;
    const mask = this.mask;
    let hole = hashOf(seq, mask);
    for (;;) {
      if (t[2 * hole + 1] === NO_SLOT) return;
      if (t[2 * hole] === seq) break;
      hole = (hole + 1) & mask;
    }
    // Backward shift deletion: no tombstones under churn.
    for (let j = (hole + 1) & mask; t[2 * j + 1] !== NO_SLOT; j = (j + 1) & mask) {
      const key = t[2 * j]!;
      if (((j - hashOf(key, mask)) & mask) >= ((j - hole) & mask)) {
        t[2 * hole] = key;
        t[2 * hole + 1] = t[2 * j + 1]!;
        hole = j;
      }
    }
    t[2 * hole + 1] = NO_SLOT;
    this.used--;
  }

  private resize(bits: number): void {
    const old = this.table;
    this.bits = bits;
    this.mask = (1 << bits) - 1;
    this.table = new Float64Array(2 << bits).fill(NO_SLOT);
    for (let j = 1; j < old.length; j += 2) if (old[j] !== NO_SLOT) insert(this.table, this.mask, old[j - 1]!, old[j]!);
  }
}

function insert(t: Float64Array, mask: number, seq: number, slot: number): void {
  let i = hashOf(seq, mask);
  while (t[2 * i + 1] !== NO_SLOT) i = (i + 1) & mask;
  t[2 * i] = seq;
  t[2 * i + 1] = slot;
}

/** Engine ids are consecutive counters (negative for liquidations): their low bits spread well. */
function hashOf(seq: number, mask: number): number {
  return (seq | 0) & mask;
}
