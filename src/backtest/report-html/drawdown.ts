import { formatMoney, parseMoney } from '../../core/money.ts';
import type { ReportSeries } from './input.ts';

/**
 * Drawdown from equity, exactly: equity minus its running peak (0 at a new high, negative
 * below it), in the equity's currency. Used when the runner does not pass its own series.
 */
export function drawdownFromEquity(equity: ReportSeries['equity']): { tNs: string; drawdown: string }[] {
  let peak: bigint | undefined;
  return equity.map((p, i) => {
    let e: bigint;
    try {
      e = parseMoney(p.equity);
    } catch {
      throw new RangeError(`report: equity[${i}] is not a decimal amount: ${JSON.stringify(p.equity)}`);
    }
    if (peak === undefined || e > peak) peak = e;
    return { tNs: p.tNs, drawdown: formatMoney(e - peak) };
  });
}
