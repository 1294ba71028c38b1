import { describe, it, expect } from 'vitest';
import { Decimal } from 'decimal.js';
import {
  MONEY_DECIMALS,
  MONEY_ONE,
  divRoundHalfEven,
  formatMoney,
  formatScaled,
  moneyFromDecimal,
  moneyToDecimal,
  mulRatio,
  parseMoney,
} from '../../src/core/money.ts';
import { RandomStream } from '../../src/random/random-stream.ts';
import { referenceDivRoundHalfEven } from './reference-rounding.ts';

const MINIMAL = /^-?(0|[1-9]\d*)(\.\d*[1-9])?$/;
const Big = Decimal.clone({ precision: 200 });

function randomDigits(rng: RandomStream, count: number): string {
  let s = '';
  for (let i = 0; i < count; i++) s += String(rng.int(0, 9));
  return s;
}

function randomBigint(rng: RandomStream, maxDigits: number): bigint {
  const digits = randomDigits(rng, rng.int(1, maxDigits));
  const value = BigInt(digits);
  return rng.chance(0.5) ? -value : value;
}

describe('money constants', () => {
  it('define one unit of currency as 10^18 with 18 decimals', () => {
    expect(MONEY_DECIMALS).toBe(18);
    expect(MONEY_ONE).toBe(1_000_000_000_000_000_000n);
  });
});

describe('parseMoney', () => {
  it('parses integers, fractions, signs and bare fractions exactly', () => {
    expect(parseMoney('1.325')).toBe(1325n * 10n ** 15n);
    expect(parseMoney('-0.5')).toBe(-5n * 10n ** 17n);
    expect(parseMoney('+2')).toBe(2n * MONEY_ONE);
    expect(parseMoney('7.')).toBe(7n * MONEY_ONE);
    expect(parseMoney('.5')).toBe(5n * 10n ** 17n);
    expect(parseMoney('-.25')).toBe(-25n * 10n ** 16n);
    expect(parseMoney('007.10')).toBe(71n * 10n ** 17n);
    expect(parseMoney('0.000000000000000001')).toBe(1n);
    expect(parseMoney('123456789012345678901234567890')).toBe(123456789012345678901234567890n * MONEY_ONE);
  });

  it('reads zero and negative zero as 0n', () => {
    expect(parseMoney('0')).toBe(0n);
    expect(parseMoney('-0')).toBe(0n);
    expect(parseMoney('-0.000')).toBe(0n);
  });

  it('accepts more than 18 fractional digits only when the extra digits are zeros', () => {
    expect(parseMoney('1.500000000000000000000000')).toBe(15n * 10n ** 17n);
    expect(() => parseMoney('0.0000000000000000001')).toThrow(RangeError);
    expect(() => parseMoney('1.0000000000000000015')).toThrow(/1\.0000000000000000015/);
  });

  it('throws a RangeError naming the text for malformed input', () => {
    for (const text of ['', '-', '+', '.', '-.', '+.', '1e5', ' 1', '1 ', '1,000', '--1', '+-1', '1.2.3', 'abc', '0x10', 'NaN', 'Infinity', '١']) {
      expect(() => parseMoney(text), text).toThrow(RangeError);
      expect(() => parseMoney(text), text).toThrow(JSON.stringify(text));
    }
  });
});

describe('formatScaled and formatMoney', () => {
  it('write the minimal decimal form', () => {
    expect(formatMoney(1325n * 10n ** 15n)).toBe('1.325');
    expect(formatMoney(-5n * 10n ** 17n)).toBe('-0.5');
    expect(formatMoney(0n)).toBe('0');
    expect(formatMoney(-0n)).toBe('0');
    expect(formatMoney(1n)).toBe('0.000000000000000001');
    expect(formatMoney(-1n)).toBe('-0.000000000000000001');
    expect(formatMoney(42n * MONEY_ONE)).toBe('42');
    expect(formatMoney(-42n * MONEY_ONE)).toBe('-42');
    expect(formatMoney(10n * MONEY_ONE + 10n ** 17n)).toBe('10.1');
  });

  it('format any scale, including zero decimals', () => {
    expect(formatScaled(12345n, 2)).toBe('123.45');
    expect(formatScaled(12300n, 2)).toBe('123');
    expect(formatScaled(5n, 3)).toBe('0.005');
    expect(formatScaled(-5n, 3)).toBe('-0.005');
    expect(formatScaled(-120n, 0)).toBe('-120');
    expect(formatScaled(0n, 5)).toBe('0');
    expect(formatScaled(100n, 2)).toBe('1');
  });

  it('rejects a negative or fractional scale', () => {
    expect(() => formatScaled(1n, -1)).toThrow(RangeError);
    expect(() => formatScaled(1n, 1.5)).toThrow(RangeError);
  });

  it('round-trip with parseMoney for seeded random amounts', () => {
    const rng = new RandomStream('money-roundtrip');
    for (let i = 0; i < 5000; i++) {
      const m = randomBigint(rng, 40);
      const text = formatMoney(m);
      expect(text).toMatch(MINIMAL);
      expect(parseMoney(text)).toBe(m);
    }
  });

  it('turn any valid text into its minimal equal form', () => {
    const rng = new RandomStream('money-text');
    for (let i = 0; i < 3000; i++) {
      const sign = rng.pick(['', '-', '+']);
      const intPart = randomDigits(rng, rng.int(0, 25));
      const fraction = randomDigits(rng, rng.int(intPart === '' ? 1 : 0, 18));
      const text = sign + intPart + (fraction === '' && rng.chance(0.5) ? '' : '.' + fraction);
      const formatted = formatMoney(parseMoney(text));
      expect(formatted).toMatch(MINIMAL);
      expect(new Big(formatted).eq(new Big(text)), text).toBe(true);
    }
  });
});

