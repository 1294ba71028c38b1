import type { SymbolFactsReport } from './market-facts.ts';

const SECONDS_PER_YEAR = 365.25 * 86_400;
const SECONDS_PER_DAY = 86_400;

/** What a fit is made from: the facts of one recorded symbol at a long and at a short horizon. */
export interface CalibrationInput {
  /** Facts at the main horizon (trades, spread, depth). */
  facts: SymbolFactsReport;
  /** Facts at a short horizon (1 s): volatility and jumps of a short recording come from here. */
  fine: SymbolFactsReport;
}

/** The fitted numbers, before they become a scenario (also printed by `perpsim calibrate`). */
export interface Calibration {
  volAnnual: number;
  jumpsPerDay: number;
  jumpLogStd: number;
  halfSpreadTicks: number;
  makerLevels: number;
  levelSpacingTicks: number;
  makerSizeLots: number;
  sizeGrowth: number;
  noiseRatePerSec: number;
  marketableProbability: number;
  sizeMinLots: number;
  sizeAlpha: number;
  sizeMaxLots: number;
}

/** Maker levels and their spacing: all of them within 10 ticks of the mid, as the depth target measures. */
const LEVELS = 4;
const SPACING_TICKS = 3;
const MARKETABLE = 0.8;

/**
 * Fits the quantities a scenario controls to a recording's facts:
 * - index volatility from the standard deviation of returns (the short horizon when the long
 *   one has fewer than 30 returns), with returns beyond 4 sd taken out as jumps (their rate per
 *   day and root mean square size);
 * - one market maker: half spread 0 when the spread sits at one tick at least half the time
 *   (large-tick regime), else (mean spread − 1) / 2; touch size = half the touch depth (one
 *   side); four levels 3 ticks apart with a size growth that reproduces depth within 10 ticks /
 *   depth within 1 tick (1 + g + g² + g³ = ratio, clamped to 0.5 … 3);
 * - noise traders: marketable arrivals per second = 1000 / mean inter-arrival (ms), 80 %
 *   marketable; Pareto sizes through the median and p95 of trade sizes: α = ln 10 / ln(p95 /
 *   median), scale = median / 2^(1/α), capped at 20 × p95.
 * Non-finite facts fall back to neutral values (no jumps, a one-tick spread, growth 1).
 */
export function calibrate(input: CalibrationInput): Calibration {
  const { facts, fine } = input;
  const returns = facts.returns.count >= 30 ? facts.returns : fine.returns;
  const jumpVar = returns.beyond_4sd > 0 ? (returns.beyond_4sd * returns.beyond_4sd_rms ** 2) / Math.max(1, returns.count) : 0;
  const nonJumpVar = Math.max(0, returns.std_dev ** 2 - jumpVar);
  const volAnnual = finite(Math.sqrt(nonJumpVar * (SECONDS_PER_YEAR / returns.horizon_sec)), 0.5);
  const spanSec = Math.max(1, returns.count * returns.horizon_sec);
  const jumpsPerDay = finite((returns.beyond_4sd / spanSec) * SECONDS_PER_DAY, 0);
  const ratio = finite(facts.depth.ratio_10_to_1_ticks, LEVELS);
  const median = finite(facts.trades.size_median_lots, 1);
  const p95 = finite(facts.trades.size_p95_lots, median * 10);
  const sizeAlpha = clamp(finite(Math.log(10) / Math.log(Math.max(p95 / median, 1.01)), 1.5), 0.5, 3);
  const interArrivalMs = finite(facts.trades.interarrival_mean_ms, 2000);
  return {
    volAnnual: round(volAnnual, 4),
    jumpsPerDay: round(jumpsPerDay, 2),
    jumpLogStd: round(jumpsPerDay > 0 ? finite(returns.beyond_4sd_rms, 0) : 0, 6),
    halfSpreadTicks: facts.spread.share_1_tick >= 0.5 ? 0 : round(Math.max(0, finite(facts.spread.mean_ticks, 1) - 1) / 2, 2),
    makerLevels: LEVELS,
    levelSpacingTicks: SPACING_TICKS,
    makerSizeLots: Math.max(1, Math.round(finite(facts.depth.touch_lots, 2) / 2)),
    sizeGrowth: round(clamp(solveGrowth(ratio), 0.5, 3), 3),
    noiseRatePerSec: round(1000 / interArrivalMs / MARKETABLE, 3),
    marketableProbability: MARKETABLE,
    sizeMinLots: Math.max(1, Math.round(median / 2 ** (1 / sizeAlpha))),
    sizeAlpha: round(sizeAlpha, 3),
    sizeMaxLots: Math.max(2, Math.round(20 * p95)),
  };
}

