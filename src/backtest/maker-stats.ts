import type { TimeNs } from '../core/types.ts';
import type { TouchTime } from './market-watch.ts';
import { MARKOUT_HORIZONS_S } from './markouts.ts';
import type { FillRecord } from './recorder.ts';

/**
 * Markout of maker fills at each of `MARKOUT_HORIZONS_S` (1 s, 10 s, 60 s), in basis points:
 * the mean over the maker fills whose later mid was measured (inside the run, on a two-sided
 * book) of side × (mid after h − fill price) / fill price × 10⁴, side +1 for a buy and −1 for a
 * sell. Positive: the market moved the maker's way after the fill (it earned the spread);
 * negative: it was picked off (adverse selection). Null when no maker fill has a measured mid.
 */
export function makerMarkoutsBps(fills: readonly FillRecord[]): (number | null)[] {
  return MARKOUT_HORIZONS_S.map((_, k) => {
    let sum = 0;
    let n = 0;
    for (const f of fills) {
      const midX2 = f.midAfterX2[k];
      if (!f.maker || midX2 === null || midX2 === undefined || f.priceTicks <= 0) continue;
      const side = f.side === 'B' ? 1 : -1;
      sum += (side * (midX2 / 2 - f.priceTicks) * 10_000) / f.priceTicks;
      n++;
    }
    return n === 0 ? null : sum / n;
  });
}

/**
 * Share of the run quoted at the touch, per symbol: time with one of the account's resting
 * orders at the best bid, at the best ask, and at both at once, each / the run's length.
 */
export function touchShares(times: readonly TouchTime[], symbols: readonly string[], durationNs: TimeNs): { bid: Record<string, number>; ask: Record<string, number>; both: Record<string, number> } {
  const frac = (ns: bigint) => (durationNs <= 0n ? 0 : Number((ns * 1_000_000n) / durationNs) / 1_000_000);
  const bid: Record<string, number> = {};
  const ask: Record<string, number> = {};
  const both: Record<string, number> = {};
  symbols.forEach((s, i) => {
    const t = times[i];
    bid[s] = frac(t?.bidNs ?? 0n);
    ask[s] = frac(t?.askNs ?? 0n);
    both[s] = frac(t?.bothNs ?? 0n);
  });
  return { bid, ask, both };
}