describe('divRoundHalfEven', () => {
  it('rounds ties to the even neighbour for every sign combination', () => {
    expect(divRoundHalfEven(5n, 2n)).toBe(2n);
    expect(divRoundHalfEven(7n, 2n)).toBe(4n);
    expect(divRoundHalfEven(-5n, 2n)).toBe(-2n);
    expect(divRoundHalfEven(-7n, 2n)).toBe(-4n);
    expect(divRoundHalfEven(5n, -2n)).toBe(-2n);
    expect(divRoundHalfEven(7n, -2n)).toBe(-4n);
    expect(divRoundHalfEven(-5n, -2n)).toBe(2n);
    expect(divRoundHalfEven(-7n, -2n)).toBe(4n);
  });

  it('rounds non-ties to the nearest integer', () => {
    expect(divRoundHalfEven(1n, 3n)).toBe(0n);
    expect(divRoundHalfEven(2n, 3n)).toBe(1n);
    expect(divRoundHalfEven(-2n, 3n)).toBe(-1n);
    expect(divRoundHalfEven(-1n, 3n)).toBe(0n);
    expect(divRoundHalfEven(0n, 5n)).toBe(0n);
    expect(divRoundHalfEven(9n, 3n)).toBe(3n);
  });

  it('throws a RangeError on division by zero', () => {
    expect(() => divRoundHalfEven(1n, 0n)).toThrow(RangeError);
  });

  it('agrees with a brute-force reference on seeded random values including exact halves', () => {
    const rng = new RandomStream('div-round-half-even');
    let ties = 0;
    for (let i = 0; i < 20000; i++) {
      let a: bigint;
      let b: bigint;
      const kind = rng.int(0, 2);
      if (kind === 0) {
        a = BigInt(rng.int(-1000, 1000));
        b = BigInt(rng.pick([-1, 1]) * rng.int(1, 20));
      } else if (kind === 1) {
        // a = k·b + b/2 with b even: an exact half.
        b = BigInt(rng.pick([-1, 1]) * 2 * rng.int(1, 50));
        a = BigInt(rng.int(-500, 500)) * b + b / 2n * BigInt(rng.pick([-1, 1]));
        ties++;
      } else {
        a = randomBigint(rng, 40);
        b = randomBigint(rng, 20);
        if (b === 0n) b = 7n;
      }
      expect(divRoundHalfEven(a, b), `${a} / ${b}`).toBe(referenceDivRoundHalfEven(a, b));
    }
    expect(ties).toBeGreaterThan(5000);
  });
});

describe('mulRatio', () => {
  it('multiplies by a ratio with one half-even rounding at the end', () => {
    expect(mulRatio(10n, 1n, 3n)).toBe(3n);
    expect(mulRatio(15n, 1n, 10n)).toBe(2n);
    expect(mulRatio(25n, 1n, 10n)).toBe(2n);
    expect(mulRatio(-25n, 1n, 10n)).toBe(-2n);
    expect(mulRatio(100n * MONEY_ONE, 2n, 10_000n)).toBe(parseMoney('0.02'));
  });

  it('throws a RangeError for a zero denominator', () => {
    expect(() => mulRatio(1n, 1n, 0n)).toThrow(RangeError);
  });
});

describe('moneyFromDecimal and moneyToDecimal', () => {
  it('convert exactly when the decimal has at most 18 fractional digits', () => {
    expect(moneyFromDecimal(new Decimal('1.325'))).toBe(1325n * 10n ** 15n);
    expect(moneyFromDecimal(new Decimal('-0.000000000000000001'))).toBe(-1n);
    expect(moneyFromDecimal(new Decimal('123456789012345678901234567890.5'))).toBe(
      1234567890123456789012345678905n * 10n ** 17n,
    );
    expect(moneyFromDecimal(new Decimal('1e-30'))).toBe(0n);
  });

  it('round half to even beyond 18 fractional digits', () => {
    expect(moneyFromDecimal(new Decimal('0.0000000000000000005'))).toBe(0n);
    expect(moneyFromDecimal(new Decimal('0.0000000000000000015'))).toBe(2n);
    expect(moneyFromDecimal(new Decimal('-0.0000000000000000025'))).toBe(-2n);
    expect(moneyFromDecimal(new Decimal('0.00000000000000000251'))).toBe(3n);
  });

  it('reject NaN and infinities', () => {
    expect(() => moneyFromDecimal(new Decimal(NaN))).toThrow(RangeError);
    expect(() => moneyFromDecimal(new Decimal(Infinity))).toThrow(RangeError);
  });

  it('round-trip seeded random amounts through decimal.js', () => {
    const rng = new RandomStream('money-decimal');
    for (let i = 0; i < 3000; i++) {
      const m = randomBigint(rng, 45);
      const d = moneyToDecimal(m);
      expect(d.toFixed()).toBe(formatMoney(m));
      expect(moneyFromDecimal(d)).toBe(m);
    }
  });
});
