import { compareFractions, reduceFraction } from './rational.ts';
import type { BigRational } from './rational.ts';

/**
 * Funding (decisions.md, "Mark price, funding, settlement"): schedule, the time-weighted mark
 * price over a funding interval (the settlement price) and the funding record in exact rationals.
 */

/**
 * When funding happens: at every Unix second `t` with `(t - offsetSec) mod intervalSec == 0`.
 * `intervalSec` is a positive integer; `offsetSec` any integer (only its value modulo
 * `intervalSec` matters).
 */
export interface FundingSchedule {
  readonly intervalSec: number;
  readonly offsetSec: number;
}

/** The default: every 8 h at 00:00, 08:00 and 16:00 UTC. */
export const DEFAULT_FUNDING_SCHEDULE: FundingSchedule = Object.freeze({ intervalSec: 28800, offsetSec: 0 });

/** The default funding rate cap, ± 2 % per interval, as an exact fraction. */
export const DEFAULT_FUNDING_CAP_RATE: BigRational = Object.freeze({ num: 2n, den: 100n });

/** Funding every hour, at `offsetSec` (default 0: on the hour) past each hour, UTC. */
export function hourlySchedule(offsetSec = 0): FundingSchedule {
  return checkSchedule({ intervalSec: 3600, offsetSec });
}

/** Funding once a day at `offsetSec` seconds after 00:00 UTC (default 0: midnight UTC). */
export function dailySchedule(offsetSec = 0): FundingSchedule {
  return checkSchedule({ intervalSec: 86400, offsetSec });
}

/**
 * The first funding time strictly after `afterSec`, Unix seconds. At a funding time itself the
 * answer is the next one: with the default schedule, 08:00:00 → 16:00:00, 07:59:59 → 08:00:00.
 *
 * @throws RangeError when `afterSec` is not a safe integer, the schedule is invalid
 *   (`intervalSec` not a positive safe integer, `offsetSec` not a safe integer) or the result
 *   would not be a safe integer.
 */
export function nextFundingSec(afterSec: number, schedule: FundingSchedule = DEFAULT_FUNDING_SCHEDULE): number {
  if (!Number.isSafeInteger(afterSec)) throw new RangeError(`nextFundingSec: afterSec ${afterSec} is not a safe integer`);
  const { intervalSec, offsetSec } = checkSchedule(schedule);
  const k = Math.floor((afterSec - offsetSec) / intervalSec) + 1;
  const next = offsetSec + k * intervalSec;
  if (!Number.isSafeInteger(next)) throw new RangeError('nextFundingSec: result is not a safe integer');
  return next;
}

function checkSchedule(schedule: FundingSchedule): FundingSchedule {
  if (!Number.isSafeInteger(schedule.intervalSec) || schedule.intervalSec <= 0) {
    throw new RangeError(`funding intervalSec ${schedule.intervalSec} must be a positive safe integer`);
  }
  if (!Number.isSafeInteger(schedule.offsetSec)) {
    throw new RangeError(`funding offsetSec ${schedule.offsetSec} must be a safe integer`);
  }
  return schedule;
}

const NANOS_PER_SECOND = 1_000_000_000n;

/** Exact instant as bigint nanoseconds; validates `sec` (safe integer) and `nanos` (0 … 999 999 999). */
function toNs(what: string, sec: number, nanos: number): bigint {
  if (!Number.isSafeInteger(sec)) throw new RangeError(`${what}: sec ${sec} is not a safe integer`);
  if (!Number.isInteger(nanos) || nanos < 0 || nanos >= 1e9) {
    throw new RangeError(`${what}: nanos ${nanos} must be an integer in [0, 1e9)`);
  }
  return BigInt(sec) * NANOS_PER_SECOND + BigInt(nanos);
}

/** An exact time-weighted average price: `numTicks / den` ticks with `den > 0n`, in lowest terms. */
export interface TimeWeightedAverage {
  numTicks: bigint;
  den: bigint;
}

/**
 * Time-weighted average of a step function of price (the mark price, in integer ticks) over a
 * window, with exact nanosecond weights and bigint arithmetic: no rounding at all.
 *
 * `reset` starts a window at an instant with a price; each `update` changes the price from that
 * instant on. `average(t)` is `Σ priceTicks × duration_ns / total_ns` over `[start, t]`.
 * Instants are `(sec, nanos)` pairs (the websocket's `ts` / `tn`). Time never goes back across
 * `reset` and `update`; `average` only reads and may be called at any instant not before the
 * latest `reset`/`update`.
 */
export class TimeWeightedPrice {
  private startNs: bigint | undefined;
  private lastNs = 0n;
  private priceTicks = 0;
  /** Σ price × ns over `[startNs, lastNs)`. */
  private weightedSum = 0n;

  /** The price in force now, or undefined before the first `reset`. */
  get currentPriceTicks(): number | undefined {
    return this.startNs === undefined ? undefined : this.priceTicks;
  }

  /**
   * Starts a new window at `(atSec, atNanos)` with `priceTicks`, discarding the old one.
   * @throws RangeError on invalid arguments or when the instant is before the latest reset/update.
   */
  reset(atSec: number, atNanos: number, priceTicks: number): void {
    const at = this.checkedInstant('reset', atSec, atNanos);
    checkPrice('reset', priceTicks);
    this.startNs = at;
    this.lastNs = at;
    this.priceTicks = priceTicks;
    this.weightedSum = 0n;
  }

