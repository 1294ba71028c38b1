import type { FactsRecord, FactsUnits } from './records.ts';
import { autocorrelation, correlation, hillTailIndex, kurtosis, mean, quantile, weightedQuantile } from './math.ts';
import { SymbolFacts } from './symbol-facts.ts';
import { DEPTH_DISTANCES, type TopTracker } from './top-tracker.ts';

/** Lags of the return autocorrelation reported (in return horizons: minutes by default). */
export const RETURN_ACF_LAGS = 10;
/** Lags of the absolute-return autocorrelation reported (60 one-minute lags: an hour). */
export const ABS_RETURN_ACF_LAGS = 60;
const NS_PER_8H = 8 * 3600 * 1e9;

/** The market facts of one symbol. NaN (null in JSON) where the data cannot say. */
export interface SymbolFactsReport {
  symbol: string;
  tick_size: string | null;
  lot_size: string | null;
  /** First to last record, seconds. */
  duration_sec: number;
  /** The last mid seen, ticks (null without a two-sided book). */
  last_mid_ticks: number;
  spread: {
    /** Where the touch came from: quote rows when the source has them, else the rebuilt book. */
    source: 'quotes' | 'book' | 'none';
    /** Share of the (two-sided) time at exactly one tick. */
    share_1_tick: number;
    mean_ticks: number;
    p50_ticks: number;
    p95_ticks: number;
  };
  depth: {
    /** Time-weighted lots at the best bid plus the best ask. */
    touch_lots: number;
    /** Time-weighted lots of both sides within 1, 2, 5, 10 ticks of the mid (book rows only). */
    within_ticks: Record<string, number>;
    /** within 10 ticks / within 1 tick. */
    ratio_10_to_1_ticks: number;
    /** Time-weighted lots of both sides within 1, 2, 5, 10 bps of the mid (book rows only). */
    within_bps: Record<string, number>;
    /** within 10 bps / within 1 bp. */
    ratio_10_to_1_bps: number;
  };
  trades: {
    count: number;
    size_mean_lots: number;
    size_median_lots: number;
    size_p95_lots: number;
    /** Hill tail index of the trade sizes (largest 5 %). */
    size_tail_index: number;
    interarrival_median_ms: number;
    interarrival_p95_ms: number;
    interarrival_mean_ms: number;
  };
  returns: {
    horizon_sec: number;
    count: number;
    /** Standard deviation of r. */
    std_dev: number;
    /** Returns more than 4 standard deviations from the mean (jumps), and their root mean square. */
    beyond_4sd: number;
    beyond_4sd_rms: number;
    /** Hill tail index of |r| (largest 5 %). */
    hill_tail_index: number;
    kurtosis: number;
    /** ACF of r at lags 1 … 10. */
    acf: number[];
    max_abs_acf: number;
    /** ACF of |r| at lags 1 … 60. */
    abs_acf: number[];
    /** The largest L with ACF(|r|, 1 … L) all > 0 (0 when lag 1 is not). */
    abs_acf_positive_through_lag: number;
    /** Pearson correlation of the volume traded in a horizon with |r| over it. */
    volume_abs_return_corr: number;
  };
  /** At each mark record: (mark − index) / index, and (mid − index) / index when the tick size is known. */
  basis: { samples: number; mean_bps: number; mid_samples: number; mid_mean_bps: number };
  funding: {
    settlements: number;
    mean_rate: number;
    /** Mean |rate| scaled to an 8-hour interval (rate × 8 h / its interval). */
    mean_abs_rate_per_8h: number;
    /** Share of settlements whose rate has the sign of the interval's mean mid basis (both nonzero). */
    sign_follows_basis: number;
  };
}

/**
 * `perpsim facts`: one set of market facts from normalized market records, whatever produced
 * them (a recording in any format the replay reads, an event log, a running simulation). Feed
 * records in receive-time order with `observe`, then read `report()`.
 */
export class MarketFacts {
  private readonly bySymbol = new Map<string, SymbolFacts>();
  private finished = false;

  /**
   * @param units tick and lot size per symbol (`*` for all), shown in the report.
   * @param horizonSec return horizon (default 60: one-minute returns).
   */
  constructor(
    private readonly units: Readonly<Record<string, FactsUnits>> = {},
    private readonly horizonSec = 60,
  ) {
    if (!Number.isInteger(horizonSec) || horizonSec <= 0) throw new RangeError(`return horizon must be a positive whole number of seconds, got ${horizonSec}`);
  }

  observe(r: FactsRecord): void {
    if (this.finished) throw new Error('MarketFacts.observe after report()');
    let s = this.bySymbol.get(r.symbol);
    if (s === undefined) {
      const tick = Number((this.units[r.symbol] ?? this.units['*'])?.tickSize);
      this.bySymbol.set(r.symbol, (s = new SymbolFacts(BigInt(this.horizonSec) * 1_000_000_000n, tick)));
    }
    s.observe(r);
  }

  /** The facts of every symbol, in name order. Ends the observation. */
  report(): SymbolFactsReport[] {
    if (!this.finished) for (const s of this.bySymbol.values()) s.finish();
    this.finished = true;
    return [...this.bySymbol.keys()].sort().map((symbol) => this.symbolReport(symbol, this.bySymbol.get(symbol)!));
  }

