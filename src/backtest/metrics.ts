import { Decimal } from 'decimal.js';
import { divRoundHalfEven, formatMoney, type Money } from '../core/money.ts';
import type { TimeNs } from '../core/types.ts';
import type { EquitySample, FillRecord, FundingRecordOfRun } from './recorder.ts';
import type { BacktestResult } from './runner.ts';

/**
 * Backtest metrics, each defined once here. Money is exact (bigint 1e-18, shown as decimal
 * text); ratios are numbers. A ratio that is undefined for the run (no variance, no drawdown,
 * nothing traded) is `null`, never NaN or Infinity, so report.json stays valid JSON.
 */

const NS_PER_YEAR = 365n * 86_400n * 1_000_000_000n;

/** The parts of net PnL; `net = trading − fees + funding + unrealized` exactly. */
export interface PnlParts {
  net: Money;
  /** Trading PnL realized by closing lots (FIFO), before fees. */
  realizedTrading: Money;
  /** Fees paid (positive is a cost). */
  fees: Money;
  /** Σ funding received (≥ 0). */
  fundingReceived: Money;
  /** Σ funding paid (≥ 0). */
  fundingPaid: Money;
  /** Open positions at the end, at the final marks. */
  unrealized: Money;
}

/**
 * Net PnL and its parts: realized trading PnL, fees, funding received and paid (from the
 * funding settlements that touched the account), and unrealized PnL at the end.
 */
export function pnlParts(final: { tradingPnl: Money; fees: Money; unrealized: Money }, funding: readonly FundingRecordOfRun[]): PnlParts {
  let received = 0n;
  let paid = 0n;
  for (const f of funding) {
    if (f.amount > 0n) received += f.amount;
    else paid -= f.amount;
  }
  return {
    net: final.tradingPnl - final.fees + received - paid + final.unrealized,
    realizedTrading: final.tradingPnl,
    fees: final.fees,
    fundingReceived: received,
    fundingPaid: paid,
    unrealized: final.unrealized,
  };
}

/** `a / b` as a number (null when b is 0), computed exactly before the final rounding. */
export function ratio(a: Money, b: Money): number | null {
  if (b === 0n) return null;
  return new Decimal(a.toString()).div(b.toString()).toNumber();
}

/** Return on starting equity: net PnL / starting equity. */
export function returnOnEquity(net: Money, startingEquity: Money): number | null {
  return ratio(net, startingEquity);
}

/**
 * Simple returns between consecutive equity samples that are exactly `intervalNs` apart
 * (a shorter last period, when the run is not a multiple of the interval, is left out so every
 * return covers the same time).
 */
export function periodReturns(samples: readonly Pick<EquitySample, 'tNs' | 'equity'>[], intervalNs: TimeNs): number[] {
  const out: number[] = [];
  for (let i = 1; i < samples.length; i++) {
    const a = samples[i - 1]!;
    const b = samples[i]!;
    if (b.tNs - a.tNs !== intervalNs) continue;
    out.push(ratio(b.equity - a.equity, a.equity) ?? 0);
  }
  return out;
}

/** Sampling periods in a 365-day year (perps trade around the clock). */
export function periodsPerYear(intervalNs: TimeNs): number {
  return Number(NS_PER_YEAR) / Number(intervalNs);
}

function mean(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

/**
 * Fewest period returns a Sharpe or Sortino ratio is computed from: below this the estimate is
 * noise (a 5-minute run sampled every minute gave a "Sharpe" of −1294 from 5 returns), so the
 * ratio is null. The default sampling (`adaptiveSampleIntervalNs`) gives ≥ 300 returns to any run
 * of 5 minutes or more.
 */
export const MIN_RETURNS_FOR_RATIOS = 30;

/**
 * Annualized Sharpe ratio: mean period return / sample standard deviation (n − 1) of period
 * returns × √(periods per year); risk-free rate 0. Null with fewer than
 * `MIN_RETURNS_FOR_RATIOS` returns or no variance.
 */
export function sharpe(returns: readonly number[], perYear: number): number | null {
  if (returns.length < MIN_RETURNS_FOR_RATIOS) return null;
  // Equal returns have no variance; summing them in floating point would leave a tiny sd and a huge ratio.
  if (returns.every((r) => r === returns[0])) return null;
  const m = mean(returns);
  let ss = 0;
  for (const r of returns) ss += (r - m) ** 2;
  const sd = Math.sqrt(ss / (returns.length - 1));
  return sd === 0 ? null : (m / sd) * Math.sqrt(perYear);
}

/**
 * Annualized Sortino ratio: mean period return / downside deviation × √(periods per year),
 * where downside deviation = √(Σ min(r, 0)² / n) over all n returns (target 0). Null with fewer
 * than `MIN_RETURNS_FOR_RATIOS` returns or no losing period.
 */
export function sortino(returns: readonly number[], perYear: number): number | null {
  if (returns.length < MIN_RETURNS_FOR_RATIOS) return null;
  let ss = 0;
  for (const r of returns) if (r < 0) ss += r * r;
  const dd = Math.sqrt(ss / returns.length);
  return dd === 0 ? null : (mean(returns) / dd) * Math.sqrt(perYear);
}

/** The worst fall of equity from a running peak. */
export interface Drawdown {
  /** Largest peak − equity (money, ≥ 0). */
  value: Money;
  /** Largest (peak − equity) / peak (0 … 1). */
  fraction: number;
  /** Longest time equity spent below a previous peak (until it regained it, or the end). */
  durationNs: TimeNs;
}

/**
 * Max drawdown of sampled equity: the largest fall from a running peak, in money and as a
 * fraction of that peak, and the longest time under water (from a peak to the first sample
 * back at or above it, or to the last sample if equity never got back).
 */
export function maxDrawdown(samples: readonly Pick<EquitySample, 'tNs' | 'equity'>[]): Drawdown {
  let value = 0n;
  let fraction = 0;
  let durationNs = 0n;
  let peak: Money | undefined;
  let peakNs = 0n;
  let below = false;
  for (const s of samples) {
    if (peak === undefined || s.equity >= peak) {
      if (below && s.tNs - peakNs > durationNs) durationNs = s.tNs - peakNs;
      peak = s.equity;
      peakNs = s.tNs;
      below = false;
      continue;
    }
    below = true;
    const dd = peak - s.equity;
    if (dd > value) value = dd;
    const f = ratio(dd, peak) ?? 0;
    if (f > fraction) fraction = f;
    if (s.tNs - peakNs > durationNs) durationNs = s.tNs - peakNs;
  }
  return { value, fraction, durationNs };
}

/** Net return scaled to a 365-day year linearly: return × year / duration (no compounding). */
export function annualizedReturn(totalReturn: number, durationNs: TimeNs): number {
  return (totalReturn * Number(NS_PER_YEAR)) / Number(durationNs);
}

/** Calmar ratio: annualized return / max drawdown fraction; null without a drawdown. */
export function calmar(annualized: number, drawdownFraction: number): number | null {
  return drawdownFraction === 0 ? null : annualized / drawdownFraction;
}

/** Traded volume: lots, notional, and the maker (resting order) part of the notional. */
export interface Volume {
  lots: number;
  notional: Money;
  makerNotional: Money;
}

/** Σ over fills of lots, notional, and notional where the strategy was the maker. */
export function volume(fills: readonly FillRecord[]): Volume {
  let lots = 0;
  let notional = 0n;
  let makerNotional = 0n;
  for (const f of fills) {
    lots += f.qty;
    notional += f.notional;
    if (f.maker) makerNotional += f.notional;
  }
  return { lots, notional, makerNotional };
}

/** Fill ratio: lots filled / lots of accepted orders (null with no accepted order). */
export function fillRatio(filledLots: number, acceptedLots: number): number | null {
  return acceptedLots === 0 ? null : filledLots / acceptedLots;
}

/** Maker share of volume: maker notional / total notional (null with no fills). */
export function makerShare(v: Volume): number | null {
  return ratio(v.makerNotional, v.notional);
}

/** Turnover: traded notional / starting equity. */
export function turnover(v: Volume, startingEquity: Money): number | null {
  return ratio(v.notional, startingEquity);
}

/** Position size: average and max gross notional over the samples, and max |lots| per symbol over fills. */
export interface PositionStats {
  avgNotional: Money;
  maxNotional: Money;
  maxLots: Record<string, number>;
}

/**
 * Average and max gross position notional (Σ |lots| × mark × multiplier over symbols) across
 * the equity samples, and the largest |net position| in lots per symbol after any fill.
 */
export function positionStats(samples: readonly Pick<EquitySample, 'grossNotional'>[], fills: readonly FillRecord[], symbols: readonly string[]): PositionStats {
  let sum = 0n;
  let max = 0n;
  for (const s of samples) {
    sum += s.grossNotional;
    if (s.grossNotional > max) max = s.grossNotional;
  }
  const maxLots: Record<string, number> = Object.fromEntries(symbols.map((s) => [s, 0]));
  for (const f of fills) maxLots[f.symbol] = Math.max(maxLots[f.symbol] ?? 0, Math.abs(f.positionAfter));
  return { avgNotional: samples.length === 0 ? 0n : divRoundHalfEven(sum, BigInt(samples.length)), maxNotional: max, maxLots };
}

/**
 * Time in market: the fraction of [start, end] during which the account held a position in
 * any symbol, exactly from the fills (each fill gives the position after it).
 */
export function timeInMarket(fills: readonly FillRecord[], startNs: TimeNs, endNs: TimeNs): number {
  const span = endNs - startNs;
  if (span <= 0n) return 0;
  const open = new Map<string, number>();
  let openCount = 0;
  let since = startNs;
  let inside = 0n;
  for (const f of fills) {
    const before = open.get(f.symbol) ?? 0;
    const wasIn = openCount > 0;
    if (before === 0 && f.positionAfter !== 0) openCount++;
    else if (before !== 0 && f.positionAfter === 0) openCount--;
    open.set(f.symbol, f.positionAfter);
    const isIn = openCount > 0;
    if (!wasIn && isIn) since = f.tNs;
    else if (wasIn && !isIn) inside += f.tNs - since;
  }
  if (openCount > 0) inside += endNs - since;
  return Number((inside * 1_000_000n) / span) / 1_000_000;
}
