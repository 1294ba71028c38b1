import { checkStep, requirePositive, type IndexProcess } from './index-process.ts';

/** One recorded index observation. */
export interface IndexPoint {
  /** Time, ns since the Unix epoch. */
  tNs: bigint;
  /** Index level, price units (> 0). */
  price: number;
}

/**
 * A recorded index series replayed step by step: after each step the level is the price of the
 * latest point at or before the process's time (step interpolation, no look-ahead); before the
 * first point it is the first point's price. Time starts at `startNs` and advances by each
 * `dtSec`, rounded to whole nanoseconds.
 */
export class RecordedIndex implements IndexProcess {
  private readonly points: readonly IndexPoint[];
  private nowNs: bigint;
  private cursor = -1;

  constructor(points: readonly IndexPoint[], startNs: bigint) {
    if (points.length === 0) throw new RangeError('a recorded index needs at least one point');
    points.forEach((p, i) => {
      requirePositive(`points[${i}].price`, p.price);
      if (i > 0 && p.tNs < points[i - 1]!.tNs) throw new RangeError(`points[${i}] is earlier than points[${i - 1}]: points must be in time order`);
    });
    this.points = points;
    this.nowNs = startNs;
    this.advanceCursor();
  }

  get level(): number {
    return this.points[Math.max(0, this.cursor)]!.price;
  }

  /** The process's current time, ns since the epoch. */
  get timeNs(): bigint {
    return this.nowNs;
  }

  next(dtSec: number): number {
    checkStep(dtSec);
    this.nowNs += BigInt(Math.round(dtSec * 1e9));
    this.advanceCursor();
    return this.level;
  }

  private advanceCursor(): void {
    const pts = this.points;
    while (this.cursor + 1 < pts.length && pts[this.cursor + 1]!.tNs <= this.nowNs) this.cursor++;
  }
}
