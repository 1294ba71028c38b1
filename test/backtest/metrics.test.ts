import { describe, expect, it } from 'vitest';
import { parseMoney } from '../../src/core/money.ts';
import {
  annualizedReturn,
  calmar,
  fillRatio,
  makerShare,
  maxDrawdown,
  MIN_RETURNS_FOR_RATIOS,
  periodReturns,
  periodsPerYear,
  pnlParts,
  positionStats,
  returnOnEquity,
  sharpe,
  sortino,
  timeInMarket,
  turnover,
  volume,
} from '../../src/backtest/metrics.ts';
import type { FillRecord } from '../../src/backtest/recorder.ts';

const S = 1_000_000_000n;
const m = parseMoney;
const eq = (points: [number, string][]) => points.map(([sec, equity]) => ({ tNs: BigInt(sec) * S, equity: m(equity) }));

function fill(sec: number, symbol: string, side: 'B' | 'S', price: string, qty: number, maker: boolean, positionAfter: number): FillRecord {
  return { tNs: BigInt(sec) * S, symbol, orderId: 'o', tradeId: 't', side, price, priceTicks: Math.round(Number(price)), bid: null, ask: null, midAfterX2: [null, null, null], qty, notional: m(price) * BigInt(qty), fee: 0n, realized: 0n, maker, liquidation: false, positionAfter };
}

