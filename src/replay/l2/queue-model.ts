/**
 * Queue-position models for an order resting in a recorded (L2) level, after hftbacktest's
 * `RiskAdverseQueueModel` and `ProbQueueModel`. An L2 recording shows how much rests at a
 * price, never where in the queue quantity was added or canceled, so the lots ahead of an own
 * order (`ahead`) are an estimate. Quantities are lots (the prob model's estimate is
 * fractional); only whole lots are ever filled.
 */

/** What a model tracks per order. */
export interface QueueState {
  /** Recorded lots estimated ahead of the order (≥ 0 between events). */
  ahead: number;
  /** Lots traded at the level since its last recorded change (those shrink the level too). */
  tradedSinceChange: number;
}

export interface QueueModel {
  readonly name: string;
  /** A recorded trade of `lots` printed at the order's price. */
  trade(q: QueueState, lots: number): void;
  /** The recorded level at the order's price went from `prevLots` to `newLots`. */
  levelChanged(q: QueueState, prevLots: number, newLots: number): void;
}

/** Whole lots of the order the queue has reached (ahead < 0), and reset it to the front. */
export function takeFillable(q: QueueState): number {
  if (q.ahead >= 0) return 0;
  const lots = Math.floor(-q.ahead + 1e-9);
  q.ahead = 0;
  return lots;
}

/**
 * Risk-averse: only trades advance the order; a level that shrinks below the estimate caps it
 * (what is not displayed cannot be ahead), but cancels are never assumed to be ahead.
 */
export class RiskAverseQueueModel implements QueueModel {
  readonly name = 'risk-averse';

  trade(q: QueueState, lots: number): void {
    q.ahead -= lots;
  }

  levelChanged(q: QueueState, _prevLots: number, newLots: number): void {
    q.ahead = Math.min(q.ahead, newLots);
    q.tradedSinceChange = 0;
  }
}

/** f of the probabilistic model: weight of a queue part of size x. */
export type QueueWeight = (x: number) => number;

/** hftbacktest's PowerProbQueueFunc: f(x) = x^n. */
export const powerWeight = (n: number): QueueWeight => (x) => x ** n;
/** hftbacktest's LogProbQueueFunc: f(x) = ln(1 + x). */
export const logWeight: QueueWeight = (x) => Math.log1p(x);

/**
 * Probabilistic: a decrease of the level that trades do not explain is a cancel, attributed to
 * the part ahead of the order with probability f(ahead) / (f(ahead) + f(behind)); increases
 * join behind. So an order near the back advances little on cancels, one near the front much.
 */
export class ProbQueueModel implements QueueModel {
  constructor(
    readonly name: string,
    private readonly f: QueueWeight,
  ) {}

  trade(q: QueueState, lots: number): void {
    q.ahead -= lots;
    q.tradedSinceChange += lots;
  }

  levelChanged(q: QueueState, prevLots: number, newLots: number): void {
    // Trades already moved the order: take their share out of the decrease.
    const change = prevLots - newLots - q.tradedSinceChange;
    q.tradedSinceChange = 0;
    if (change <= 0) {
      q.ahead = Math.min(q.ahead, newLots);
      return;
    }
    const front = Math.max(q.ahead, 0);
    const back = Math.max(prevLots - front, 0);
    const fFront = this.f(front);
    const fBack = this.f(back);
    const toFront = fFront + fBack > 0 ? fFront / (fFront + fBack) : 1;
    // As hftbacktest: what the back cannot absorb comes off the front as well.
    const estimate = front - toFront * change + Math.min(back - (1 - toFront) * change, 0);
    q.ahead = Math.max(0, Math.min(estimate, newLots));
  }
}

/** The queue models a scenario can name. */
export type QueueModelSpec = 'risk-averse' | 'prob' | { kind: 'prob'; weight: 'power'; n: number } | { kind: 'prob'; weight: 'log' };

/** The model a spec names; `prob` alone is the power model with n = 2 (hftbacktest's common choice). */
export function queueModelOf(spec: QueueModelSpec): QueueModel {
  if (spec === 'risk-averse') return new RiskAverseQueueModel();
  if (spec === 'prob') return new ProbQueueModel('prob-power-2', powerWeight(2));
  if (spec.weight === 'log') return new ProbQueueModel('prob-log', logWeight);
  return new ProbQueueModel(`prob-power-${spec.n}`, powerWeight(spec.n));
}
