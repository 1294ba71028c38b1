import fc from 'fast-check';
import { describe, it, expect } from 'vitest';
import {
  DEFAULT_FUNDING_CAP_RATE,
  DEFAULT_FUNDING_SCHEDULE,
  TimeWeightedPrice,
  computeFunding,
  dailySchedule,
  hourlySchedule,
  nextFundingSec,
  type FundingSchedule,
} from '../../src/market/funding.ts';
import { gcd } from '../../src/market/rational.ts';
import { RandomStream } from '../../src/random/random-stream.ts';

const H = 3600;
/** A whole-tick benchmark as a rational. */
const bench = (ticks: number) => ({ num: BigInt(ticks), den: 1n });
const JAN1 = Date.UTC(2024, 0, 1) / 1000;

describe('nextFundingSec', () => {
  it('moves from exactly 08:00 UTC to 16:00 UTC on the default 8-hour schedule', () => {
    expect(nextFundingSec(JAN1 + 8 * H, DEFAULT_FUNDING_SCHEDULE)).toBe(JAN1 + 16 * H);
  });

  it('returns 08:00 UTC from just before it and 16:00 UTC from just after it', () => {
    expect(nextFundingSec(JAN1 + 8 * H - 1)).toBe(JAN1 + 8 * H);
    expect(nextFundingSec(JAN1 + 8 * H + 1)).toBe(JAN1 + 16 * H);
  });

  it('returns the next midnight from 16:00 UTC and 08:00 UTC from midnight', () => {
    expect(nextFundingSec(JAN1 + 16 * H)).toBe(JAN1 + 24 * H);
    expect(nextFundingSec(JAN1)).toBe(JAN1 + 8 * H);
    expect(nextFundingSec(JAN1 - 1)).toBe(JAN1);
  });

  it('funds on the hour with the hourly schedule', () => {
    expect(nextFundingSec(JAN1 + 5 * H, hourlySchedule())).toBe(JAN1 + 6 * H);
    expect(nextFundingSec(JAN1 + 5 * H - 1, hourlySchedule())).toBe(JAN1 + 5 * H);
    expect(nextFundingSec(JAN1 + 5 * H + 1800, hourlySchedule())).toBe(JAN1 + 6 * H);
    expect(nextFundingSec(JAN1 + 5 * H, hourlySchedule(900))).toBe(JAN1 + 5 * H + 900);
  });

  it('funds at midnight UTC or at the given time of day with the daily schedule', () => {
    expect(nextFundingSec(JAN1, dailySchedule())).toBe(JAN1 + 24 * H);
    expect(nextFundingSec(JAN1 + 1, dailySchedule())).toBe(JAN1 + 24 * H);
    expect(nextFundingSec(JAN1 - 1, dailySchedule())).toBe(JAN1);
    expect(nextFundingSec(JAN1 + 13 * H, dailySchedule(12 * H))).toBe(JAN1 + 36 * H);
    expect(nextFundingSec(JAN1 + 11 * H, dailySchedule(12 * H))).toBe(JAN1 + 12 * H);
  });

  it('rejects invalid schedules and times', () => {
    expect(() => nextFundingSec(0, { intervalSec: 0, offsetSec: 0 })).toThrow(RangeError);
    expect(() => nextFundingSec(0, { intervalSec: 1.5, offsetSec: 0 })).toThrow(RangeError);
    expect(() => nextFundingSec(0, { intervalSec: 60, offsetSec: 0.5 })).toThrow(RangeError);
    expect(() => nextFundingSec(0.5)).toThrow(RangeError);
    expect(() => hourlySchedule(Number.NaN)).toThrow(RangeError);
  });

  it('agrees with a second-by-second scan for seeded random times and schedules', () => {
    const rng = new RandomStream('funding-next');
    const schedules: FundingSchedule[] = [DEFAULT_FUNDING_SCHEDULE, hourlySchedule(), dailySchedule(), hourlySchedule(-125)];
    for (let i = 0; i < 200; i++) {
      const schedule = rng.pick(schedules);
      const after = JAN1 + rng.int(-2 * 86400, 2 * 86400);
      let t = after + 1;
      while ((((t - schedule.offsetSec) % schedule.intervalSec) + schedule.intervalSec) % schedule.intervalSec !== 0) t++;
      expect(nextFundingSec(after, schedule)).toBe(t);
    }
  });
});

