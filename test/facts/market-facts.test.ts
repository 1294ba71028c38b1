import { describe, expect, it } from 'vitest';
import { MarketFacts } from '../../src/facts/market-facts.ts';
import { correlation } from '../../src/facts/math.ts';
import type { MarketRecord } from '../../src/replay/market-records.ts';

const S = 1_000_000_000n;
const sym = 'TEST-PERP';
const quote = (tSec: number, bid: number, ask: number, bidQty = 1, askQty = 1): MarketRecord =>
  ({ kind: 'quote', recvNs: BigInt(tSec * 1000) * 1_000_000n, exchNs: BigInt(tSec * 1000) * 1_000_000n, symbol: sym, bidTicks: bid, bidQtyLots: bidQty, askTicks: ask, askQtyLots: askQty });
const book = (tSec: number, side: 'B' | 'S', price: number, qty: number, reset = false): MarketRecord =>
  ({ kind: 'book', recvNs: BigInt(tSec) * S, exchNs: BigInt(tSec) * S, symbol: sym, reset, side, priceTicks: price, qtyLots: qty });
const trade = (tMs: number, price: number, qty: number): MarketRecord =>
  ({ kind: 'trade', recvNs: BigInt(tMs) * 1_000_000n, exchNs: BigInt(tMs) * 1_000_000n, symbol: sym, side: 'B', priceTicks: price, qtyLots: qty, tradeId: undefined });
const stats = (tSec: number, fields: { markPrice?: string; indexPrice?: string; fundingRate?: string }): MarketRecord =>
  ({ kind: 'stats', recvNs: BigInt(tSec) * S, exchNs: BigInt(tSec) * S, symbol: sym, ...fields });

function factsOf(records: MarketRecord[], horizonSec = 60) {
  const f = new MarketFacts({ [sym]: { tickSize: '0.5', lotSize: '1' } }, horizonSec);
  for (const r of records) f.observe(r);
  const [report] = f.report();
  return report!;
}

