/**
 * Rounding written the plain way, apart from src/core/money.ts: the oracle of divRoundHalfEven's
 * tests and of the test models that round Money (the fee model of test/venue/position-rows).
 */

/** Nearest integer to a/b, ties to even, by trying the three candidates around a/b. */
export function referenceDivRoundHalfEven(a: bigint, b: bigint): bigint {
  const t = a / b;
  let best = t;
  let bestDistance: bigint | undefined;
  for (const q of [t - 1n, t, t + 1n]) {
    const d = a - q * b;
    const distance = d < 0n ? -d : d;
    if (
      bestDistance === undefined ||
      distance < bestDistance ||
      (distance === bestDistance && q % 2n === 0n)
    ) {
      best = q;
      bestDistance = distance;
    }
  }
  return best;
}