describe('TimeWeightedPrice', () => {
  it('averages 100 for 2 s then 110 for 1 s to exactly 310/3 ticks', () => {
    const twap = new TimeWeightedPrice();
    twap.reset(JAN1, 0, 100);
    twap.update(JAN1 + 2, 0, 110);
    expect(twap.average(JAN1 + 3, 0)).toEqual({ numTicks: 310n, den: 3n });
  });

  it('weights by nanoseconds', () => {
    const twap = new TimeWeightedPrice();
    twap.reset(10, 999_999_999, 100);
    twap.update(11, 0, 200); // 1 ns at 100
    expect(twap.average(11, 1)).toEqual({ numTicks: 150n, den: 1n });
    expect(twap.average(11, 2)).toEqual({ numTicks: 500n, den: 3n });
    expect(twap.average(11, 3)).toEqual({ numTicks: 175n, den: 1n });
  });

  it('returns the current price with denominator 1 when no time has passed', () => {
    const twap = new TimeWeightedPrice();
    twap.reset(5, 7, 123);
    expect(twap.average(5, 7)).toEqual({ numTicks: 123n, den: 1n });
    twap.update(5, 7, 130);
    expect(twap.average(5, 7)).toEqual({ numTicks: 130n, den: 1n });
  });

  it('lets only the last of several updates at one instant carry weight', () => {
    const twap = new TimeWeightedPrice();
    twap.reset(0, 0, 100);
    twap.update(1, 0, 500);
    twap.update(1, 0, 120);
    expect(twap.average(2, 0)).toEqual({ numTicks: 110n, den: 1n });
  });

  it('forgets the previous window on reset', () => {
    const twap = new TimeWeightedPrice();
    twap.reset(0, 0, 100);
    twap.update(5, 0, 300);
    twap.reset(8, 0, 50);
    expect(twap.average(10, 0)).toEqual({ numTicks: 50n, den: 1n });
    expect(twap.currentPriceTicks).toBe(50);
  });

  it('rejects time going back, bad nanoseconds and use before reset', () => {
    const twap = new TimeWeightedPrice();
    expect(twap.currentPriceTicks).toBeUndefined();
    expect(() => twap.update(1, 0, 100)).toThrow(Error);
    expect(() => twap.average(1, 0)).toThrow(Error);
    twap.reset(10, 500, 100);
    expect(() => twap.update(10, 499, 100)).toThrow(RangeError);
    expect(() => twap.average(9, 0)).toThrow(RangeError);
    expect(() => twap.reset(10, 0, 100)).toThrow(RangeError);
    expect(() => twap.update(11, 1_000_000_000, 100)).toThrow(RangeError);
    expect(() => twap.update(11, -1, 100)).toThrow(RangeError);
    expect(() => twap.update(11, 0, 100.5)).toThrow(RangeError);
    expect(twap.average(11, 500)).toEqual({ numTicks: 100n, den: 1n });
  });

  it('matches a brute-force recomputation over seeded random price paths', () => {
    for (const seed of ['twap-1', 'twap-2', 'twap-3']) {
      const rng = new RandomStream(seed);
      const twap = new TimeWeightedPrice();
      let t = BigInt(JAN1) * 1_000_000_000n + BigInt(rng.int(0, 999_999_999));
      const points: { t: bigint; price: number }[] = [{ t, price: rng.int(1, 100_000) }];
      const split = (ns: bigint): [number, number] => [Number(ns / 1_000_000_000n), Number(ns % 1_000_000_000n)];
      twap.reset(...split(t), points[0]!.price);
      for (let step = 0; step < 300; step++) {
        t += BigInt(rng.pick([0, rng.int(1, 1_000), rng.int(1, 1_000_000_000), rng.int(1, 60) * 1_000_000_000]));
        if (rng.chance(0.7)) {
          const price = rng.int(1, 100_000);
          points.push({ t, price });
          twap.update(...split(t), price);
        }
        // Brute force by Abel summation: p0 × (T − t0) + Σ (p_i − p_{i−1}) × (T − t_i).
        const total = t - points[0]!.t;
        let num = BigInt(points[0]!.price) * total;
        for (let i = 1; i < points.length; i++) {
          num += BigInt(points[i]!.price - points[i - 1]!.price) * (t - points[i]!.t);
        }
        const got = twap.average(...split(t));
        if (total === 0n) {
          expect(got).toEqual({ numTicks: BigInt(points[points.length - 1]!.price), den: 1n });
        } else {
          expect(got.numTicks * total).toBe(num * got.den);
          expect(got.den > 0n).toBe(true);
          expect(gcd(got.numTicks, got.den)).toBe(1n);
        }
      }
    }
  });
});

