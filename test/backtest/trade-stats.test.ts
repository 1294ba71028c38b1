import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseMoney } from '../../src/core/money.ts';
import { makerMarkoutsBps, touchShares } from '../../src/backtest/maker-stats.ts';
import type { FillRecord } from '../../src/backtest/recorder.ts';
import { adaptiveSampleIntervalNs } from '../../src/backtest/runner.ts';
import { roundTrips, sideExposure, tradeStats } from '../../src/backtest/trade-stats.ts';

const S = 1_000_000_000n;
const m = parseMoney;

interface F {
  sec: number;
  symbol?: string;
  side: 'B' | 'S';
  qty: number;
  after: number;
  realized?: string;
  fee?: string;
  priceTicks?: number;
  maker?: boolean;
  midAfterX2?: (number | null)[];
}

function fill(f: F): FillRecord {
  const priceTicks = f.priceTicks ?? 100;
  return {
    tNs: BigInt(f.sec) * S, symbol: f.symbol ?? 'X', orderId: 'o', tradeId: 't', side: f.side, price: String(priceTicks), priceTicks, bid: null, ask: null,
    midAfterX2: f.midAfterX2 ?? [null, null, null], qty: f.qty, notional: m(String(priceTicks * f.qty)), fee: m(f.fee ?? '0'), realized: m(f.realized ?? '0'),
    maker: f.maker ?? false, liquidation: false, positionAfter: f.after,
  };
}

describe('round trips and trade statistics on hand-computed examples', () => {
  it('closes a trip when the position returns to flat, and a flip closes one trip and opens the next', () => {
    const fills = [
      fill({ sec: 0, side: 'B', qty: 2, after: 2, fee: '1' }), // long trip opens (fee 1)
      fill({ sec: 10, side: 'S', qty: 1, after: 1, realized: '5', fee: '1' }),
      fill({ sec: 30, side: 'S', qty: 3, after: -2, realized: '4', fee: '2' }), // closes long: 5 + 4 − 1 − 1 − 2 = 5; opens short
      fill({ sec: 50, side: 'B', qty: 2, after: 0, realized: '-9', fee: '1' }), // closes short: −9 − 1 = −10
      fill({ sec: 60, side: 'B', qty: 1, after: 1 }), // still open at the end: not counted
    ];
    const trips = roundTrips(fills);
    expect(trips.map((t) => [t.direction, Number(t.openNs / S), Number(t.closeNs / S), t.pnl])).toEqual([
      [1, 0, 30, m('5')],
      [-1, 30, 50, m('-10')],
    ]);
    const stats = tradeStats(trips);
    // 1 win of 2; profit factor 5 / 10; holding (30 + 20) / 2 = 25 s
    expect(stats).toEqual({ trips: 2, wins: 1, losses: 1, winRate: 0.5, profitFactor: 0.5, avgWin: m('5'), avgLoss: m('-10'), avgHoldingNs: 25n * S });
  });

  it('keeps symbols apart and leaves ratios undefined without trips or losses', () => {
    const trips = roundTrips([
      fill({ sec: 0, symbol: 'A', side: 'B', qty: 1, after: 1 }),
      fill({ sec: 1, symbol: 'B', side: 'S', qty: 1, after: -1 }),
      fill({ sec: 4, symbol: 'A', side: 'S', qty: 1, after: 0, realized: '3' }),
    ]);
    expect(trips.map((t) => t.symbol)).toEqual(['A']);
    expect(tradeStats(trips)).toMatchObject({ trips: 1, winRate: 1, profitFactor: null, avgLoss: null, avgHoldingNs: 4n * S });
    expect(tradeStats([])).toEqual({ trips: 0, wins: 0, losses: 0, winRate: null, profitFactor: null, avgWin: null, avgLoss: null, avgHoldingNs: null });
  });

  it('measures exposure by side as the time long and the time short, exactly from the fills', () => {
    // run 0…100 s: long A 10→40, short B 20→60 and long A again 80→end
    const fills = [
      fill({ sec: 10, symbol: 'A', side: 'B', qty: 1, after: 1 }),
      fill({ sec: 20, symbol: 'B', side: 'S', qty: 1, after: -1 }),
      fill({ sec: 40, symbol: 'A', side: 'S', qty: 1, after: 0 }),
      fill({ sec: 60, symbol: 'B', side: 'B', qty: 1, after: 0 }),
      fill({ sec: 80, symbol: 'A', side: 'B', qty: 1, after: 2 }),
    ];
    expect(sideExposure(fills, 0n, 100n * S)).toEqual({ long: 0.5, short: 0.4 });
  });

  it('never counts more wins and losses than trips, and PnL of trips sums to the realized PnL minus fees of closed trips', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: -3, max: 3 }), fc.integer({ min: -50, max: 50 }), fc.integer({ min: 0, max: 3 })), { maxLength: 40 }), (steps) => {
        let pos = 0;
        const fills = steps.filter(([d]) => d !== 0).map(([d, realized, fee], i) => {
          pos += d;
          return fill({ sec: i, side: d > 0 ? 'B' : 'S', qty: Math.abs(d), after: pos, realized: String(realized), fee: String(fee) });
        });
        const trips = roundTrips(fills);
        const s = tradeStats(trips);
        expect(s.wins + s.losses).toBeLessThanOrEqual(s.trips);
        // every fill up to the last flat (or flip) belongs to exactly one closed trip
        let lastClose = -1;
        fills.forEach((f, i) => {
          if (f.positionAfter === 0 || (i > 0 && Math.sign(f.positionAfter) === -Math.sign(fills[i - 1]!.positionAfter))) lastClose = i;
        });
        const expected = fills.slice(0, lastClose + 1).reduce((a, f) => a + f.realized - f.fee, 0n);
        expect(trips.reduce((a, t) => a + t.pnl, 0n)).toBe(expected);
      }),
    );
  });
});

