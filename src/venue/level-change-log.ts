/**
 * The price levels recorded (external) liquidity changed in one market's book, so a LEVEL_2
 * capture can be the last capture with just those levels re-read (`lazy-book-levels.ts`)
 * instead of a copy of every level: a replayed Binance book holds ~7,000 levels and a
 * recorded diff changes a few dozen.
 *
 * A reader may trust the log between two of its captures only when every book change in
 * between was external: it counts the venue's `bookChanged` announcements against
 * `announced` (external changes announce one each), and checks the book's `orderCount`, which
 * also catches a change no one announced (an account order placed or removed in silence).
 * Recorded quantity is not an order, so `orderCount` moves only with account orders: an
 * external change leaves it alone unless it trades account orders away (inside `begin` …
 * `finish`, so the count `finish` keeps is the one after it). Keys
 * are kept in a ring; a reader whose window was overwritten, or that spans a reset (every
 * level changed: `forget`), captures in full.
 */
export class LevelChangeLog {
  private static readonly SIZE = 1 << 14;
  /** Level keys (price for bids, −price for asks), by position modulo SIZE. */
  private readonly keys = new Float64Array(LevelChangeLog.SIZE);
  /** Keys ever added: the next key's position. */
  end = 0;
  /** Positions before this are unknown (a reset, or a change made by someone else). */
  private start = 0;
  /** Book changes external liquidity announced (`afterBookChange`) in this market. */
  announced = 0;
  /** The book's order count after the latest external change. */
  orderCount = 0;

  /** Before an external change: a book that changed since the last one (someone else did it) makes the log unknown. */
  begin(bookOrderCount: number): void {
    if (bookOrderCount !== this.orderCount) this.forget();
  }

  /** A level whose total may have changed. */
  add(key: number): void {
    this.keys[this.end++ & (LevelChangeLog.SIZE - 1)] = key;
  }

  /**
   * Every level may have changed (a reset): every reader's window, even an empty one ending
   * here, becomes unknown (the end moves past a position no key fills).
   */
  forget(): void {
    this.start = ++this.end;
  }

  /** After an external change, just before it is announced. */
  finish(bookOrderCount: number): void {
    this.announced++;
    this.orderCount = bookOrderCount;
  }

  /** Whether the keys from position `from` on are all still here. */
  knownSince(from: number): boolean {
    return from >= this.start && this.end - from <= LevelChangeLog.SIZE;
  }

  /** The key at position `at` (`knownSince(at)` must hold). */
  keyAt(at: number): number {
    return this.keys[at & (LevelChangeLog.SIZE - 1)]!;
  }
}
