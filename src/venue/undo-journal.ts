/**
 * The undo log of one venue command as flat arrays: each entry is an opcode, a run of numbers
 * in one growable `Float64Array` and a run of references (objects, bigints, texts) in one
 * array. Saving a change writes a few numbers and pointers; nothing is allocated per entry
 * once the arrays have grown to a command's size (closures and snapshot objects per change
 * were ~15 % of an order's cost and much of its garbage). What an opcode means and how it is
 * put back is undo.ts's business; this file only keeps the entries and hands them back,
 * newest first.
 *
 * It also numbers commands (`epoch`): a record or an account keeps the number of the last
 * command that saved it, next to its data (no separate table to miss in the cache), so it is
 * saved once per command however often the command changes it: the oldest save is the state
 * before the command, which is all a rollback needs.
 */
export class UndoJournal {
  private ops = new Int32Array(64);
  private numAt = new Int32Array(64);
  private refAt = new Int32Array(64);
  private count = 0;
  /** Numbers of the entries; an entry's run starts at `numAt[i]`. */
  nums = new Float64Array(1024);
  private n = 0;
  /** References of the entries; an entry's run starts at `refAt[i]`. */
  readonly refs: unknown[] = [];
  private r = 0;
  private epochNumber = 1;

  /** Starts the next command: no entries, nothing touched yet. */
  begin(): void {
    this.epochNumber++;
    this.clear();
  }

  /** Forgets every entry (the command applied, or was rolled back). */
  clear(): void {
    this.count = 0;
    this.n = 0;
    // Drop the references so a finished command keeps nothing alive.
    const refs = this.refs;
    for (let i = 0; i < this.r; i++) refs[i] = undefined;
    this.r = 0;
  }

  get length(): number {
    return this.count;
  }

  /**
   * Opens an entry of `op` with room for `numbers` numbers; returns where its numbers start
   * in `nums` (write them there). References follow with `ref`.
   */
  entry(op: number, numbers: number): number {
    if (this.count === this.ops.length) this.growEntries();
    const at = this.n;
    if (at + numbers > this.nums.length) this.growNums(at + numbers);
    this.ops[this.count] = op;
    this.numAt[this.count] = at;
    this.refAt[this.count] = this.r;
    this.count++;
    this.n = at + numbers;
    return at;
  }

  /** Makes room for `numbers` more numbers in the open entry; returns where they start. */
  extend(numbers: number): number {
    const at = this.n;
    if (at + numbers > this.nums.length) this.growNums(at + numbers);
    this.n = at + numbers;
    return at;
  }

  /** Appends a reference to the open entry. */
  ref(value: unknown): void {
    this.refs[this.r++] = value;
  }

  /** Calls `undo` on every entry, newest first (with `ctx`, what every entry may need), then forgets them. */
  rollBack<C>(undo: (op: number, nums: Float64Array, at: number, refs: unknown[], refAt: number, ctx: C) => void, ctx: C): void {
    try {
      for (let i = this.count - 1; i >= 0; i--) undo(this.ops[i]!, this.nums, this.numAt[i]!, this.refs, this.refAt[i]!, ctx);
    } finally {
      this.clear();
    }
  }

  /** The current command's number (first-touch marks equal to it mean "saved in this command"). */
  get epoch(): number {
    return this.epochNumber;
  }

  private growEntries(): void {
    const size = this.ops.length * 2;
    this.ops = grownInt(this.ops, size);
    this.numAt = grownInt(this.numAt, size);
    this.refAt = grownInt(this.refAt, size);
  }

  private growNums(atLeast: number): void {
    this.nums = grown(this.nums, atLeast);
  }
}

/** A copy of `a` at least `atLeast` long (doubling): the growth of every row array of the venue's commands. */
export function grown(a: Float64Array, atLeast: number): Float64Array<ArrayBuffer> {
  let size = a.length * 2;
  while (size < atLeast) size *= 2;
  const next = new Float64Array(size);
  next.set(a);
  return next;
}

function grownInt(a: Int32Array, size: number): Int32Array<ArrayBuffer> {
  const next = new Int32Array(size);
  next.set(a);
  return next;
}
