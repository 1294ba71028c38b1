import { describe, it, expect } from 'vitest';
import { Decimal } from 'decimal.js';
import { TickSize } from '../../src/core/price.ts';
import { MONEY_ONE, parseMoney } from '../../src/core/money.ts';
import { RandomStream } from '../../src/random/random-stream.ts';

const TICKS = ['0.5', '0.1', '0.01', '0.0001', '1', '0.00000001', '0.25', '0.125'];
const Big = Decimal.clone({ precision: 200 });
const MINIMAL = /^-?(0|[1-9]\d*)(\.\d*[1-9])?$/;

/** Reference: exact ticks by decimal arithmetic, or undefined. */
function referenceTicks(tick: TickSize, price: string): number | undefined {
  const ticks = new Big(price).div(new Big(tick.text));
  if (!ticks.isInteger() || ticks.gt(Number.MAX_SAFE_INTEGER)) return undefined;
  return ticks.toNumber();
}

function randomDigits(rng: RandomStream, count: number): string {
  let s = '';
  for (let i = 0; i < count; i++) s += String(rng.int(0, 9));
  return s;
}

/** A tick count with a random order of magnitude, up to 2^53 − 1. */
function randomTicks(rng: RandomStream): number {
  const magnitude = rng.int(0, 15);
  const limit = magnitude === 15 ? Number.MAX_SAFE_INTEGER : 10 ** magnitude;
  return Math.floor(rng.next() * limit);
}

describe('TickSize construction', () => {
  it('derives text, price scale, decimals and money from the tick', () => {
    const cases: [string, string, number, number][] = [
      ['0.5', '0.5', 2, 1],
      ['1', '1', 1, 0],
      ['0.01', '0.01', 100, 2],
      ['0.0001', '0.0001', 10_000, 4],
      ['0.25', '0.25', 4, 2],
      ['0.125', '0.125', 8, 3],
      ['0.00000001', '0.00000001', 100_000_000, 8],
      ['0.50', '0.5', 2, 1],
      ['1.000', '1', 1, 0],
      ['.2', '0.2', 5, 1],
    ];
    for (const [input, text, scale, decimals] of cases) {
      const tick = new TickSize(input);
      expect(tick.text, input).toBe(text);
      expect(tick.priceScale, input).toBe(scale);
      expect(tick.decimals, input).toBe(decimals);
      expect(tick.money, input).toBe(parseMoney(text));
      expect(tick.money * BigInt(scale), input).toBe(MONEY_ONE);
    }
  });

  it('rejects ticks whose price scale is not an integer', () => {
    expect(() => new TickSize('0.3')).toThrow(/price_scale/);
    expect(() => new TickSize('5')).toThrow(/price_scale/);
    expect(() => new TickSize('2')).toThrow(RangeError);
    expect(() => new TickSize('0.15')).toThrow(RangeError);
  });

  it('rejects zero, negative, malformed and over-precise ticks', () => {
    for (const text of ['0', '0.000', '-0.5', '', 'abc', '1e-2', '0.0000000000000000001']) {
      expect(() => new TickSize(text), text).toThrow(RangeError);
    }
  });

  it('rejects a tick whose price scale is not a safe integer', () => {
    expect(() => new TickSize('0.000000000000000001')).toThrow(/2\^53/);
  });
});