describe('TimeWeightedPrice.saveTo / restoreFrom', () => {
  it('puts the window back as it was: later updates, same-instant ones included, leave no trace', () => {
    for (const seed of ['twap-undo-1', 'twap-undo-2', 'twap-undo-3']) {
      const rng = new RandomStream(seed);
      const twap = new TimeWeightedPrice();
      const twin = new TimeWeightedPrice();
      let sec = JAN1;
      twap.reset(sec, 0, 50_000);
      twin.reset(sec, 0, 50_000);
      for (let round = 0; round < 40; round++) {
        const nums = new Float64Array(3);
        const refs: unknown[] = [];
        twap.saveTo(nums, 0, { ref: (v) => refs.push(v) });
        // Updates the twin never sees (some at the saved instant itself), then the undo.
        let s = sec;
        for (let k = rng.int(1, 5); k > 0; k--) {
          s += rng.pick([0, 0, 1]);
          twap.update(s, 0, rng.int(1, 100_000));
        }
        twap.restoreFrom(nums, 0, refs, 0);
        expect(twap.currentPriceTicks).toBe(twin.currentPriceTicks);
        expect(twap.average(s + 1, 0)).toEqual(twin.average(s + 1, 0));
        // Then both move on together (at the same instant or later).
        sec += rng.pick([0, 1, 7]);
        const price = rng.int(1, 100_000);
        twap.update(sec, 0, price);
        twin.update(sec, 0, price);
        expect(twap.average(sec + 3, 0)).toEqual(twin.average(sec + 3, 0));
      }
    }
  });
});

