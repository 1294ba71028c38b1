import { divRoundHalfEven, formatScaled, MONEY_DECIMALS, MONEY_ONE, parseMoney, type Money } from './money.ts';

/**
 * Exact conversion between decimal price text and integer ticks for one tick size.
 *
 * The engine only sees integer `priceTicks`; this class is the one place that turns them into
 * text and back. Hot paths (`toTicks`, `toPrice`) use plain numbers and fall back to bigint only
 * when an intermediate would not be a safe integer.
 */

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
// 10^0 … 10^22 are all exact doubles.
const POW10: readonly number[] = Array.from({ length: 23 }, (_, i) => 10 ** i);
const CHAR_0 = 48;
const CHAR_9 = 57;
const CHAR_DOT = 46;

/** A validated tick size with its derived scales. Immutable. */
export class TickSize {
  /** The tick in minimal decimal form, e.g. `"0.5"`, `"1"`. */
  readonly text: string;
  /** 1 / tick, an integer (decisions.md), e.g. 2 for `"0.5"`, 1 for `"1"`. */
  readonly priceScale: number;
  /** Fractional digits of the tick in minimal form, e.g. 3 for `"0.125"`, 0 for `"1"`. */
  readonly decimals: number;
  /** The tick in `Money` units (tick × 10^18). */
  readonly money: Money;
  // The tick as an integer count of 10^-decimals: 125 for "0.125", 1 for "0.01".
  private readonly units: number;
  private readonly unitsBig: bigint;

  /**
   * @param tickText decimal text of a positive tick such that 1 / tick is an integer:
   *   `"1"`, `"0.5"`, `"0.25"`, `"0.01"`, `"0.00000001"` are valid; `"0.3"`, `"5"`, `"0"` are not.
   *   Trailing zeros are allowed (`"0.50"` equals `"0.5"`).
   * @throws RangeError if the text is not a positive decimal, has more than 18 significant
   *   fractional digits, 1 / tick is not an integer, or 1 / tick exceeds 2^53 − 1.
   */
  constructor(tickText: string) {
    let money: Money;
    try {
      money = parseMoney(tickText);
    } catch {
      throw new RangeError(
        `invalid tick size ${JSON.stringify(tickText)}: must be a positive decimal with at most ${MONEY_DECIMALS} fractional digits`,
      );
    }
    if (money <= 0n) throw new RangeError(`invalid tick size ${JSON.stringify(tickText)}: must be positive`);
    if (MONEY_ONE % money !== 0n) {
      throw new RangeError(
        `invalid tick size ${JSON.stringify(tickText)}: price_scale = 1 / tick_size must be an integer`,
      );
    }
    const scale = MONEY_ONE / money;
    if (scale > BigInt(MAX_SAFE)) {
      throw new RangeError(`invalid tick size ${JSON.stringify(tickText)}: price_scale exceeds 2^53 - 1`);
    }
    this.money = money;
    this.priceScale = Number(scale);
    this.text = formatScaled(money, MONEY_DECIMALS);
    const dot = this.text.indexOf('.');
    this.decimals = dot < 0 ? 0 : this.text.length - dot - 1;
    this.unitsBig = money / 10n ** BigInt(MONEY_DECIMALS - this.decimals);
    this.units = Number(this.unitsBig);
  }

  /**
   * Exact number of ticks in a price given as text matching `^\d+\.?\d*$` (`"100"`, `"100."`,
   * `"100.50"`, `"007.25"`).
   *
   * @returns the integer tick count, or `undefined` if the price is not an exact multiple of
   *   the tick or the count is not a safe integer.
   * @throws RangeError if the text does not match the pattern (callers validate first).
   */
  toTicks(price: string): number | undefined {
    const n = price.length;
    let mantissa = 0;
    let decimals = 0;
    let pendingZeros = 0; // fractional zeros not yet folded into the mantissa
    let seenDot = false;
    for (let i = 0; i < n; i++) {
      const c = price.charCodeAt(i);
      if (c >= CHAR_0 && c <= CHAR_9) {
        const digit = c - CHAR_0;
        if (!seenDot) {
          mantissa = mantissa * 10 + digit;
        } else if (digit === 0) {
          pendingZeros++;
        } else {
          const shift = pendingZeros + 1;
          if (shift >= POW10.length) return this.toTicksBig(price);
          mantissa = mantissa * POW10[shift]! + digit;
          decimals += shift;
          pendingZeros = 0;
        }
        if (mantissa > MAX_SAFE) return this.toTicksBig(price);
      } else if (c === CHAR_DOT && !seenDot && i > 0) {
        seenDot = true;
      } else {
        throw new RangeError(`invalid price text ${JSON.stringify(price)}`);
      }
    }
    if (n === 0) throw new RangeError('invalid price text ""');
    const scaled = mantissa * this.priceScale;
    if (scaled > MAX_SAFE || decimals >= POW10.length) return this.toTicksBig(price);
    const divisor = POW10[decimals]!;
    if (scaled % divisor !== 0) return undefined;
    return scaled / divisor;
  }