describe('perpsim facts on hand-computed records', () => {
  it('weights the spread by time: each quote holds until the next one', () => {
    // 1 tick for 3 s, 2 ticks for 1 s, 1 tick for 1 s, then a last quote that carries no weight.
    const r = factsOf([quote(0, 100, 101), quote(3, 100, 102), quote(4, 101, 102), quote(5, 101, 103)]);
    expect(r.spread).toEqual({ source: 'quotes', share_1_tick: 0.8, mean_ticks: 1.2, p50_ticks: 1, p95_ticks: 2 });
    expect(r.tick_size).toBe('0.5');
    expect(r.duration_sec).toBe(5);
  });

  it('measures depth within 1, 2, 5 and 10 ticks of the mid from the rebuilt book', () => {
    const r = factsOf([
      // t = 0: bids 99×2, 98×3, 95×4, 90×100; asks 100×1, 101×5, 110×7; mid 99.5.
      book(0, 'B', 99, 2, true), book(0, 'B', 98, 3), book(0, 'B', 95, 4), book(0, 'B', 90, 100),
      book(0, 'S', 100, 1), book(0, 'S', 101, 5), book(0, 'S', 110, 7),
      // t = 1: the ask at 100 goes; mid 100, spread 2.
      book(1, 'S', 100, 0),
      // t = 3: a last change (no weight after it).
      book(3, 'B', 90, 0),
    ]);
    // Within d of 99.5 (1 s): 3, 11, 15, 115. Within d of 100 (2 s): 7, 10, 14, 121.
    expect(r.depth.within_ticks['1']).toBeCloseTo((3 + 2 * 7) / 3, 12);
    expect(r.depth.within_ticks['2']).toBeCloseTo((11 + 2 * 10) / 3, 12);
    expect(r.depth.within_ticks['5']).toBeCloseTo((15 + 2 * 14) / 3, 12);
    expect(r.depth.within_ticks['10']).toBeCloseTo((115 + 2 * 121) / 3, 12);
    expect(r.depth.ratio_10_to_1_ticks).toBeCloseTo(357 / 17, 12);
    // In bps of the mid: 1 bp of 99.5 ticks is 0.00995 ticks, 10 bps 0.0995: nothing within either.
    expect(r.depth.within_bps['10']).toBe(0);
    expect(r.depth.touch_lots).toBeCloseTo((3 + 2 * 7) / 3, 12);
    expect(r.spread).toMatchObject({ source: 'book', share_1_tick: 1 / 3, p50_ticks: 2 });
  });

  it('measures depth in basis points of the mid too', () => {
    // mid 10000.5: 1 bp ≈ 1.00005 ticks, 10 bps ≈ 10.0005 ticks.
    const r = factsOf([
      book(0, 'B', 10_000, 2, true), book(0, 'B', 9_995, 3), book(0, 'B', 9_990, 4),
      book(0, 'S', 10_001, 1), book(0, 'S', 10_010, 5),
      book(2, 'S', 10_010, 5), // same book again: a second observation so the first has weight
    ]);
    // Within 1, 2, 5 bps: the touch (0.5 away) only; within 10 bps also 9995 (5.5) and 10010 (9.5), not 9990 (10.5).
    expect(r.depth.within_bps).toEqual({ '1': 3, '2': 3, '5': 3, '10': 11 });
    expect(r.depth.ratio_10_to_1_bps).toBeCloseTo(11 / 3, 12);
  });

  it('takes trade sizes per print and inter-arrival times between distinct trade instants', () => {
    const r = factsOf([trade(0, 100, 1), trade(0, 100, 1), trade(250, 101, 2), trade(1000, 99, 10)]);
    expect(r.trades).toEqual({
      count: 4,
      size_mean_lots: 3.5,
      size_median_lots: 1.5,
      size_p95_lots: expect.closeTo(8.8, 12), // sorted 1 1 2 10, position 2.85
      size_tail_index: Number.NaN, // 4 prints: too few for a tail
      interarrival_median_ms: 500, // gaps 250 and 750 (the two prints at 0 are one arrival)
      interarrival_p95_ms: 725,
      interarrival_mean_ms: 500,
    });
  });

  it('builds returns from the last trade of each minute (else the last mid) and never across an empty minute', () => {
    const r = factsOf([
      trade(10_000, 1000, 1),
      trade(70_000, 1020, 2), trade(80_000, 1010, 1), // minute 1: last trade 1010, volume 3
      quote(130, 1029, 1031), // minute 2: no trade, mid 1030
      // minute 3: nothing → the series breaks
      trade(250_000, 1040, 5), // minute 4
      trade(310_000, 1144, 4), // minute 5
    ]);
    const returns = [Math.log(1010 / 1000), Math.log(1030 / 1010), Math.log(1144 / 1040)];
    expect(r.returns.count).toBe(3);
    const m3 = (returns[0]! + returns[1]! + returns[2]!) / 3;
    expect(r.returns.std_dev).toBeCloseTo(Math.sqrt(returns.reduce((acc, x) => acc + (x - m3) ** 2, 0) / 3), 12);
    expect(r.returns.beyond_4sd).toBe(0); // three returns cannot be 4 sd from their mean
    expect(r.last_mid_ticks).toBe(1030);
    expect(r.returns.horizon_sec).toBe(60);
    // volumes of the returns' minutes: 3, 0, 4 (minute 4 starts a new segment: no return).
    expect(r.returns.volume_abs_return_corr).toBeCloseTo(correlation([3, 0, 4], returns.map(Math.abs)), 12);
    // lag 1 pairs only inside the first segment: (r1, r2).
    const m = (returns[0]! + returns[1]! + returns[2]!) / 3;
    const den = returns.reduce((s, x) => s + (x - m) ** 2, 0);
    expect(r.returns.acf[0]).toBeCloseTo(((returns[0]! - m) * (returns[1]! - m)) / den, 12);
    expect(r.returns.acf).toHaveLength(10);
    expect(r.returns.abs_acf).toHaveLength(60);
  });

  it('averages the basis over mark records and scales funding to 8 hours, checking its sign against the basis', () => {
    const H = 3600;
    // Tick 0.5: a mid of 202 ticks is a price of 101.
    const r = factsOf([
      stats(0, { indexPrice: '100' }),
      quote(30, 201, 203), // mid 202 ticks = 101: +100 bps
      stats(60, { markPrice: '101' }), // mark +100 bps
      quote(90, 203, 205), // mid 102: +200 bps
      stats(120, { markPrice: '102' }), // mark +200 bps
      stats(8 * H, { fundingRate: '0.001' }), // 8 h interval, mid basis +150 bps: same sign
      quote(9 * H - 10, 197, 199), // mid 99: −100 bps
      stats(9 * H, { markPrice: '100' }), // mark 0 bps
      stats(12 * H, { fundingRate: '0.0005' }), // 4 h interval (0.001 per 8 h), mid basis −100 bps: opposite sign
    ]);
    expect(r.basis.samples).toBe(3);
    expect(r.basis.mean_bps).toBeCloseTo(100, 9); // (100 + 200 + 0) / 3
    expect(r.basis.mid_samples).toBe(3);
    expect(r.basis.mid_mean_bps).toBeCloseTo(200 / 3, 9);
    expect(r.funding.settlements).toBe(2);
    expect(r.funding.mean_rate).toBeCloseTo(0.00075, 15);
    expect(r.funding.mean_abs_rate_per_8h).toBeCloseTo(0.001, 15);
    expect(r.funding.sign_follows_basis).toBe(0.5);
  });

  it('reports NaN where the data cannot say, and each symbol on its own', () => {
    const f = new MarketFacts();
    f.observe({ ...trade(0, 100, 1), symbol: 'B-PERP' });
    f.observe({ ...trade(0, 100, 1), symbol: 'A-PERP' });
    const reports = f.report();
    expect(reports.map((x) => x.symbol)).toEqual(['A-PERP', 'B-PERP']);
    expect(reports[0]!.spread.source).toBe('none');
    expect(reports[0]!.spread.mean_ticks).toBeNaN();
    expect(reports[0]!.returns.hill_tail_index).toBeNaN();
    expect(reports[0]!.tick_size).toBeNull();
  });
});