describe('maker statistics on hand-computed examples', () => {
  it('marks maker fills out against the later mid in basis points, signed by side', () => {
    const fills = [
      // buy at 100, mid 101 after 1 s (+100 bps), 99 after 10 s (−100 bps), not measured at 60 s
      fill({ sec: 0, side: 'B', qty: 1, after: 1, priceTicks: 100, maker: true, midAfterX2: [202, 198, null] }),
      // sell at 200, mid 199 after 1 s (+50 bps), 200.5 after 10 s (−25 bps)
      fill({ sec: 1, side: 'S', qty: 1, after: 0, priceTicks: 200, maker: true, midAfterX2: [398, 401, null] }),
      // a taker fill is left out
      fill({ sec: 2, side: 'B', qty: 1, after: 1, priceTicks: 100, maker: false, midAfterX2: [300, 300, 300] }),
    ];
    const [m1, m10, m60] = makerMarkoutsBps(fills);
    expect(m1).toBeCloseTo(75, 10);
    expect(m10).toBeCloseTo(-62.5, 10);
    expect(m60).toBeNull();
  });

  it('turns time at the touch into shares of the run per symbol', () => {
    const shares = touchShares([{ bidNs: 30n * S, askNs: 60n * S, bothNs: 15n * S }, { bidNs: 0n, askNs: 0n, bothNs: 0n }], ['A', 'B'], 120n * S);
    expect(shares).toEqual({ bid: { A: 0.25, B: 0 }, ask: { A: 0.5, B: 0 }, both: { A: 0.125, B: 0 } });
  });
});

describe('the default sampling interval', () => {
  it('adapts to the run length: at most 2000 samples at the finest step that allows it', () => {
    expect(adaptiveSampleIntervalNs(300n * S)).toBe(1n * S); // 5-minute replay: 300 samples
    expect(adaptiveSampleIntervalNs(3600n * S)).toBe(5n * S); // 1 h: 720
    expect(adaptiveSampleIntervalNs(86_400n * S)).toBe(60n * S); // 1 day: 1440
    expect(adaptiveSampleIntervalNs(7n * 86_400n * S)).toBe(900n * S); // a week: 672
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 365n * 86_400n * S }), (d) => {
        const i = adaptiveSampleIntervalNs(d);
        expect(d / i <= 2000n || i === 3600n * S).toBe(true);
      }),
    );
  });
});
