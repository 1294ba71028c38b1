import type { SymbolFactsReport } from './market-facts.ts';

/** One realism target checked on a simulated market. */
export interface TargetCheck {
  target: string;
  value: string;
  met: boolean;
}

/** Share of funding settlements whose sign must match the interval's basis. */
export const SIGN_FOLLOWS_BASIS_MIN = 0.8;

/**
 * The realism targets of a BTC-like market over a simulated day (issue 14), checked on `sim`;
 * trade sizes and inter-arrival times are compared with `capture` (a real recording's facts):
 * within a factor 2 of its median and 95th percentile. A NaN value never meets its target.
 */
export function checkTargets(sim: SymbolFactsReport, capture: SymbolFactsReport | undefined): TargetCheck[] {
  const r = sim.returns;
  const f = sim.funding;
  const checks: TargetCheck[] = [
    { target: 'spread 1 tick ≥ 90 % of the time', value: pct(sim.spread.share_1_tick), met: sim.spread.share_1_tick >= 0.9 },
    { target: 'depth within 10 ticks of the mid 3–6× depth within 1 tick', value: fix(sim.depth.ratio_10_to_1_ticks, 2), met: sim.depth.ratio_10_to_1_ticks >= 3 && sim.depth.ratio_10_to_1_ticks <= 6 },
    { target: 'Hill tail index of 1-min returns 2.5–3.5', value: fix(r.hill_tail_index, 2), met: r.hill_tail_index >= 2.5 && r.hill_tail_index <= 3.5 },
    { target: '|ACF(r, 1…10)| < 0.05', value: fix(r.max_abs_acf, 3), met: r.max_abs_acf < 0.05 },
    { target: 'ACF(|r|) > 0 up to 60 min', value: `through lag ${r.abs_acf_positive_through_lag}`, met: r.abs_acf_positive_through_lag >= 60 },
    { target: 'volume–|r| correlation > 0', value: fix(r.volume_abs_return_corr, 3), met: r.volume_abs_return_corr > 0 },
    { target: 'mean |funding| ≤ 0.03 % per 8 h', value: pct(f.mean_abs_rate_per_8h, 4), met: f.mean_abs_rate_per_8h <= 0.0003 },
    { target: `funding sign follows the basis (≥ ${SIGN_FOLLOWS_BASIS_MIN * 100} % of settlements)`, value: pct(f.sign_follows_basis), met: f.sign_follows_basis >= SIGN_FOLLOWS_BASIS_MIN },
  ];
  if (capture !== undefined) {
    const t = sim.trades;
    const c = capture.trades;
    checks.push(
      within2('trade size median', t.size_median_lots, c.size_median_lots),
      within2('trade size p95', t.size_p95_lots, c.size_p95_lots),
      within2('inter-arrival median', t.interarrival_median_ms, c.interarrival_median_ms),
      within2('inter-arrival p95', t.interarrival_p95_ms, c.interarrival_p95_ms),
    );
  }
  return checks;
}

function within2(what: string, value: number, reference: number): TargetCheck {
  const ratio = value / reference;
  return { target: `${what} within 2× of the capture's (${fix(reference, 1)})`, value: `${fix(value, 1)} (${fix(ratio, 2)}×)`, met: ratio >= 0.5 && ratio <= 2 };
}

function fix(x: number, digits: number): string {
  return Number.isFinite(x) ? x.toFixed(digits) : 'n/a';
}

function pct(x: number, digits = 1): string {
  return Number.isFinite(x) ? `${(x * 100).toFixed(digits)} %` : 'n/a';
}