  /**
   * The price becomes `priceTicks` at `(atSec, atNanos)`. Several updates at one instant are fine:
   * only the last one carries weight.
   * @throws Error before the first `reset`; RangeError on invalid arguments or when the instant
   *   is before the latest reset/update.
   */
  update(atSec: number, atNanos: number, priceTicks: number): void {
    const at = this.checkedInstant('update', atSec, atNanos);
    checkPrice('update', priceTicks);
    if (this.startNs === undefined) throw new Error('TimeWeightedPrice.update before reset');
    this.weightedSum += BigInt(this.priceTicks) * (at - this.lastNs);
    this.lastNs = at;
    this.priceTicks = priceTicks;
  }

  /**
   * The exact average over `[start, (atSec, atNanos)]` in lowest terms, e.g. 100 for 2 s then
   * 110 for 1 s → `{ numTicks: 310n, den: 3n }`. When no time has passed since the reset it is
   * the current price with `den` 1n.
   * @throws Error before the first `reset`; RangeError on invalid arguments or when the instant
   *   is before the latest reset/update.
   */
  average(atSec: number, atNanos: number): TimeWeightedAverage {
    const at = this.checkedInstant('average', atSec, atNanos);
    if (this.startNs === undefined) throw new Error('TimeWeightedPrice.average before reset');
    const total = at - this.startNs;
    if (total === 0n) return { numTicks: BigInt(this.priceTicks), den: 1n };
    const sum = this.weightedSum + BigInt(this.priceTicks) * (at - this.lastNs);
    const { num, den } = reduceFraction(sum, total);
    return { numTicks: num, den };
  }

  private checkedInstant(what: string, sec: number, nanos: number): bigint {
    const at = toNs(`TimeWeightedPrice.${what}`, sec, nanos);
    if (this.startNs !== undefined && at < this.lastNs) {
      throw new RangeError(`TimeWeightedPrice.${what}: time went back`);
    }
    return at;
  }
}

function checkPrice(what: string, priceTicks: number): void {
  if (!Number.isSafeInteger(priceTicks)) {
    throw new RangeError(`TimeWeightedPrice.${what}: priceTicks ${priceTicks} is not a safe integer`);
  }
}

/**
 * A funding record in exact rationals, all fractions in lowest terms with positive denominators.
 * `amount` is per contract in price ticks; `rate` is dimensionless (0.01 = 1 %).
 */
export interface FundingResult {
  amountNum: bigint;
  amountDen: bigint;
  rateNum: bigint;
  rateDen: bigint;
  /** True when the raw rate was strictly beyond ± cap and was clamped (exactly at the cap: false). */
  clamped: boolean;
}

/**
 * The funding of one interval (decisions.md):
 * `amount = settlement − benchmark` (per contract, ticks), `rate = amount / benchmark`, clamped
 * to `[-cap, +cap]`; when clamped, `amount = rate × benchmark`, so `amount = rate × benchmark`
 * always holds.
 *
 * Sign convention: a positive amount means longs pay shorts `amount × qty × multiplier`
 * (converted from ticks to money by the venue); a negative amount means shorts pay longs.
 *
 * @param benchmarkTicks Index price at the funding time, a positive safe integer (ticks).
 * @param settlementNum Numerator of the settlement price (time-weighted mark), ticks.
 * @param settlementDen Positive denominator of the settlement price.
 * @param capRate Non-negative cap on `|rate|` as `num / den` with `den > 0n`, e.g.
 *   {@link DEFAULT_FUNDING_CAP_RATE}. A zero cap forces rate and amount to 0.
 * @throws RangeError on a non-positive benchmark or denominator, or a negative cap.
 */
export function computeFunding(
  benchmarkTicks: number,
  settlementNum: bigint,
  settlementDen: bigint,
  capRate: BigRational,
): FundingResult {
  if (!Number.isSafeInteger(benchmarkTicks) || benchmarkTicks <= 0) {
    throw new RangeError(`computeFunding: benchmarkTicks ${benchmarkTicks} must be a positive safe integer`);
  }
  if (settlementDen <= 0n) throw new RangeError('computeFunding: settlementDen must be positive');
  if (capRate.den <= 0n) throw new RangeError('computeFunding: capRate.den must be positive');
  if (capRate.num < 0n) throw new RangeError('computeFunding: capRate must not be negative');
  const b = BigInt(benchmarkTicks);
  const diff = settlementNum - b * settlementDen; // amount = diff / settlementDen
  const rawRateDen = settlementDen * b; // rate = diff / (settlementDen × b)
  let rate: BigRational;
  let amount: BigRational;
  let clamped = false;
  if (compareFractions(diff, rawRateDen, capRate.num, capRate.den) > 0) {
    rate = reduceFraction(capRate.num, capRate.den);
    clamped = true;
  } else if (compareFractions(diff, rawRateDen, -capRate.num, capRate.den) < 0) {
    rate = reduceFraction(-capRate.num, capRate.den);
    clamped = true;
  } else {
    rate = reduceFraction(diff, rawRateDen);
  }
  if (clamped) amount = reduceFraction(rate.num * b, rate.den);
  else amount = reduceFraction(diff, settlementDen);
  return { amountNum: amount.num, amountDen: amount.den, rateNum: rate.num, rateDen: rate.den, clamped };
}
