import { compareFractions, reduceFraction } from './rational.ts';
import type { BigRational } from './rational.ts';

/**
 * Funding (decisions.md, "Mark price, funding, settlement"): schedule, the time-weighted prices
 * over a funding interval (index: the benchmark, mark: the settlement) and the funding record in
 * exact rationals.
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
/** `what`: the method, named in the error (`TimeWeightedPrice.what`; the text is made only then). */
function toNs(what: string, sec: number, nanos: number): bigint {
  if (!Number.isSafeInteger(sec)) throw new RangeError(`TimeWeightedPrice.${what}: sec ${sec} is not a safe integer`);
  if (!Number.isInteger(nanos) || nanos < 0 || nanos >= 1e9) {
    throw new RangeError(`TimeWeightedPrice.${what}: nanos ${nanos} must be an integer in [0, 1e9)`);
  }
  return BigInt(sec) * NANOS_PER_SECOND + BigInt(nanos);
}

/** An exact time-weighted average price: `numTicks / den` ticks with `den > 0n`, in lowest terms. */
export interface TimeWeightedAverage {
  numTicks: bigint;
  den: bigint;
}

/**
 * Time-weighted average of a step function of price (the mark or the index, in integer ticks) over a
 * window, with exact nanosecond weights and bigint arithmetic: no rounding at all.
 *
 * `reset` starts a window at an instant with a price; each `update` changes the price from that
 * instant on. `average(t)` is `Σ priceTicks × duration_ns / total_ns` over `[start, t]`.
 * Instants are `(sec, nanos)` pairs (the websocket's `ts` / `tn`). Time never goes back across
 * `reset` and `update`; `average` only reads and may be called at any instant not before the
 * latest `reset`/`update`.
 */
/** Numbers and references `TimeWeightedPrice.saveTo` writes. */
export const TWAP_SAVED_NUMBERS = 3;
export const TWAP_SAVED_REFS = 3;

export class TimeWeightedPrice {
  private startNs: bigint | undefined;
  private lastNs = 0n;
  /** `lastNs` as (sec, nanos) numbers: an update at the same instant needs no bigint. */
  private lastSec = 0;
  private lastNanos = 0;
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
    this.lastSec = atSec;
    this.lastNanos = atNanos;
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
    if (atSec === this.lastSec && atNanos === this.lastNanos && this.startNs !== undefined) {
      // Same instant as the last change (the mark moving several times in one command or
      // instant): no time passed, so nothing is added to the sum; only the price changes.
      checkPrice('update', priceTicks);
      this.priceTicks = priceTicks;
      return;
    }
    const at = this.checkedInstant('update', atSec, atNanos);
    checkPrice('update', priceTicks);
    if (this.startNs === undefined) throw new Error('TimeWeightedPrice.update before reset');
    this.weightedSum += BigInt(this.priceTicks) * (at - this.lastNs);
    this.lastNs = at;
    this.lastSec = atSec;
    this.lastNanos = atNanos;
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

  /** The window as it is now, to put back with `restore` (the venue's undo of a failed command). */
  save(): object {
    return { ...this };
  }

  restore(saved: object): void {
    Object.assign(this, saved);
  }

  /**
   * `save` as `TWAP_SAVED_NUMBERS` numbers at `nums[at]` and `TWAP_SAVED_REFS` references
   * through `out.ref` (the venue's undo journal: no object per save).
   */
  saveTo(nums: Float64Array, at: number, out: { ref(value: unknown): void }): void {
    nums[at] = this.lastSec;
    nums[at + 1] = this.lastNanos;
    nums[at + 2] = this.priceTicks;
    out.ref(this.startNs);
    out.ref(this.lastNs);
    out.ref(this.weightedSum);
  }

  /** Puts back what `saveTo` wrote. */
  restoreFrom(nums: Float64Array, at: number, refs: readonly unknown[], refAt: number): void {
    this.lastSec = nums[at]!;
    this.lastNanos = nums[at + 1]!;
    this.priceTicks = nums[at + 2]!;
    this.startNs = refs[refAt] as bigint | undefined;
    this.lastNs = refs[refAt + 1] as bigint;
    this.weightedSum = refs[refAt + 2] as bigint;
  }

