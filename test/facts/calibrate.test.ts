import { describe, expect, it } from 'vitest';
import { calibrate, multiplyDecimals } from '../../src/facts/calibrate.ts';
import { MarketFacts } from '../../src/facts/market-facts.ts';

describe('calibrate', () => {
  it('multiplies decimal texts exactly', () => {
    expect(multiplyDecimals('0.1', '0.001')).toBe('0.0001');
    expect(multiplyDecimals('0.01', '0.001')).toBe('0.00001');
    expect(multiplyDecimals('0.5', '2')).toBe('1');
    expect(multiplyDecimals('12.5', '0.4')).toBe('5');
  });

  it('fits sizes, rate, spread and depth growth from hand-made facts', () => {
    const base = new MarketFacts({}, 60).report()[0];
    expect(base).toBeUndefined(); // nothing observed: no symbol
    const facts = {
      returns: { count: 100, horizon_sec: 60, std_dev: 0.001, beyond_4sd: 0, beyond_4sd_rms: Number.NaN },
      depth: { ratio_10_to_1_ticks: 4, touch_lots: 100 },
      trades: { size_median_lots: 20, size_p95_lots: 200, interarrival_mean_ms: 50 },
      spread: { share_1_tick: 0.3, mean_ticks: 2 },
    } as never;
    const c = calibrate({ facts, fine: facts });
    // σ = 0.001 per minute → × √(525,960 minutes a year).
    expect(c.volAnnual).toBeCloseTo(0.001 * Math.sqrt((365.25 * 86400) / 60), 3);
    expect(c.jumpsPerDay).toBe(0);
    expect(c.sizeGrowth).toBeCloseTo(1, 3); // 1 + g + g² + g³ = 4 → g = 1
    expect(c.makerSizeLots).toBe(50); // half the touch depth: one side
    expect(c.halfSpreadTicks).toBe(0.5); // (2 − 1) / 2: not the large-tick regime
    expect(c.sizeAlpha).toBeCloseTo(1, 3); // ln 10 / ln(200 / 20)
    expect(c.sizeMinLots).toBe(10); // 20 / 2^(1/1)
    expect(c.noiseRatePerSec).toBeCloseTo(25, 3); // 20 arrivals/s at 80 % marketable
  });
});
