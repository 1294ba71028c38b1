import { spreadStats } from '../facts/market-facts.ts';
import { autocorrelation, kurtosis, mean } from '../facts/math.ts';
import { SymbolFacts } from '../facts/symbol-facts.ts';
import { TopTracker } from '../facts/top-tracker.ts';
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

/** One symbol's accumulators: the market facts' own, plus the lots on the best five levels. */
interface SymbolState {
  market: SymbolFacts;
  depthTop5: TopTracker;
}

const NS_PER_MINUTE = 60_000_000_000n;

/**
 * The stylized facts `perpsim run` puts in summary.json and `perpsim report` prints: spread and
 * depth (time-weighted), 1-minute returns (autocorrelation, kurtosis, volatility clustering),
 * mark–index basis and funding. A view on `src/facts` (the one implementation of market facts,
 * what `perpsim facts` prints): each observation becomes a normalized market record for the
 * symbol's `SymbolFacts`; only the best-five-levels depth, which the event log carries and
 * normalized records do not, is tracked beside it. Returns come from the last trade of each
 * minute (or the last mid when a minute had no trade); a minute with no observation at all
 * breaks the series. Observations must arrive in time order per symbol; `facts` may be read at
 * any time (the current, unfinished minute is left out).
 */
export class StylizedFacts {
  private readonly bySymbol = new Map<string, SymbolState>();

  /** The book's top changed: best bid / ask in ticks (undefined = empty side), lots on the best 5 levels of both sides. */
  observeTop(tNs: bigint, symbol: string, bidTicks: number | undefined, askTicks: number | undefined, depthTop5Lots: number): void {
    const s = this.state(symbol);
    s.market.observe({ kind: 'quote', recvNs: tNs, exchNs: tNs, symbol, bidTicks, bidQtyLots: undefined, askTicks, askQtyLots: undefined });
    s.depthTop5.observe(tNs, undefined, depthTop5Lots, undefined);
  }

  /** A trade printed. */
  observeTrade(tNs: bigint, symbol: string, priceTicks: number, qtyLots: number): void {
    this.state(symbol).market.observe({ kind: 'trade', recvNs: tNs, exchNs: tNs, symbol, priceTicks, qtyLots });
  }

  /** A mark price was recorded, with the index at that moment (ticks). */
  observeMark(tNs: bigint, symbol: string, markTicks: number, indexTicks: number): void {
    this.state(symbol).market.observe({ kind: 'stats', recvNs: tNs, exchNs: tNs, symbol, markPrice: String(markTicks), indexPrice: String(indexTicks) });
  }

  /** A funding settled at `rate` (fraction per interval), at `tNs` (default: the symbol's latest observation). */
  observeFunding(symbol: string, rate: number, tNs?: bigint): void {
    const s = this.state(symbol);
    const t = tNs ?? s.market.lastNs ?? 0n;
    s.market.observe({ kind: 'stats', recvNs: t, exchNs: t, symbol, fundingRate: String(rate) });
  }

  /** Symbols observed so far, in first-seen order. */
  get symbols(): string[] {
    return [...this.bySymbol.keys()];
  }

  /** The facts of `symbol`, or of every symbol pooled (returns standardized per symbol first). */
  facts(symbol?: string): Facts {
    const states = symbol === undefined ? [...this.bySymbol.values()] : [this.bySymbol.get(symbol)].filter((s) => s !== undefined);
    const spreads = new Map<number, number>();
    let depthLotsNs = 0;
    let depthNs = 0;
    const basis: number[] = [];
    const funding: number[] = [];
    const returns: number[][] = [];
    const absReturns: number[][] = [];
    for (const { market, depthTop5 } of states) {
      for (const [spread, w] of market.quoteTop.spreadWeights) spreads.set(spread, (spreads.get(spread) ?? 0) + w);
      depthLotsNs += depthTop5.touchLotsNs;
      depthNs += depthTop5.touchWeightNs;
      basis.push(...market.basisBps);
      funding.push(...market.fundings.map((f) => f.rate));
      const segments = market.returnSegments.filter((seg) => seg.length > 0);
      returns.push(...standardize(segments));
      absReturns.push(...standardize(segments.map((seg) => seg.map(Math.abs))));
    }
    const spread = spreadStats(spreads);
    return {
      spread_mean_ticks: spread.mean_ticks,
      spread_p95_ticks: spread.p95_ticks,
      depth_top5: depthLotsNs / depthNs,
      return_autocorr_1m: autocorrelation(returns, 1),
      return_kurtosis_1m: kurtosis(returns.flat()),
      abs_return_autocorr_1m: autocorrelation(absReturns, 1),
      basis_mean_bps: mean(basis),
      funding_rate_mean: mean(funding),
    };
  }

  /** Number of 1-minute returns of `symbol` (or all) so far. */
  returnCount(symbol?: string): number {
    const states = symbol === undefined ? [...this.bySymbol.values()] : [this.bySymbol.get(symbol)].filter((s) => s !== undefined);
    return states.reduce((n, s) => n + s.market.returnSegments.reduce((m, seg) => m + seg.length, 0), 0);
  }

  private state(symbol: string): SymbolState {
    let s = this.bySymbol.get(symbol);
    if (s === undefined) this.bySymbol.set(symbol, (s = { market: new SymbolFacts(NS_PER_MINUTE), depthTop5: new TopTracker() }));
    return s;
  }
}

/** Demeans and scales one symbol's segments by its own mean and standard deviation (all segments together). */
function standardize(segments: number[][]): number[][] {
  const all = segments.flat();
  if (all.length < 2) return [];
  const m = mean(all);
  const sd = Math.sqrt(all.reduce((acc, x) => acc + (x - m) * (x - m), 0) / all.length);
  if (!(sd > 0)) return [];
  return segments.map((seg) => seg.map((x) => (x - m) / sd));
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
      if (last !== undefined) facts.observeFunding(key(market.symbol), Number(last.fundingRate), clock.nowNs);
    },
  });
  return facts;
}
