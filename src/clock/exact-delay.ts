/**
 * The clock's time arithmetic: an instant plus a delay, exactly, on the clock's own form (Unix
 * seconds and nanoseconds within the second, two safe integers; see sim-clock.ts).
 */

/** An instant as (sec, nanos), reused as the result of `delayInto` (no array per scheduled event). */
export class Instant {
  sec = 0;
  nanos = 0;
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