describe('computeFunding', () => {
  it('computes amount and rate exactly when the rate is within the cap', () => {
    // benchmark 1000, settlement 1010.1 → amount 10.1 ticks, rate 1.01 %.
    expect(computeFunding(bench(1000), { num: 10_101n, den: 10n }, DEFAULT_FUNDING_CAP_RATE)).toEqual({
      amountNum: 101n,
      amountDen: 10n,
      rateNum: 101n,
      rateDen: 10_000n,
      clamped: false,
    });
  });

  it('clamps a positive rate to the cap and recomputes the amount from it', () => {
    // benchmark 100, settlement 310/3 → raw rate 1/30 > 2 % → rate 1/50, amount 2 ticks.
    expect(computeFunding(bench(100), { num: 310n, den: 3n }, DEFAULT_FUNDING_CAP_RATE)).toEqual({
      amountNum: 2n,
      amountDen: 1n,
      rateNum: 1n,
      rateDen: 50n,
      clamped: true,
    });
  });

  it('clamps a negative rate to minus the cap', () => {
    // benchmark 100, settlement 90 → raw rate −10 % → rate −1/50, amount −2 ticks (shorts pay longs).
    expect(computeFunding(bench(100), { num: 90n, den: 1n }, DEFAULT_FUNDING_CAP_RATE)).toEqual({
      amountNum: -2n,
      amountDen: 1n,
      rateNum: -1n,
      rateDen: 50n,
      clamped: true,
    });
  });

  it('does not count a rate exactly at the cap as clamped', () => {
    expect(computeFunding(bench(100), { num: 102n, den: 1n }, DEFAULT_FUNDING_CAP_RATE)).toMatchObject({ amountNum: 2n, clamped: false });
    expect(computeFunding(bench(100), { num: 98n, den: 1n }, DEFAULT_FUNDING_CAP_RATE)).toMatchObject({ amountNum: -2n, clamped: false });
  });

  it('returns zero as 0/1 when the settlement equals the benchmark', () => {
    expect(computeFunding(bench(250), { num: 500n, den: 2n }, DEFAULT_FUNDING_CAP_RATE)).toEqual({
      amountNum: 0n,
      amountDen: 1n,
      rateNum: 0n,
      rateDen: 1n,
      clamped: false,
    });
  });

  it('rejects a non-positive benchmark, a non-positive denominator and a negative cap', () => {
    expect(() => computeFunding(bench(0), { num: 1n, den: 1n }, DEFAULT_FUNDING_CAP_RATE)).toThrow(RangeError);
    expect(() => computeFunding(bench(-5), { num: 1n, den: 1n }, DEFAULT_FUNDING_CAP_RATE)).toThrow(RangeError);
    expect(() => computeFunding(bench(100), { num: 1n, den: 0n }, DEFAULT_FUNDING_CAP_RATE)).toThrow(RangeError);
    expect(() => computeFunding(bench(100), { num: 1n, den: 1n }, { num: 1n, den: 0n })).toThrow(RangeError);
    expect(() => computeFunding(bench(100), { num: 1n, den: 1n }, { num: -1n, den: 50n })).toThrow(RangeError);
  });

  it('satisfies amount = rate × benchmark and the cap for seeded random inputs', () => {
    const rng = new RandomStream('funding-compute');
    for (let i = 0; i < 2_000; i++) {
      const b = rng.int(1, 1_000_000);
      const sDen = BigInt(rng.int(1, 1_000_000_000));
      const sNum = (BigInt(b) * sDen * BigInt(rng.int(900, 1100))) / 1000n + BigInt(rng.int(-1000, 1000));
      const cap = { num: BigInt(rng.int(0, 50)), den: BigInt(rng.int(1, 1000)) };
      const r = computeFunding(bench(b), { num: sNum, den: sDen }, cap);
      const B = BigInt(b);
      for (const [n, d] of [[r.amountNum, r.amountDen], [r.rateNum, r.rateDen]] as const) {
        expect(d > 0n).toBe(true);
        expect(gcd(n, d)).toBe(n === 0n ? d : 1n);
      }
      // amount = rate × benchmark, always.
      expect(r.amountNum * r.rateDen).toBe(r.rateNum * B * r.amountDen);
      // Raw rate = (sNum − B·sDen) / (sDen·B); clamped exactly when |raw| > cap.
      const rawNum = sNum - B * sDen;
      const rawDen = sDen * B;
      const absRaw = rawNum < 0n ? -rawNum : rawNum;
      const beyond = absRaw * cap.den > cap.num * rawDen;
      expect(r.clamped).toBe(beyond);
      if (beyond) {
        const sign = rawNum < 0n ? -1n : 1n;
        expect(r.rateNum * cap.den).toBe(sign * cap.num * r.rateDen);
      } else {
        expect(r.amountNum * sDen).toBe(rawNum * r.amountDen);
      }
    }
  });

  it('takes a time-weighted benchmark as an exact fraction: settlement 100.5 over benchmark 100.25 is a premium of 1/401', () => {
    // benchmark 401/4, settlement 201/2 → amount 1/4 tick, rate (1/4) / (401/4) = 1/401.
    expect(computeFunding({ num: 401n, den: 4n }, { num: 201n, den: 2n }, DEFAULT_FUNDING_CAP_RATE)).toEqual({
      amountNum: 1n, amountDen: 4n, rateNum: 1n, rateDen: 401n, clamped: false,
    });
  });

  it('adds the interest component Binance style: rate = premium + clamp(interest − premium, ±0.05 %)', () => {
    const interest = { num: 1n, den: 10_000n }; // 0.01 % per interval
    // premium 0 → rate = interest 0.01 %, amount = 0.0001 × 10000 = 1 tick.
    expect(computeFunding(bench(10_000), bench(10_000), DEFAULT_FUNDING_CAP_RATE, interest)).toEqual({
      amountNum: 1n, amountDen: 1n, rateNum: 1n, rateDen: 10_000n, clamped: false,
    });
    // premium 0.03 % → interest − premium = −0.02 % inside the clamp → rate = interest 0.01 %.
    expect(computeFunding(bench(10_000), bench(10_003), DEFAULT_FUNDING_CAP_RATE, interest)).toMatchObject({ rateNum: 1n, rateDen: 10_000n });
    // premium 0.1 % → interest − premium = −0.09 %, clamped to −0.05 % → rate 0.05 %.
    expect(computeFunding(bench(10_000), bench(10_010), DEFAULT_FUNDING_CAP_RATE, interest)).toMatchObject({ rateNum: 1n, rateDen: 2_000n, amountNum: 5n, amountDen: 1n });
    // premium −0.1 % → interest − premium = +0.11 %, clamped to +0.05 % → rate −0.05 %.
    expect(computeFunding(bench(10_000), bench(9_990), DEFAULT_FUNDING_CAP_RATE, interest)).toMatchObject({ rateNum: -1n, rateDen: 2_000n, amountNum: -5n });
    // An explicit zero interest still clamps: a premium of 0.03 % pays nothing (Binance's dead band).
    expect(computeFunding(bench(10_000), bench(10_003), DEFAULT_FUNDING_CAP_RATE, { num: 0n, den: 1n })).toMatchObject({ rateNum: 0n, amountNum: 0n });
  });

  it('applies the cap after the interest component', () => {
    // premium 3 % → 3 % − 0.05 % = 2.95 %, then capped to 2 %.
    expect(computeFunding(bench(100), bench(103), DEFAULT_FUNDING_CAP_RATE, { num: 0n, den: 1n })).toEqual({
      amountNum: 2n, amountDen: 1n, rateNum: 1n, rateDen: 50n, clamped: true,
    });
  });

  it('keeps amount = rate × benchmark and |rate − premium| ≤ 0.05 % with interest, on random fractions', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 12n }), fc.bigInt({ min: 1n, max: 10n ** 6n }),
        fc.bigInt({ min: 1n, max: 10n ** 12n }), fc.bigInt({ min: 1n, max: 10n ** 6n }),
        fc.bigInt({ min: -100n, max: 100n }),
        (bN, bD, sN, sD, interestBp) => {
          const interest = { num: interestBp, den: 10_000n };
          const r = computeFunding({ num: bN, den: bD }, { num: sN, den: sD }, DEFAULT_FUNDING_CAP_RATE, interest);
          expect(r.amountNum * r.rateDen * bD).toBe(r.rateNum * bN * r.amountDen);
          // |rate| ≤ cap
          const absRate = r.rateNum < 0n ? -r.rateNum : r.rateNum;
          expect(absRate * 50n <= r.rateDen).toBe(true);
          if (!r.clamped) {
            // premium = (sN·bD − bN·sD) / (sD·bN); |rate − premium| ≤ 1/2000
            const pN = sN * bD - bN * sD;
            const pD = sD * bN;
            const diff = r.rateNum * pD - pN * r.rateDen; // over rateDen·pD
            const absDiff = diff < 0n ? -diff : diff;
            expect(absDiff * 2000n <= r.rateDen * pD).toBe(true);
          }
        },
      ),
      { seed: 14, numRuns: 300 },
    );
  });
});
