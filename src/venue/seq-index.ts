// The index's constants as literals (a module constant costs V8 a load and a check at every use).
const enum K {
  /** A missing id (the order store's `NO_SLOT`). */
  NoSlot = -1,
  /** Ids per page: 1,024 cells of 4 bytes. */
  PageBits = 10,
  PageSize = 1024,
  PageMask = 1023,
  /** A page further than this past the last one goes to `others` (never for the venue's counters). */
  MaxPageJump = 65536,
}

/**
 * Engine id → slot as dense pages indexed by the id itself: cell `id & K.PageMask` of page
 * `id >> K.PageBits` holds slot + 1 (0: absent), positive ids in one page table, liquidation
 * ids (negative) by their magnitude in another.
 *
 * Why not a hash table (it was open addressing, like the book's `IdIndex`): the venue issues
 * engine ids in sequence (`IdGenerator`'s counters), so the id itself is a perfect index, a
 * lookup is two array reads with no probe and no key compare, and a take is one store. The
 * table's backward-shift deletion also scanned the whole run of occupied cells after the hole,
 * and consecutive ids fill consecutive cells: with a block of 200 k orders placed one after the
 * other and still resting, every take of one of them scanned up to 200 k cells (bench/README,
 * round 12). A page is dropped when its last id is taken (but the newest, which new ids fill);
 * memory is 4 KB per page with a live order in it.
 *
 * Ids no counter gives (0, fractions, past 2^31, far beyond the last page) are kept in a `Map`,
 * so the index answers for any number.
 */
export class SeqIndex {
  /** Pages of positive ids (`undefined`: none live), by `id >> K.PageBits`. */
  private readonly pos: (Int32Array | undefined)[] = [];
  /** Pages of negative ids, by `-id >> K.PageBits`. */
  private readonly neg: (Int32Array | undefined)[] = [];
  /** Live ids per page, parallel to `pos` / `neg`. */
  private readonly posLive: number[] = [];
  private readonly negLive: number[] = [];
  /** Ids outside the pages (see the class comment), made on first use. */
  private others: Map<number, number> | undefined;

  get(seq: number): number {
    if ((seq | 0) === seq && seq > 0) {
      const page = this.pos[seq >> K.PageBits];
      if (page !== undefined) {
        const cell = page[seq & K.PageMask]!;
        if (cell !== 0) return cell - 1;
      }
    } else if ((seq | 0) === seq && seq < 0) {
      const page = this.neg[-seq >> K.PageBits];
      if (page !== undefined) {
        const cell = page[-seq & K.PageMask]!;
        if (cell !== 0) return cell - 1;
      }
    }
    // Absent, or an id kept off the pages (its page may have been made since: still looked up here).
    return this.others === undefined ? K.NoSlot : (this.others.get(seq) ?? K.NoSlot);
  }

  add(seq: number, slot: number): void {
    if ((seq | 0) === seq && seq > 0 && this.addPaged(this.pos, this.posLive, seq, slot)) return;
    if ((seq | 0) === seq && seq < 0 && seq !== -2147483648 && this.addPaged(this.neg, this.negLive, -seq, slot)) return;
    (this.others ??= new Map()).set(seq, slot);
  }

  take(seq: number): void {
    if ((seq | 0) === seq && seq > 0 && this.takePaged(this.pos, this.posLive, seq)) return;
    if ((seq | 0) === seq && seq < 0 && seq !== -2147483648 && this.takePaged(this.neg, this.negLive, -seq)) return;
    this.others?.delete(seq);
  }

  /** Adds positive `key` to `pages`; false when its page is too far to make (the caller keeps it in `others`). */
  private addPaged(pages: (Int32Array | undefined)[], live: number[], key: number, slot: number): boolean {
    const p = key >> K.PageBits;
    let page = pages[p];
    if (page === undefined) {
      if (p > pages.length + K.MaxPageJump) return false;
      // Grow the page table one entry at a time (a dense array, never one with a far index).
      while (pages.length <= p) {
        pages.push(undefined);
        live.push(0);
      }
      pages[p] = page = new Int32Array(K.PageSize);
    }
    const c = key & K.PageMask;
    if (page[c] === 0) live[p]!++;
    page[c] = slot + 1;
    return true;
  }

  /** Takes positive `key` from `pages`; false when it has no page (it may be in `others`). */
  private takePaged(pages: (Int32Array | undefined)[], live: number[], key: number): boolean {
    const p = key >> K.PageBits;
    const page = pages[p];
    if (page === undefined) return false;
    const c = key & K.PageMask;
    if (page[c] === 0) return false;
    page[c] = 0;
    // A page whose ids all ended goes, unless it is the newest (the next ids land there).
    if (--live[p]! === 0 && p !== pages.length - 1) pages[p] = undefined;
    return true;
  }
}
