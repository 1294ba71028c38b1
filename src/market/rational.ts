/**
 * Exact rational helpers on bigint, for the market-data modules (averages, funding).
 * Pure: no I/O, no floats.
 */

/** An exact rational number `num / den` with `den > 0n`. */
export interface BigRational {
  readonly num: bigint;
  readonly den: bigint;
}

/**
 * Greatest common divisor of `|a|` and `|b|` (Euclid). `gcd(0n, 0n)` is `0n`; otherwise the
 * result is positive.
 */
export function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) {
    const r = x % y;
    x = y;
    y = r;
  }
  return x;
}

/**
 * `num / den` in lowest terms with a positive denominator; zero is `0n / 1n`.
 *
 * @throws RangeError when `den` is `0n`.
 */
export function reduceFraction(num: bigint, den: bigint): BigRational {
  if (den === 0n) throw new RangeError('reduceFraction: zero denominator');
  if (num === 0n) return { num: 0n, den: 1n };
  const sign = den < 0n ? -1n : 1n;
  const g = gcd(num, den);
  return { num: (sign * num) / g, den: (sign * den) / g };
}

/**
 * Compares `aNum / aDen` with `bNum / bDen` exactly: negative, zero or positive like a sort
 * comparator. Both denominators must be positive (not checked: internal helper).
 */
export function compareFractions(aNum: bigint, aDen: bigint, bNum: bigint, bDen: bigint): number {
  const left = aNum * bDen;
  const right = bNum * aDen;
  return left < right ? -1 : left > right ? 1 : 0;
}