/**
 * A scenario (the JSON `perpsim run`, `facts --scenario` and `serve` read) from a calibration:
 * the recorded symbol quoted per lot (instrument tick = recorded tick × lot, as the replay
 * does), so one venue lot and one venue tick are the recording's.
 */
export function calibratedScenario(name: string, symbol: string, units: { tickSize: string; lotSize: string }, lastMidTicks: number, c: Calibration): Record<string, unknown> {
  const tick = multiplyDecimals(units.tickSize, units.lotSize);
  const decimals = tick.includes('.') ? tick.split('.')[1]!.length : 0;
  const indexPrice = (Math.round(lastMidTicks) * Number(tick)).toFixed(decimals);
  const perp = /-PERP$/.test(symbol) ? symbol : `${symbol}-PERP`;
  const index = c.jumpsPerDay > 0
    ? { kind: 'jump-diffusion', volAnnual: c.volAnnual, jumps: { perDay: c.jumpsPerDay, logMean: 0, logStd: c.jumpLogStd }, updateIntervalMs: 1000 }
    : { kind: 'gbm', volAnnual: c.volAnnual, updateIntervalMs: 1000 };
  return {
    name,
    description: `Fitted by perpsim calibrate to ${symbol} (tick ${units.tickSize}, lot ${units.lotSize}); quoted per lot: price = recorded price × ${units.lotSize}.`,
    seed: 1,
    start: '2026-01-01T00:00:00Z',
    duration: '24h',
    instruments: [{ symbol: perp, tickSize: tick, indexPrice, description: `${symbol} quoted per ${units.lotSize} lot` }],
    users: [{ username: 'alice', password: 'alice-password', cash: '1000000' }],
    index,
    latency: { order: { floorMs: 1, jitterMs: 0.5 }, marketData: { floorMs: 1, jitterMs: 0.5 } },
    agents: [
      { kind: 'market-maker', name: 'mm', symbols: [perp], params: { levels: c.makerLevels, halfSpreadTicks: c.halfSpreadTicks, levelSpacingTicks: c.levelSpacingTicks, sizeLots: c.makerSizeLots, sizeGrowth: c.sizeGrowth, maxInventoryLots: c.makerSizeLots * 50, skewTicks: 0.5, maxWiden: 1.5 } },
      { kind: 'noise-trader', name: 'noise', symbols: [perp], params: { ratePerSec: c.noiseRatePerSec, marketableProbability: c.marketableProbability, sizeMinLots: c.sizeMinLots, sizeAlpha: c.sizeAlpha, sizeMaxLots: c.sizeMaxLots, slippageTicks: 2, passiveOffsetMeanTicks: 3 } },
      { kind: 'informed-trader', name: 'arb', symbols: [perp], params: { lookaheadSec: 2, thresholdBps: 1, sizeLots: Math.max(1, c.sizeMinLots * 4), maxPositionLots: c.makerSizeLots * 10 } },
    ],
  };
}

/** 1 + g + g² + g³ = ratio for g > 0 (bisection); the level sizes that give a depth ratio. */
function solveGrowth(ratio: number): number {
  let lo = 0;
  let hi = 10;
  for (let i = 0; i < 60; i++) {
    const g = (lo + hi) / 2;
    if (1 + g + g * g + g * g * g < ratio) lo = g;
    else hi = g;
  }
  return (lo + hi) / 2;
}

/** The exact product of two decimal texts, minimal form ("0.1" × "0.001" = "0.0001"). */
export function multiplyDecimals(a: string, b: string): string {
  const [ai, af = ''] = a.split('.');
  const [bi, bf = ''] = b.split('.');
  const digits = BigInt(ai! + af) * BigInt(bi! + bf);
  const scale = af.length + bf.length;
  const text = digits.toString().padStart(scale + 1, '0');
  const int = text.slice(0, text.length - scale);
  const frac = text.slice(text.length - scale).replace(/0+$/, '');
  return frac === '' ? int : `${int}.${frac}`;
}

function finite(x: number, fallback: number): number {
  return Number.isFinite(x) ? x : fallback;
}

function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}

function round(x: number, digits: number): number {
  return Number(x.toFixed(digits));
}
