import { NANOS_PER_SECOND, type TimeNs } from '../core/types.ts';

/**
 * The clock's time arithmetic: an instant plus a delay, exactly, on the clock's own form (Unix
 * seconds and nanoseconds within the second, two safe integers; see sim-clock.ts), and the
 * conversions between that form and the exact bigint nanoseconds and the double seconds its
 * readers see.
 */

/** An instant as (sec, nanos), reused as the result of `delayInto` (no array per scheduled event). */
export class Instant {
  sec = 0;
  nanos = 0;

  /** Sets this to `ns` nanoseconds since the epoch (split exactly: bigint division). */
  setNs(ns: TimeNs): this {
    this.sec = Number(ns / NANOS_PER_SECOND);
    this.nanos = Number(ns % NANOS_PER_SECOND);
    return this;
  }

  /** Whether this is before (sec, nanos). */
  isBefore(sec: number, nanos: number): boolean {
    return this.sec < sec || (this.sec === sec && this.nanos < nanos);
  }
}

/** (sec, nanos) in exact nanoseconds since the epoch. */
export function nsOf(sec: number, nanos: number): TimeNs {
  return BigInt(sec) * NANOS_PER_SECOND + BigInt(nanos);
}

/**
 * (sec, nanos) in seconds as a double: exactly `Number(nsOf(sec, nanos)) / 1e9`, without a
 * bigint. `sec × 10^9` is an exact double while `sec × 1953125` is below 2^53 (sec < 4.6e9,
 * the year 2115), so adding the nanos rounds once, as `Number` of the exact bigint does; later
 * times take the bigint path.
 */
export function secondsOf(sec: number, nanos: number): number {
  return sec < 4_000_000_000 ? (sec * 1_000_000_000 + nanos) / 1_000_000_000 : Number(nsOf(sec, nanos)) / 1_000_000_000;
}

/**
 * Writes (sec, nanos) + `delayNs` into `out`; throws unless `delayNs` is a non-negative safe
 * integer. 10^9 is written as a literal (a module-level number is loaded and unboxed per use).
 */
export function delayInto(out: Instant, sec: number, nanos: number, delayNs: number): void {
  if (!(delayNs >= 0) || !Number.isSafeInteger(delayNs)) {
    throw new RangeError(`delay must be a non-negative integer number of nanoseconds, got ${delayNs}`);
  }
  if (delayNs < 1_000_000_000) {
    nanos += delayNs;
  } else {
    // Split the delay first: nanos + delay could pass 2^53 and round. `%` on doubles is
    // exact, and so is the division of the exact multiple that remains.
    const delayNanos = delayNs % 1_000_000_000;
    sec += (delayNs - delayNanos) / 1_000_000_000;
    nanos += delayNanos;
  }
  if (nanos >= 1_000_000_000) {
    sec += 1;
    nanos -= 1_000_000_000;
  }
  out.sec = sec;
  out.nanos = nanos;
}
