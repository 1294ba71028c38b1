import type { Side } from '../../core/types.ts';

/**
 * Everything `renderReportHtml` draws, as plain data: the backtest runner maps its results into
 * this shape. Money and quantities are decimal strings (exact text, shown as given); times are
 * integer nanoseconds since the Unix epoch as decimal strings. Series are in time order.
 */
export interface ReportHtmlInput {
  /** Page title, e.g. "market-maker on default". */
  readonly title: string;
  /** The strategy's name (user input: escaped). */
  readonly strategy: string;
  /** The strategy's parameters as passed with --params (user input: shown as escaped JSON). */
  readonly params: { readonly [key: string]: JsonValue };
  /** Scenario name or file, or a description of the replayed files. */
  readonly scenario: string;
  readonly seed: string | number;
  /** The venue's state hash at the end of the run. */
  readonly stateHash: string;
  /** Start and end of the run: integer ns since the epoch ("1758672000000000000") or RFC 3339 text. */
  readonly startTime: string;
  readonly endTime: string;
  /** Quote currency for axis labels, e.g. "USD"; optional. */
  readonly currency?: string;
  /** The metrics table, in display order. */
  readonly metrics: readonly ReportMetric[];
  readonly pnl: ReportPnl;
  readonly series: ReportSeries;
}

/**
 * One row of the metrics table; `headline` rows are also shown as cards at the top (after the
 * net PnL card, which always comes from `pnl.net`, so a `net_pnl` row is not repeated there).
 */
export interface ReportMetric {
  /** Stable key, as in report.json (e.g. "sharpe"). */
  readonly key: string;
  /** Human label, e.g. "Sharpe ratio (annualized)". */
  readonly label: string;
  /** Already formatted value, e.g. "1.52" or "-1234.5". */
  readonly value: string;
  /** Unit shown after the value, e.g. "USD", "%", "s". */
  readonly unit?: string;
  readonly headline?: boolean;
}

/**
 * Net PnL and its parts, each a signed contribution in quote currency:
 * net = realized + fees + funding + unrealized. `realized` is trading PnL before fees and
 * funding; `fees` is negative when fees were paid (positive for net rebates); `funding` is
 * positive when received. If the parts do not sum to `net` the chart shows the rest as "other".
 */
export interface ReportPnl {
  readonly realized: string;
  readonly fees: string;
  readonly funding: string;
  readonly unrealized: string;
  readonly net: string;
}

export interface ReportSeries {
  /** Account equity (cash + unrealized), in quote currency. */
  readonly equity: readonly { readonly tNs: string; readonly equity: string }[];
  /** Equity minus its running peak (≤ 0), in quote currency; computed from `equity` when absent. */
  readonly drawdown?: readonly { readonly tNs: string; readonly drawdown: string }[];
  /** Net position in contracts (signed, long > 0) per symbol; a step function between samples. */
  readonly positions: readonly ReportSymbolSeries<{ readonly tNs: string; readonly qty: string }>[];
  /** A price per symbol (mark, mid or last trade: the runner chooses and `label` says which). */
  readonly prices: readonly ReportSymbolSeries<{ readonly tNs: string; readonly price: string }>[];
  /** The strategy's own fills, all symbols. */
  readonly fills: readonly ReportFill[];
}

export interface ReportSymbolSeries<P> {
  readonly symbol: string;
  /** What the values are, e.g. "mark price"; optional. */
  readonly label?: string;
  readonly points: readonly P[];
}

export interface ReportFill {
  readonly tNs: string;
  readonly symbol: string;
  readonly side: Side;
  readonly price: string;
  readonly qty: string;
  readonly liquidity: 'maker' | 'taker';
}

export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };
