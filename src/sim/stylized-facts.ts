import { autocorrelation, kurtosis, standardize } from './facts-math.ts';
import type { Simulation } from './simulation.ts';

/** The stylized facts of one symbol, or of every symbol pooled. NaN when there is too little data. */
export interface Facts {
  /** Time-weighted mean best-ask − best-bid, ticks (two-sided book only). */
  spread_mean_ticks: number;
  /** Time-weighted 95th percentile of the spread, ticks. */
  spread_p95_ticks: number;
  /** Time-weighted mean of the lots on the best five levels of both sides. */
  depth_top5: number;
  /** Lag-1 autocorrelation of 1-minute log returns. */
  return_autocorr_1m: number;
  /** Kurtosis of 1-minute log returns, non-excess (a normal distribution gives 3). */
  return_kurtosis_1m: number;
  /** Lag-1 autocorrelation of absolute 1-minute log returns (volatility clustering). */
  abs_return_autocorr_1m: number;
  /** Mean of (mark − index) / index over mark records, basis points. */
  basis_mean_bps: number;
  /** Mean funding rate per settlement (a fraction per funding interval). */
  funding_rate_mean: number;
}

/** A reference value with the range seen in real markets and where it comes from. */
export interface TypicalFact {
  typical: number;
  low: number;
  high: number;
  source: string;
}

/**
 * What liquid perpetual-futures markets (BTC and ETH perps on the large venues) typically show,
 * as orders of magnitude to compare a simulation against — not targets to hit exactly.
 */
export const TYPICAL_PERP_FACTS: Readonly<Record<keyof Facts, TypicalFact>> = Object.freeze({
  spread_mean_ticks: { typical: 1.5, low: 1, high: 5, source: 'L1 data of Binance/Bybit/Deribit BTC and ETH perps: the touch sits one tick wide most of the time' },
  spread_p95_ticks: { typical: 5, low: 1, high: 20, source: 'Spreads gap out briefly in fast markets, but the 95th percentile stays within a few ticks on liquid perps' },
  depth_top5: { typical: 50, low: 10, high: 500, source: 'Order of magnitude for 1-BTC lots within five levels on liquid venues; strongly venue- and contract-dependent' },
  return_autocorr_1m: { typical: -0.02, low: -0.1, high: 0.1, source: 'Cont (2001), "Empirical properties of asset returns": no linear autocorrelation beyond minutes, slightly negative from bid-ask bounce' },
  return_kurtosis_1m: { typical: 15, low: 5, high: 100, source: 'Heavy tails: intraday crypto returns show kurtosis far above the normal 3 (Cont 2001; crypto high-frequency studies)' },
  abs_return_autocorr_1m: { typical: 0.25, low: 0.05, high: 0.5, source: 'Volatility clustering: absolute returns stay positively autocorrelated for hours (Ding, Granger & Engle 1993; Cont 2001)' },
  basis_mean_bps: { typical: 1, low: -10, high: 10, source: 'Funding arbitrage keeps liquid perps within a few bps of the spot index on average' },
  funding_rate_mean: { typical: 0.0001, low: -0.0003, high: 0.0005, source: 'Binance/Bybit: 0.01 % per 8 h baseline (interest part) plus a premium near 0; without an interestRate this venue pays the premium alone, so ≈ 0 here' },
});

interface SymbolFacts {
  /** Time origin of the time weights (the first timed observation). */
  firstNs: bigint | undefined;
  // Top of book, time-weighted from the previous observation to the next.
  lastTopAt: number;
  lastSpread: number | undefined;
  lastDepth: number;
  spreadWeights: Map<number, number>;
  spreadWeightSum: number;
  spreadSum: number;
  depthSum: number;
  depthWeightSum: number;
  lastMid: number | undefined;
  // 1-minute prices: last trade of the minute, else the last mid seen in it.
  minute: number;
  minuteTrade: number | undefined;
  minuteMid: number | undefined;
  prevMinute: number;
  prevPrice: number | undefined;
  segments: number[][];
  basisSumBps: number;
  basisCount: number;
  fundingSum: number;
  fundingCount: number;
}

const NS_PER_MINUTE = 60_000_000_000n;

/**
 * Accumulates observations of a running market and computes its stylized facts: spread and
 * depth (time-weighted), 1-minute returns (autocorrelation, kurtosis, volatility clustering),
 * mark–index basis and funding. Returns come from the last trade of each minute (or the last
 * mid when a minute had no trade); a minute with no observation at all breaks the series, so
 * closed sessions add no fake zero returns. Observations must arrive in time order per symbol.
 */
export class StylizedFacts {
  private readonly bySymbol = new Map<string, SymbolFacts>();

  /** The book's top changed: best bid / ask in ticks (undefined = empty side), lots on the best 5 levels of both sides. */
  observeTop(tNs: bigint, symbol: string, bidTicks: number | undefined, askTicks: number | undefined, depthTop5Lots: number): void {
    const s = this.state(symbol, tNs);
    const t = Number(tNs - (s.firstNs ??= tNs));
    this.accrueTop(s, t);
    s.lastSpread = bidTicks !== undefined && askTicks !== undefined ? askTicks - bidTicks : undefined;
    s.lastDepth = depthTop5Lots;
    if (bidTicks !== undefined && askTicks !== undefined) {
      s.lastMid = (bidTicks + askTicks) / 2;
      this.rollMinute(s, tNs);
      s.minuteMid = s.lastMid;
    }
  }

  /** A trade printed. */
  observeTrade(tNs: bigint, symbol: string, priceTicks: number, _qtyLots: number): void {
    const s = this.state(symbol, tNs);
    this.rollMinute(s, tNs);
    s.minuteTrade = priceTicks;
  }

  /** A mark price was recorded, with the index at that moment (ticks). */
  observeMark(tNs: bigint, symbol: string, markTicks: number, indexTicks: number): void {
    const s = this.state(symbol, tNs);
    if (indexTicks <= 0) return;
    s.basisSumBps += ((markTicks - indexTicks) / indexTicks) * 1e4;
    s.basisCount++;
  }

  /** A funding settled at `rate` (fraction per interval). */
  observeFunding(symbol: string, rate: number): void {
    const s = this.state(symbol, undefined);
    s.fundingSum += rate;
    s.fundingCount++;
  }

  /** Symbols observed so far, in first-seen order. */
  get symbols(): string[] {
    return [...this.bySymbol.keys()];
  }

  /** The facts of `symbol`, or of every symbol pooled (returns standardized per symbol first). */
  facts(symbol?: string): Facts {
    const states = symbol === undefined ? [...this.bySymbol.values()] : [this.bySymbol.get(symbol)].filter((s) => s !== undefined);
    let spreadSum = 0;
    let spreadWeight = 0;
    let depthSum = 0;
    let depthWeight = 0;
    let basisSum = 0;
    let basisCount = 0;
    let fundingSum = 0;
    let fundingCount = 0;
    const weights = new Map<number, number>();
    const returns: number[][] = [];
    const absReturns: number[][] = [];
    for (const s of states) {
      spreadSum += s.spreadSum;
      spreadWeight += s.spreadWeightSum;
      depthSum += s.depthSum;
      depthWeight += s.depthWeightSum;
      for (const [spread, w] of s.spreadWeights) weights.set(spread, (weights.get(spread) ?? 0) + w);
      basisSum += s.basisSumBps;
      basisCount += s.basisCount;
      fundingSum += s.fundingSum;
      fundingCount += s.fundingCount;
      const segments = this.closedSegments(s);
      returns.push(...standardize(segments));
      absReturns.push(...standardize(segments.map((seg) => seg.map(Math.abs))));
    }
    return {
      spread_mean_ticks: spreadSum / spreadWeight,
      spread_p95_ticks: weightedQuantile(weights, spreadWeight, 0.95),
      depth_top5: depthSum / depthWeight,
      return_autocorr_1m: autocorrelation(returns, 1),
      return_kurtosis_1m: kurtosis(returns),
      abs_return_autocorr_1m: autocorrelation(absReturns, 1),
      basis_mean_bps: basisSum / basisCount,
      funding_rate_mean: fundingSum / fundingCount,
    };
  }

  /** Number of 1-minute returns of `symbol` (or all) so far. */
  returnCount(symbol?: string): number {
    const states = symbol === undefined ? [...this.bySymbol.values()] : [this.bySymbol.get(symbol)].filter((s) => s !== undefined);
    return states.reduce((n, s) => n + this.closedSegments(s).reduce((m, seg) => m + seg.length, 0), 0);
  }

  private state(symbol: string, tNs: bigint | undefined): SymbolFacts {
    let s = this.bySymbol.get(symbol);
    if (s === undefined) {
      s = {
        firstNs: undefined, lastTopAt: 0, lastSpread: undefined, lastDepth: 0, spreadWeights: new Map(), spreadWeightSum: 0, spreadSum: 0, depthSum: 0, depthWeightSum: 0,
        lastMid: undefined, minute: tNs === undefined ? -1 : Number(tNs / NS_PER_MINUTE), minuteTrade: undefined, minuteMid: undefined, prevMinute: -2, prevPrice: undefined, segments: [],
        basisSumBps: 0, basisCount: 0, fundingSum: 0, fundingCount: 0,
      };
      this.bySymbol.set(symbol, s);
    }
    return s;
  }

  private accrueTop(s: SymbolFacts, t: number): void {
    const dt = t - s.lastTopAt;
    s.lastTopAt = t;
    if (dt <= 0) return;
    s.depthSum += s.lastDepth * dt;
    s.depthWeightSum += dt;
    if (s.lastSpread === undefined) return;
    s.spreadSum += s.lastSpread * dt;
    s.spreadWeightSum += dt;
    s.spreadWeights.set(s.lastSpread, (s.spreadWeights.get(s.lastSpread) ?? 0) + dt);
  }

  /** Closes the current minute when `tNs` lies in a later one. */
  private rollMinute(s: SymbolFacts, tNs: bigint): void {
    const minute = Number(tNs / NS_PER_MINUTE);
    if (minute === s.minute) return;
    this.closeMinute(s);
    s.minute = minute;
    s.minuteTrade = undefined;
    s.minuteMid = undefined;
  }

  private closeMinute(s: SymbolFacts): void {
    const price = s.minuteTrade ?? s.minuteMid;
    if (price === undefined || price <= 0) return;
    if (s.prevPrice !== undefined && s.minute === s.prevMinute + 1) {
      if (s.segments.length === 0) s.segments.push([]);
      s.segments[s.segments.length - 1]!.push(Math.log(price / s.prevPrice));
    } else {
      s.segments.push([]); // a gap (or the first price): returns never bridge it
    }
    s.prevMinute = s.minute;
    s.prevPrice = price;
  }

  /** Return segments of completed minutes (the current, unfinished minute is left out). */
  private closedSegments(s: SymbolFacts): number[][] {
    return s.segments.filter((seg) => seg.length > 0);
  }
}

/** The smallest value whose cumulative weight reaches `q` of `total`. */
function weightedQuantile(weights: Map<number, number>, total: number, q: number): number {
  if (!(total > 0)) return Number.NaN;
  const keys = [...weights.keys()].sort((a, b) => a - b);
  let acc = 0;
  for (const k of keys) {
    acc += weights.get(k)!;
    if (acc >= q * total) return k;
  }
  return keys[keys.length - 1] ?? Number.NaN;
}

/**
 * A StylizedFacts fed from the venue's announcements: every book change (top of book and the
 * lots on the best five levels of both sides), every trade, every mark record (with the index
 * at that moment) and every funding settlement. Attach before running; it only reads.
 *
 * @param facts the calculator to feed (default: a new one) — pass one to pool several runs.
 * @param label prefixed to every symbol (e.g. `"seed-2/"`), so pooled runs stay separate series.
 */
export function attachFactsCollector(sim: Simulation, facts = new StylizedFacts(), label = ''): StylizedFacts {
  const clock = sim.clock;
  const key = (symbol: string) => (label === '' ? symbol : label + symbol);
  sim.venue.subscribe({
    bookChanged: (market) => {
      const { bids, asks } = market.book.l2(5);
      let depth = 0;
      for (const l of bids) depth += l.qtyLots;
      for (const l of asks) depth += l.qtyLots;
      facts.observeTop(clock.nowNs, key(market.symbol), bids[0]?.priceTicks, asks[0]?.priceTicks, depth);
    },
    trade: (trade, market) => facts.observeTrade(clock.nowNs, key(market.symbol), trade.priceTicks, trade.qtyLots),
    markRecorded: (market) => facts.observeMark(clock.nowNs, key(market.symbol), market.markTicks, market.indexTicks),
    fundingSettled: (market) => {
      const last = market.fundingHistory[market.fundingHistory.length - 1];
      if (last !== undefined) facts.observeFunding(key(market.symbol), Number(last.fundingRate));
    },
  });
  return facts;
}