describe('TickSize.toTicks', () => {
  it('converts valid price texts to exact tick counts', () => {
    const half = new TickSize('0.5');
    expect(half.toTicks('100')).toBe(200);
    expect(half.toTicks('100.')).toBe(200);
    expect(half.toTicks('100.50')).toBe(201);
    expect(half.toTicks('0.5')).toBe(1);
    expect(half.toTicks('0')).toBe(0);
    expect(half.toTicks('0.000')).toBe(0);
    expect(new TickSize('0.25').toTicks('007.25')).toBe(29);
    expect(new TickSize('0.01').toTicks('1325')).toBe(132_500);
    expect(new TickSize('0.125').toTicks('0.375')).toBe(3);
    expect(new TickSize('1').toTicks('42')).toBe(42);
  });

  it('returns undefined for prices that are not a multiple of the tick', () => {
    const half = new TickSize('0.5');
    expect(half.toTicks('007.25')).toBeUndefined();
    expect(half.toTicks('100.3')).toBeUndefined();
    expect(half.toTicks('0.0000000000000000000000000001')).toBeUndefined();
    expect(new TickSize('1').toTicks('1.5')).toBeUndefined();
    expect(new TickSize('0.01').toTicks('1.001')).toBeUndefined();
  });

  it('handles long texts exactly through the bigint fallback', () => {
    const half = new TickSize('0.5');
    expect(half.toTicks('1.50000000000000000000000000000')).toBe(3);
    expect(half.toTicks('0000000000000000000000000001.5')).toBe(3);
    expect(new TickSize('0.01').toTicks('90071992547409.91')).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('returns undefined when the tick count is not a safe integer', () => {
    expect(new TickSize('1').toTicks('9007199254740992')).toBeUndefined();
    expect(new TickSize('0.01').toTicks('9007199254740991')).toBeUndefined();
    expect(new TickSize('0.5').toTicks('123456789012345678901234')).toBeUndefined();
  });

  it('throws a RangeError for text outside the price pattern', () => {
    const tick = new TickSize('0.5');
    for (const text of ['', '.', '.5', '-1', '+1', '1e5', '1..2', '1.2.3', ' 1', '1 ', '1,5', 'abc', '1.5x']) {
      expect(() => tick.toTicks(text), text).toThrow(RangeError);
    }
    expect(() => tick.toTicks('1234567890123456789012345x')).toThrow(RangeError);
  });

  it('agrees with decimal arithmetic on seeded random price texts', () => {
    const rng = new RandomStream('price-to-ticks');
    for (let i = 0; i < 5000; i++) {
      const tick = new TickSize(rng.pick(TICKS));
      const intPart = randomDigits(rng, rng.int(1, 12));
      const fraction = randomDigits(rng, rng.int(0, 10));
      const text = intPart + (fraction === '' ? rng.pick(['', '.']) : '.' + fraction);
      expect(tick.toTicks(text), `${text} / ${tick.text}`).toBe(referenceTicks(tick, text));
    }
  });
});

describe('TickSize.toPrice', () => {
  it('writes the minimal decimal text of a tick count', () => {
    const half = new TickSize('0.5');
    expect(half.toPrice(3)).toBe('1.5');
    expect(half.toPrice(4)).toBe('2');
    expect(half.toPrice(0)).toBe('0');
    expect(half.toPrice(-0)).toBe('0');
    expect(half.toPrice(-3)).toBe('-1.5');
    expect(half.toPrice(-1)).toBe('-0.5');
    const cent = new TickSize('0.01');
    expect(cent.toPrice(132_500)).toBe('1325');
    expect(cent.toPrice(132_550)).toBe('1325.5');
    expect(cent.toPrice(1)).toBe('0.01');
    expect(cent.toPrice(-10)).toBe('-0.1');
    expect(new TickSize('0.125').toPrice(1)).toBe('0.125');
    expect(new TickSize('0.125').toPrice(4)).toBe('0.5');
    expect(new TickSize('1').toPrice(42)).toBe('42');
    expect(new TickSize('0.00000001').toPrice(1)).toBe('0.00000001');
  });

  it('is exact for the largest safe tick counts', () => {
    expect(new TickSize('0.25').toPrice(Number.MAX_SAFE_INTEGER)).toBe('2251799813685247.75');
    expect(new TickSize('0.125').toPrice(-Number.MAX_SAFE_INTEGER)).toBe('-1125899906842623.875');
    expect(new TickSize('0.00000001').toPrice(Number.MAX_SAFE_INTEGER)).toBe('90071992.54740991');
  });

  it('throws a RangeError for non-integer or unsafe tick counts', () => {
    const tick = new TickSize('0.5');
    expect(() => tick.toPrice(1.5)).toThrow(RangeError);
    expect(() => tick.toPrice(Number.MAX_SAFE_INTEGER + 1)).toThrow(RangeError);
    expect(() => tick.toPrice(NaN)).toThrow(RangeError);
  });

  it('round-trips price text to ticks and back for seeded random tick sizes and prices', () => {
    const rng = new RandomStream('price-roundtrip');
    for (let i = 0; i < 10_000; i++) {
      const tick = new TickSize(rng.pick(TICKS));
      const ticks = randomTicks(rng);
      const text = tick.toPrice(ticks);
      expect(text).toMatch(MINIMAL);
      expect(new Big(text).eq(new Big(tick.text).times(ticks)), text).toBe(true);
      expect(tick.toTicks(text)).toBe(ticks);
      // Padding with zeros changes the text, not the price.
      const padded = '00' + text + (text.includes('.') ? '000' : '.000');
      expect(tick.toTicks(padded), padded).toBe(ticks);
      // Half a tick more is never a multiple of the tick.
      const offGrid = new Big(text).plus(new Big(tick.text).div(2)).toFixed();
      expect(tick.toTicks(offGrid), offGrid).toBeUndefined();
    }
  });
});

describe('TickSize money conversions', () => {
  it('converts ticks to Money for numbers, bigints and negatives', () => {
    const half = new TickSize('0.5');
    expect(half.toMoney(3)).toBe(parseMoney('1.5'));
    expect(half.toMoney(3n)).toBe(parseMoney('1.5'));
    expect(half.toMoney(-1)).toBe(parseMoney('-0.5'));
    expect(half.toMoney(0)).toBe(0n);
    expect(new TickSize('0.01').toMoney(132_500)).toBe(1325n * MONEY_ONE);
    expect(() => half.toMoney(0.5)).toThrow(RangeError);
  });

  it('rounds Money to the nearest tick, ties to the even tick', () => {
    const half = new TickSize('0.5');
    expect(half.fromMoneyRounded(parseMoney('1.25'))).toBe(2);
    expect(half.fromMoneyRounded(parseMoney('1.75'))).toBe(4);
    expect(half.fromMoneyRounded(parseMoney('1.3'))).toBe(3);
    expect(half.fromMoneyRounded(parseMoney('-1.25'))).toBe(-2);
    expect(half.fromMoneyRounded(parseMoney('-1.3'))).toBe(-3);
    expect(new TickSize('0.01').fromMoneyRounded(parseMoney('1.005'))).toBe(100);
    expect(new TickSize('0.01').fromMoneyRounded(parseMoney('1.015'))).toBe(102);
  });

  it('throws when the rounded tick count is not a safe integer', () => {
    expect(() => new TickSize('1').fromMoneyRounded(2n ** 53n * MONEY_ONE)).toThrow(RangeError);
  });

  it('round-trips ticks through Money for seeded random values', () => {
    const rng = new RandomStream('price-money');
    for (let i = 0; i < 3000; i++) {
      const tick = new TickSize(rng.pick(TICKS));
      const magnitude = randomTicks(rng);
      const ticks = rng.chance(0.5) ? 0 - magnitude : magnitude;
      expect(tick.fromMoneyRounded(tick.toMoney(ticks))).toBe(ticks);
    }
  });
});

describe('TickSize.formatRatioPrice', () => {
  it('formats averages exactly when they terminate', () => {
    const cent = new TickSize('0.01');
    expect(cent.formatRatioPrice(10_000n + 10_050n, 2n)).toBe('100.25');
    expect(cent.formatRatioPrice(10_000n * 3n + 10_001n, 4n)).toBe('100.0025');
    expect(new TickSize('0.5').formatRatioPrice(3n, 2n)).toBe('0.75');
    expect(new TickSize('0.5').formatRatioPrice(0n, 5n)).toBe('0');
    expect(cent.formatRatioPrice(-300n, 2n)).toBe('-1.5');
    expect(cent.formatRatioPrice(300n, -2n)).toBe('-1.5');
  });

  it('rounds non-terminating averages half to even at tick decimals plus extra decimals', () => {
    const cent = new TickSize('0.01');
    expect(cent.formatRatioPrice(100n, 3n)).toBe('0.3333333333');
    expect(cent.formatRatioPrice(200n, 3n)).toBe('0.6666666667');
    expect(cent.formatRatioPrice(200n, 3n, 2)).toBe('0.6667');
    const one = new TickSize('1');
    expect(one.formatRatioPrice(5n, 2n, 0)).toBe('2');
    expect(one.formatRatioPrice(7n, 2n, 0)).toBe('4');
    expect(one.formatRatioPrice(1n, 3n)).toBe('0.33333333');
  });

  it('throws for a zero denominator or a bad extra-decimals count', () => {
    const cent = new TickSize('0.01');
    expect(() => cent.formatRatioPrice(1n, 0n)).toThrow(RangeError);
    expect(() => cent.formatRatioPrice(1n, 1n, -1)).toThrow(RangeError);
  });

  it('equals toPrice whenever the average is a whole tick count', () => {
    const rng = new RandomStream('price-ratio');
    for (let i = 0; i < 3000; i++) {
      const tick = new TickSize(rng.pick(TICKS));
      const ticks = randomTicks(rng);
      const den = BigInt(rng.int(1, 1000));
      expect(tick.formatRatioPrice(BigInt(ticks) * den, den)).toBe(tick.toPrice(ticks));
    }
  });
});