  private symbolReport(symbol: string, s: SymbolFacts): SymbolFactsReport {
    const units = this.units[symbol] ?? this.units['*'];
    const top = s.quoteTop.observations > 0 ? s.quoteTop : s.bookTop;
    const returns = s.returnSegments.flat();
    const acf = range(RETURN_ACF_LAGS).map((lag) => autocorrelation(s.returnSegments, lag));
    const absAcf = range(ABS_RETURN_ACF_LAGS).map((lag) => autocorrelation(s.returnSegments.map((seg) => seg.map(Math.abs)), lag));
    const depth = s.bookTop.depthLotsNs.map((lotsNs) => (s.bookTop.depthWeightNs > 0 ? lotsNs / s.bookTop.depthWeightNs : Number.NaN));
    const n = DEPTH_DISTANCES.length;
    return {
      symbol,
      tick_size: units?.tickSize ?? null,
      lot_size: units?.lotSize ?? null,
      duration_sec: s.firstNs === undefined ? 0 : Number(s.lastNs! - s.firstNs) / 1e9,
      last_mid_ticks: s.lastMid ?? Number.NaN,
      spread: { source: s.quoteTop.observations > 0 ? 'quotes' : s.bookTop.observations > 0 ? 'book' : 'none', ...spreadStats(top.spreadWeights) },
      depth: {
        touch_lots: top.touchWeightNs > 0 ? top.touchLotsNs / top.touchWeightNs : Number.NaN,
        within_ticks: Object.fromEntries(DEPTH_DISTANCES.map((d, i) => [String(d), depth[i]!])),
        ratio_10_to_1_ticks: depth[n - 1]! / depth[0]!,
        within_bps: Object.fromEntries(DEPTH_DISTANCES.map((d, i) => [String(d), depth[n + i]!])),
        ratio_10_to_1_bps: depth[2 * n - 1]! / depth[n]!,
      },
      trades: {
        count: s.tradeSizes.length,
        size_mean_lots: mean(s.tradeSizes),
        size_median_lots: quantile(s.tradeSizes, 0.5),
        size_p95_lots: quantile(s.tradeSizes, 0.95),
        size_tail_index: hillTailIndex(s.tradeSizes),
        interarrival_median_ms: quantile(s.interArrivalMs, 0.5),
        interarrival_p95_ms: quantile(s.interArrivalMs, 0.95),
        interarrival_mean_ms: mean(s.interArrivalMs),
      },
      returns: {
        horizon_sec: this.horizonSec,
        count: returns.length,
        ...jumpStats(returns),
        hill_tail_index: hillTailIndex(returns),
        kurtosis: kurtosis(returns),
        acf,
        max_abs_acf: acf.some(Number.isNaN) ? Number.NaN : Math.max(...acf.map(Math.abs)),
        abs_acf: absAcf,
        abs_acf_positive_through_lag: positiveRun(absAcf),
        volume_abs_return_corr: correlation(s.volumeSegments.flat(), returns.map(Math.abs)),
      },
      basis: { samples: s.basisBps.length, mean_bps: mean(s.basisBps), mid_samples: s.midBasisBps.length, mid_mean_bps: mean(s.midBasisBps) },
      funding: fundingFacts(s),
    };
  }
}

/** Spread statistics of a time-weighted distribution (spread in ticks → time). */
export function spreadStats(weights: ReadonlyMap<number, number>): { share_1_tick: number; mean_ticks: number; p50_ticks: number; p95_ticks: number } {
  let total = 0;
  let sum = 0;
  for (const [spread, w] of weights) {
    total += w;
    sum += spread * w;
  }
  return {
    share_1_tick: total > 0 ? (weights.get(1) ?? 0) / total : Number.NaN,
    mean_ticks: total > 0 ? sum / total : Number.NaN,
    p50_ticks: weightedQuantile(weights, 0.5),
    p95_ticks: weightedQuantile(weights, 0.95),
  };
}

function fundingFacts(s: SymbolFacts): SymbolFactsReport['funding'] {
  const f = s.fundings;
  const per8h = f.filter((x) => x.intervalNs > 0).map((x) => (Math.abs(x.rate) * NS_PER_8H) / x.intervalNs);
  const signed = f.filter((x) => x.rate !== 0 && x.basisBps !== 0 && !Number.isNaN(x.basisBps));
  return {
    settlements: f.length,
    mean_rate: mean(f.map((x) => x.rate)),
    mean_abs_rate_per_8h: mean(per8h),
    sign_follows_basis: signed.length === 0 ? Number.NaN : signed.filter((x) => Math.sign(x.rate) === Math.sign(x.basisBps)).length / signed.length,
  };
}

/** Standard deviation of `xs` and the returns beyond 4 of them (count, root mean square). */
function jumpStats(xs: readonly number[]): { std_dev: number; beyond_4sd: number; beyond_4sd_rms: number } {
  const m = mean(xs);
  const sd = Math.sqrt(mean(xs.map((x) => (x - m) * (x - m))));
  const jumps = xs.filter((x) => Math.abs(x - m) > 4 * sd);
  return { std_dev: sd, beyond_4sd: jumps.length, beyond_4sd_rms: Math.sqrt(mean(jumps.map((x) => x * x))) };
}

/** 1 … n. */
function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i + 1);
}

/** The length of the leading run of values > 0. */
function positiveRun(xs: readonly number[]): number {
  let n = 0;
  while (n < xs.length && xs[n]! > 0) n++;
  return n;
}