  private checkedInstant(what: string, sec: number, nanos: number): bigint {
    const at = toNs(what, sec, nanos);
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
  /** True when the rate before the cap was strictly beyond ± cap and was clamped (exactly at the cap: false). */
  clamped: boolean;
}

/** Binance's clamp on (interest − premium): ± 0.05 % per interval (decisions.md). */
export const INTEREST_CLAMP_RATE: BigRational = Object.freeze({ num: 5n, den: 10_000n });

/**
 * The funding of one interval (decisions.md): `premium = (settlement − benchmark) / benchmark`
 * where benchmark is the time-weighted index and settlement the time-weighted mark over the
 * interval, so a drifting index with the mark tracking it pays nothing. Without an interest
 * component `rate = premium`; with one (Binance style) `rate = premium + clamp(interest −
 * premium, ± 0.05 %)`. Then `rate` is clamped to `[-cap, +cap]` and `amount = rate ×
 * benchmark` (= settlement − benchmark when neither clamp nor interest applied). Everything is
 * exact: the venue rounds the amount once, when it turns it into money.
 *
 * Sign convention: a positive amount means longs pay shorts `amount × qty × multiplier`
 * (converted from ticks to money by the venue); a negative amount means shorts pay longs.
 *
 * @param benchmark Time-weighted index over the interval, ticks, positive.
 * @param settlement Time-weighted mark over the interval, ticks.
 * @param capRate Non-negative cap on `|rate|`, e.g. {@link DEFAULT_FUNDING_CAP_RATE}. A zero
 *   cap forces rate and amount to 0.
 * @param interestRate The interest component per interval, or undefined for none.
 * @throws RangeError on a non-positive benchmark or denominator, or a negative cap.
 */
export function computeFunding(
  benchmark: BigRational,
  settlement: BigRational,
  capRate: BigRational,
  interestRate?: BigRational,
): FundingResult {
  if (benchmark.den <= 0n || settlement.den <= 0n) throw new RangeError('computeFunding: denominators must be positive');
  if (benchmark.num <= 0n) throw new RangeError('computeFunding: the benchmark must be positive');
  if (capRate.den <= 0n) throw new RangeError('computeFunding: capRate.den must be positive');
  if (capRate.num < 0n) throw new RangeError('computeFunding: capRate must not be negative');
  // premium = (S − B) / B = (sN·bD − bN·sD) / (sD·bN)
  let rate = reduceFraction(settlement.num * benchmark.den - benchmark.num * settlement.den, settlement.den * benchmark.num);
  if (interestRate !== undefined) {
    if (interestRate.den <= 0n) throw new RangeError('computeFunding: interestRate.den must be positive');
    const gap = clampRate(subtract(interestRate, rate), INTEREST_CLAMP_RATE).value;
    rate = add(rate, gap);
  }
  const capped = clampRate(rate, capRate);
  const amount = reduceFraction(capped.value.num * benchmark.num, capped.value.den * benchmark.den);
  return { amountNum: amount.num, amountDen: amount.den, rateNum: capped.value.num, rateDen: capped.value.den, clamped: capped.clamped };
}

function add(a: BigRational, b: BigRational): BigRational {
  return reduceFraction(a.num * b.den + b.num * a.den, a.den * b.den);
}

function subtract(a: BigRational, b: BigRational): BigRational {
  return reduceFraction(a.num * b.den - b.num * a.den, a.den * b.den);
}

/** `x` clamped to `[-limit, +limit]` (limit ≥ 0), and whether it was strictly beyond. */
function clampRate(x: BigRational, limit: BigRational): { value: BigRational; clamped: boolean } {
  if (compareFractions(x.num, x.den, limit.num, limit.den) > 0) return { value: reduceFraction(limit.num, limit.den), clamped: true };
  if (compareFractions(x.num, x.den, -limit.num, limit.den) < 0) return { value: reduceFraction(-limit.num, limit.den), clamped: true };
  return { value: x, clamped: false };
}