  /**
   * Minimal decimal text of `ticks` × tick (`"1.5"`, `"2"`, `"-0.25"`, `"0"`). Exact for every
   * safe integer; negative values only arise for differences of prices.
   *
   * @throws RangeError if `ticks` is not a safe integer.
   */
  toPrice(ticks: number): string {
    if (!Number.isSafeInteger(ticks)) throw new RangeError(`toPrice: ticks must be a safe integer, got ${ticks}`);
    let value = ticks * this.units;
    if (value > MAX_SAFE || value < -MAX_SAFE) {
      return formatScaled(BigInt(ticks) * this.unitsBig, this.decimals);
    }
    let decimals = this.decimals;
    while (decimals > 0 && value % 10 === 0) {
      value /= 10;
      decimals--;
    }
    if (decimals === 0) return value === 0 ? '0' : String(value);
    const negative = value < 0;
    const digits = String(negative ? -value : value).padStart(decimals + 1, '0');
    const cut = digits.length - decimals;
    return (negative ? '-' : '') + digits.slice(0, cut) + '.' + digits.slice(cut);
  }

  /**
   * `ticks` × tick as `Money` (a price, or a price difference, in quote-currency units).
   *
   * @throws RangeError if `ticks` is a number that is not a safe integer.
   */
  toMoney(ticks: number | bigint): Money {
    if (typeof ticks === 'number' && !Number.isSafeInteger(ticks)) {
      throw new RangeError(`toMoney: ticks must be a safe integer, got ${ticks}`);
    }
    return BigInt(ticks) * this.money;
  }

  /**
   * The tick count nearest to a `Money` price, ties to the even tick.
   *
   * @throws RangeError if the result is not a safe integer.
   */
  fromMoneyRounded(m: Money): number {
    const ticks = divRoundHalfEven(m, this.money);
    if (ticks > BigInt(MAX_SAFE) || ticks < -BigInt(MAX_SAFE)) {
      throw new RangeError(`fromMoneyRounded: ${ticks} ticks is not a safe integer`);
    }
    return Number(ticks);
  }

  /**
   * Text of an average price `numTicks / den` ticks (average traded price, VWAP): exact when it
   * terminates within `decimals + extraDecimals` fractional digits, otherwise rounded half to
   * even at that digit; minimal form (`"100.25"`, `"33.33333333"`).
   *
   * @param numTicks sum of ticks × weight (e.g. Σ priceTicks × qtyLots).
   * @param den total weight (e.g. Σ qtyLots); any sign except zero.
   * @param extraDecimals fractional digits beyond the tick's own, a non-negative integer.
   * @throws RangeError if `den` is zero or `extraDecimals` is invalid.
   */
  formatRatioPrice(numTicks: bigint, den: bigint, extraDecimals = 8): string {
    if (!Number.isSafeInteger(extraDecimals) || extraDecimals < 0) {
      throw new RangeError(`formatRatioPrice: extraDecimals must be a non-negative integer, got ${extraDecimals}`);
    }
    if (den === 0n) throw new RangeError('formatRatioPrice: den must not be zero');
    const scaled = divRoundHalfEven(numTicks * this.unitsBig * 10n ** BigInt(extraDecimals), den);
    return formatScaled(scaled, this.decimals + extraDecimals);
  }

  // Exact slow path for long texts: every intermediate as bigint.
  private toTicksBig(price: string): number | undefined {
    if (!/^\d+\.?\d*$/.test(price)) throw new RangeError(`invalid price text ${JSON.stringify(price)}`);
    const dot = price.indexOf('.');
    const intPart = dot < 0 ? price : price.slice(0, dot);
    const fraction = dot < 0 ? '' : price.slice(dot + 1).replace(/0+$/, '');
    const scaled = BigInt(intPart + fraction) * BigInt(this.priceScale);
    const divisor = 10n ** BigInt(fraction.length);
    if (scaled % divisor !== 0n) return undefined;
    const ticks = scaled / divisor;
    return ticks > BigInt(MAX_SAFE) ? undefined : Number(ticks);
  }
}
