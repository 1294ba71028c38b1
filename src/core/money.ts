// Named import: decimal.js ships CommonJS-style typings, so under NodeNext only the named
// export (also present in decimal.mjs) is typed as the class.
import { Decimal } from 'decimal.js';

/**
 * Money as a scaled bigint, never a float: balances, PnL, fees and funding.
 *
 * A `Money` value is an integer count of 1e-18 of the quote currency, so every decimal string
 * with up to 18 fractional digits is represented exactly and sums are exact.
 */

/** An amount of quote currency in units of 1e-18 (`MONEY_ONE` is one unit of currency). */
export type Money = bigint;

/** Fractional digits carried by `Money`. */
export const MONEY_DECIMALS = 18;

/** One unit of quote currency as `Money` (10^18). */
export const MONEY_ONE: Money = 10n ** 18n;

// Optional sign, then digits with an optional fraction, or a bare fraction ("-.5").
const DECIMAL_TEXT = /^([+-]?)(?:(\d+)(?:\.(\d*))?|\.(\d+))$/;

/**
 * Parses decimal text into `Money`, exactly.
 *
 * Accepts an optional `+` or `-`, then `123`, `123.`, `123.45` or `.45`. No exponent, no
 * whitespace, no thousands separators. Fractional digits beyond the 18th must all be zeros.
 * `"-0"` parses to `0n`.
 *
 * @throws RangeError naming the text if it is malformed or needs more than 18 fractional digits.
 */
export function parseMoney(text: string): Money {
  const match = DECIMAL_TEXT.exec(text);
  if (match === null) throw new RangeError(`invalid money text ${JSON.stringify(text)}`);
  const intPart = match[2] ?? '0';
  let fraction = match[3] ?? match[4] ?? '';
  if (fraction.length > MONEY_DECIMALS) {
    if (!/^0*$/.test(fraction.slice(MONEY_DECIMALS))) {
      throw new RangeError(
        `money text ${JSON.stringify(text)} has more than ${MONEY_DECIMALS} significant fractional digits`,
      );
    }
    fraction = fraction.slice(0, MONEY_DECIMALS);
  }
  const magnitude = BigInt(intPart + fraction.padEnd(MONEY_DECIMALS, '0'));
  return match[1] === '-' ? -magnitude : magnitude;
}

/**
 * Minimal decimal text of `value / 10^decimals`: no trailing fractional zeros, no trailing dot,
 * `"0"` for zero (never `"-0"`), a leading `-` for negatives, no exponent.
 *
 * @param decimals non-negative integer scale, e.g. 18 for `Money`, 2 for cents.
 * @throws RangeError if `decimals` is not a non-negative safe integer.
 */
export function formatScaled(value: bigint, decimals: number): string {
  if (!Number.isSafeInteger(decimals) || decimals < 0) {
    throw new RangeError(`formatScaled: decimals must be a non-negative integer, got ${decimals}`);
  }
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString();
  if (decimals === 0) return negative ? '-' + digits : digits;
  const padded = digits.length > decimals ? digits : digits.padStart(decimals + 1, '0');
  const intPart = padded.slice(0, padded.length - decimals);
  let end = padded.length;
  while (end > intPart.length && padded.charCodeAt(end - 1) === 48) end--;
  const body = end === intPart.length ? intPart : intPart + '.' + padded.slice(intPart.length, end);
  return negative ? '-' + body : body;
}

/**
 * Minimal decimal text of a `Money` amount, e.g. `1325n * 10n ** 15n` → `"1.325"`,
 * `-5n * 10n ** 17n` → `"-0.5"`, `0n` → `"0"`. `parseMoney(formatMoney(m)) === m` for every `m`.
 */
export function formatMoney(m: Money): string {
  return formatScaled(m, MONEY_DECIMALS);
}

/**
 * `a / b` rounded to the nearest integer, ties to the even neighbour (banker's rounding).
 * Works for any signs: `divRoundHalfEven(-5n, 2n)` → `-2n`, `divRoundHalfEven(7n, -2n)` → `-4n`.
 *
 * @throws RangeError if `b` is zero.
 */
export function divRoundHalfEven(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new RangeError('divRoundHalfEven: division by zero');
  const q = a / b; // truncated toward zero
  const r = a % b; // same sign as a
  if (r === 0n) return q;
  const twiceR = r < 0n ? -2n * r : 2n * r;
  const absB = b < 0n ? -b : b;
  if (twiceR < absB || (twiceR === absB && q % 2n === 0n)) return q;
  return (a < 0n) !== (b < 0n) ? q - 1n : q + 1n;
}

/**
 * `m × num / den` with one rounding (half to even) at the end, e.g. a fee rate as a ratio.
 *
 * @throws RangeError if `den` is zero.
 */
export function mulRatio(m: Money, num: bigint, den: bigint): Money {
  return divRoundHalfEven(m * num, den);
}

/**
 * Converts a decimal.js value to `Money`, rounding half to even at the 18th fractional digit.
 * Not limited by decimal.js precision settings (uses `toFixed`, which keeps every integer digit).
 *
 * @throws RangeError if `d` is NaN or infinite.
 */
export function moneyFromDecimal(d: Decimal): Money {
  if (!d.isFinite()) throw new RangeError(`moneyFromDecimal: not a finite number (${d.toString()})`);
  return parseMoney(d.toFixed(MONEY_DECIMALS, Decimal.ROUND_HALF_EVEN));
}

/** Converts `Money` to an exact decimal.js value (the constructor keeps every digit of text). */
export function moneyToDecimal(m: Money): Decimal {
  return new Decimal(formatMoney(m));
}