describe('backtest metrics on hand-computed examples', () => {
  it('splits net PnL into trading, fees, funding received and paid, and unrealized', () => {
    const parts = pnlParts({ tradingPnl: m('120.5'), fees: m('3.25'), unrealized: m('-10') }, [
      { tNs: 0n, symbol: 'X', rate: '0.001', positionLots: -1, amount: m('2') },
      { tNs: 1n, symbol: 'X', rate: '-0.001', positionLots: -1, amount: m('-0.75') },
      { tNs: 2n, symbol: 'X', rate: '0.002', positionLots: -1, amount: m('1.5') },
    ]);
    // 120.5 − 3.25 + 3.5 − 0.75 − 10 = 110
    expect(parts).toEqual({ net: m('110'), realizedTrading: m('120.5'), fees: m('3.25'), fundingReceived: m('3.5'), fundingPaid: m('0.75'), unrealized: m('-10') });
  });

  it('gives the return on starting equity as net / start, exactly before rounding', () => {
    expect(returnOnEquity(m('110'), m('1000'))).toBe(0.11);
    expect(returnOnEquity(m('1'), 0n)).toBeNull();
  });

  it('takes returns only between samples one interval apart', () => {
    // 100 → 110 → 99 → 99 on a 60 s grid, then a 30 s stub to 108.9 that is left out.
    const r = periodReturns(eq([[0, '100'], [60, '110'], [120, '99'], [180, '99'], [210, '108.9']]), 60n * S);
    expect(r).toEqual([0.1, -0.1, 0]);
  });

  it('annualizes Sharpe with the sample deviation and √(periods per year)', () => {
    // returns (0.01, −0.01, 0.02) × 10: mean 0.00666…, Σ(r − mean)² = 10 · (14/3)·1e-4, sample sd = √(140/3 / 29)·0.01
    const perYear = periodsPerYear(86_400n * S); // daily: 365
    expect(perYear).toBe(365);
    const returns = Array.from({ length: 10 }, () => [0.01, -0.01, 0.02]).flat();
    const expected = (0.02 / 3 / (Math.sqrt(140 / 3 / 29) * 0.01)) * Math.sqrt(365);
    expect(sharpe(returns, perYear)).toBeCloseTo(expected, 12);
    expect(sharpe(Array(30).fill(0.01), perYear)).toBeNull(); // no variance
  });

  it('leaves Sharpe and Sortino undefined below 30 returns rather than report noise', () => {
    expect(MIN_RETURNS_FOR_RATIOS).toBe(30);
    const returns = Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? 0.01 : -0.02));
    expect(sharpe(returns.slice(0, 29), 365)).toBeNull();
    expect(sortino(returns.slice(0, 29), 365)).toBeNull();
    expect(sharpe(returns.concat(returns, returns), 365)).not.toBeNull();
  });

  it('annualizes Sortino with the downside deviation over all periods', () => {
    // returns (0.04, −0.01, 0.02, −0.03) × 8: mean 0.005; downside deviation √(8 · (0.0001 + 0.0009) / 32)
    const expected = (0.005 / Math.sqrt(0.001 / 4)) * Math.sqrt(365);
    expect(sortino(Array.from({ length: 8 }, () => [0.04, -0.01, 0.02, -0.03]).flat(), 365)).toBeCloseTo(expected, 12);
    expect(sortino(Array(30).fill(0.01), 365)).toBeNull(); // no losing period
  });

  it('finds the deepest drawdown and the longest time under water', () => {
    // peak 120 at 60 s, trough 90 at 180 s (−30, 25 %), back to 120 at 300 s (240 s under water);
    // new peak 130 at 360 s, 125 at 420 s until the end (60 s, shorter).
    const dd = maxDrawdown(eq([[0, '100'], [60, '120'], [120, '110'], [180, '90'], [240, '100'], [300, '120'], [360, '130'], [420, '125']]));
    expect(dd).toEqual({ value: m('30'), fraction: 0.25, durationNs: 240n * S });
  });

  it('counts a drawdown that never recovers up to the last sample', () => {
    const dd = maxDrawdown(eq([[0, '100'], [60, '95'], [120, '99']]));
    expect(dd).toEqual({ value: m('5'), fraction: 0.05, durationNs: 120n * S });
  });

  it('annualizes the return linearly and divides by the drawdown for Calmar', () => {
    const ann = annualizedReturn(0.01, 365n * 86_400n * S / 4n); // a quarter of a year
    expect(ann).toBeCloseTo(0.04, 15);
    expect(calmar(0.04, 0.02)).toBeCloseTo(2, 15);
    expect(calmar(0.04, 0)).toBeNull();
  });

  it('measures volume, fill ratio, maker share and turnover from the fills', () => {
    const fills = [fill(1, 'X', 'B', '100', 2, true, 2), fill(2, 'X', 'S', '110', 1, false, 1), fill(3, 'X', 'S', '105', 1, true, 0)];
    const v = volume(fills);
    expect(v).toEqual({ lots: 4, notional: m('415'), makerNotional: m('305') });
    expect(fillRatio(v.lots, 10)).toBe(0.4);
    expect(fillRatio(0, 0)).toBeNull();
    expect(makerShare(v)).toBeCloseTo(305 / 415, 15);
    expect(turnover(v, m('1000'))).toBe(0.415);
  });

  it('averages the sampled gross notional and takes the largest position per symbol', () => {
    const fills = [fill(1, 'X', 'B', '100', 3, true, 3), fill(2, 'Y', 'S', '10', 5, true, -5), fill(3, 'X', 'S', '100', 4, true, -1)];
    const stats = positionStats([{ grossNotional: m('0') }, { grossNotional: m('300') }, { grossNotional: m('350') }], fills, ['X', 'Y', 'Z']);
    expect(stats).toEqual({ avgNotional: m('216.666666666666666667'), maxNotional: m('350'), maxLots: { X: 3, Y: 5, Z: 0 } });
  });

  it('measures time in market from position changes across symbols', () => {
    // X open 10 s → 40 s, Y open 30 s → 60 s (overlap), flat 60 → 80, X open 80 → end 100: 50 + 20 = 70 of 100 s
    const fills = [
      fill(10, 'X', 'B', '1', 1, true, 1),
      fill(30, 'Y', 'S', '1', 1, true, -1),
      fill(40, 'X', 'S', '1', 1, true, 0),
      fill(60, 'Y', 'B', '1', 1, true, 0),
      fill(80, 'X', 'B', '1', 2, true, 2),
    ];
    expect(timeInMarket(fills, 0n, 100n * S)).toBe(0.7);
    expect(timeInMarket([], 0n, 100n * S)).toBe(0);
  });
});
