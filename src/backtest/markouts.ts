import type { SimClock } from '../clock/sim-clock.ts';
import type { TimeNs } from '../core/types.ts';
import type { Market } from '../venue/market.ts';

/** Horizons of the fill markouts, seconds after the fill. */
export const MARKOUT_HORIZONS_S = [1, 10, 60] as const;

const NS_PER_S = 1_000_000_000n;

/**
 * The mid (× 2, in ticks) of one market `MARKOUT_HORIZONS_S` after each fill, read without a
 * clock event per fill and horizon (a market maker's fills asked for ~7 k an hour).
 *
 * A read scheduled at the fill for `T = tFill + h` would run at T after the events already
 * scheduled for T (smaller insertion seqs) and before those scheduled after the fill (seqs from
 * the clock's `upcomingSeq` at the fill on, which the read would have taken: `holdPlace`). It
 * would see the book as the last change before it left it. So each pending read keeps (T, that seq), and the
 * touch is kept as of the latest book change; when the book changes in an event at (t, seq), the
 * reads ordered before that event (T < t, or T = t and their seq ≤ the event's) take the touch
 * from before the change, then the new touch is kept. The venue tells `bookChanged` after every
 * command that moved the book, inside the event that moved it, so no change goes unseen between
 * two notifications. Reads left at the end of the run (all at or before its end) take the last
 * touch.
 */
export class MarkoutReader {
  /** Pending reads per horizon, in the order they were asked (so in (T, seq) order). */
  private readonly pending: PendingReads[] = MARKOUT_HORIZONS_S.map(() => new PendingReads());
  /** Mid × 2 as of the latest book change (null: a side was empty); kept only while reads are pending. */
  private midX2: number | null = null;
  /** Reads not yet taken: with none, a book change costs nothing here (a do-nothing run's case). */
  private live = 0;
  /**
   * The earliest pending read's (T, seq) over the horizons (Infinity: none): a book change in
   * an event ordered before it takes no read, so it only keeps the new touch. Most book changes
   * of a market maker's run come while reads are pending and none is due.
   */
  private readonly due = new ReadTime();

  constructor(
    private readonly clock: SimClock,
    private readonly market: Market,
    private readonly endNs: TimeNs,
  ) {}

  /** A fill now: reads at each horizon (those after the end stay null) written into `into[k]`. */
  afterFill(into: (number | null)[]): void {
    // With no read pending, no read needs the touch kept so far; the book now is the latest
    // state (a change of this event not yet told is told before any of these reads can run).
    if (this.live === 0) this.midX2 = this.currentMidX2();
    const now = this.clock.nowNs;
    const seq = this.clock.holdPlace();
    for (let k = 0; k < MARKOUT_HORIZONS_S.length; k++) {
      const at = now + BigInt(MARKOUT_HORIZONS_S[k]!) * NS_PER_S;
      if (at > this.endNs) continue;
      const sec = Number(at / NS_PER_S);
      const nanos = Number(at % NS_PER_S);
      this.pending[k]!.add(sec, nanos, seq, into, k);
      this.due.lowerTo(sec, nanos, seq);
      this.live++;
    }
  }

  /** Whether reads are pending (`bookChanged` then needs the touch; with none it does nothing). */
  get hasPending(): boolean {
    return this.live > 0;
  }

  /**
   * The market's book changed in the event running now; its best bid and ask now (undefined:
   * empty), read by the caller (the recorder reads the touch once for this and the touch tracker)
   * and needed only while `hasPending`.
   */
  bookChanged(bid: number | undefined, ask: number | undefined): void {
    if (this.live === 0) return;
    const { nowSec, nowNanos, runningSeq } = this.clock;
    if (this.due.isBefore(nowSec, nowNanos, runningSeq)) {
      this.due.clear();
      for (const reads of this.pending) {
        this.live -= reads.takeBefore(nowSec, nowNanos, runningSeq, this.midX2);
        reads.lowerDue(this.due);
      }
    }
    this.midX2 = bid === undefined || ask === undefined ? null : bid + ask;
  }

  /** The run ended (every event up to its end ran): the reads left see the last touch. */
  finish(): void {
    for (const reads of this.pending) this.live -= reads.takeBefore(Infinity, 0, 0, this.midX2);
    this.due.clear();
  }

  private currentMidX2(): number | null {
    const book = this.market.book;
    const bid = book.bestBidTicks();
    const ask = book.bestAskTicks();
    return bid === undefined || ask === undefined ? null : bid + ask;
  }
}

/**
 * Whether a read at (s, n, q) runs before an event at (sec, nanos, seq): earlier in time, or at
 * the same instant with a seq at or below the event's (the read takes the touch as of just
 * before that event's seq would have run).
 */
function runsBefore(s: number, n: number, q: number, sec: number, nanos: number, seq: number): boolean {
  return s < sec || (s === sec && (n < nanos || (n === nanos && q <= seq)));
}

/** A read's place in the run: (T as sec and nanos, the seq it would have taken); Infinity for none. */
class ReadTime {
  sec = Infinity;
  nanos = 0;
  seq = 0;

  clear(): void {
    this.sec = Infinity;
  }

  /** Makes this the earlier of itself and (sec, nanos, seq). */
  lowerTo(sec: number, nanos: number, seq: number): void {
    if (sec < this.sec || (sec === this.sec && (nanos < this.nanos || (nanos === this.nanos && seq < this.seq)))) {
      this.sec = sec;
      this.nanos = nanos;
      this.seq = seq;
    }
  }

  /** Whether a read at this time runs before an event at (sec, nanos, seq) (`PendingReads.takeBefore`'s order). */
  isBefore(sec: number, nanos: number, seq: number): boolean {
    return runsBefore(this.sec, this.nanos, this.seq, sec, nanos, seq);
  }
}

/** A FIFO of reads at one horizon: their time, seq, and where each writes its value. */
class PendingReads {
  private readonly sec: number[] = [];
  private readonly nanos: number[] = [];
  private readonly seqs: number[] = [];
  private readonly into: (number | null)[][] = [];
  private readonly index: number[] = [];
  private head = 0;

  add(sec: number, nanos: number, seq: number, into: (number | null)[], k: number): void {
    this.sec.push(sec);
    this.nanos.push(nanos);
    this.seqs.push(seq);
    this.into.push(into);
    this.index.push(k);
  }

  /** Lowers `due` to this FIFO's first read, if any. */
  lowerDue(due: ReadTime): void {
    const h = this.head;
    if (h < this.sec.length) due.lowerTo(this.sec[h]!, this.nanos[h]!, this.seqs[h]!);
  }

  /** Writes `midX2` into every read that runs before an event at (sec, nanos, seq); returns how many. */
  takeBefore(sec: number, nanos: number, seq: number, midX2: number | null): number {
    let h = this.head;
    const n = this.sec.length;
    while (h < n) {
      if (!runsBefore(this.sec[h]!, this.nanos[h]!, this.seqs[h]!, sec, nanos, seq)) break;
      this.into[h]![this.index[h]!] = midX2;
      this.into[h] = EMPTY;
      h++;
    }
    const taken = h - this.head;
    this.head = h;
    if (h === n && h > 0) this.clear();
    return taken;
  }

  private clear(): void {
    this.sec.length = this.nanos.length = this.seqs.length = this.into.length = this.index.length = 0;
    this.head = 0;
  }
}

const EMPTY: (number | null)[] = [];
