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
  /** Quote currency for labels, e.g. "USD"; optional. */
  readonly currency?: string;
  /** The equity sampling interval, e.g. "1s" (shown so nobody mistakes samples for ticks). */
  readonly sampleInterval?: string;
  /** The metrics table, in display order. */
  readonly metrics: readonly ReportMetric[];
  readonly pnl: ReportPnl;
  readonly series: ReportSeries;
  /** Funding settlements that touched the account; optional. */
  readonly funding?: readonly ReportFundingRow[];
  /** Rejected orders counted by reason; optional. */
  readonly rejects?: { readonly [reason: string]: number };
}

/** One funding settlement: `amount` > 0 received, < 0 paid (exact decimal text). */
export interface ReportFundingRow {
  readonly tNs: string;
  readonly symbol: string;
  readonly rate: string;
  readonly positionLots: number;
  readonly amount: string;
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
  /** Already formatted value, e.g. "1.52" or "-1,234.50". */
  readonly value: string;
  /** The exact value when `value` is rounded (shown on hover). */
  readonly exact?: string;
  /** Unit shown after the value, e.g. "USD", "%", "s". */
  readonly unit?: string;
  readonly headline?: boolean;
}

/**
 * Net PnL and its parts, each a signed contribution in quote currency:
 * net = realized + fees + funding + unrealized. `realized` is trading PnL before fees and
 * funding; `fees` is negative when fees were paid (positive for net rebates); `funding` is
 * positive when received. Exact decimal text; the page shows them rounded (exact on hover).
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
  /**
   * Prices per symbol: the touch (`bid` / `ask`, drawn as two lines) and / or one `price` (mark,
   * mid or last: `label` says which). Give them at fill resolution, so fills sit on the lines.
   */
  readonly prices: readonly ReportSymbolSeries<ReportPricePoint>[];
  /** The strategy's own fills, all symbols. */
  readonly fills: readonly ReportFill[];
  /** Cumulative fees paid (≥ 0 when paying) over time; optional. */
  readonly fees?: readonly { readonly tNs: string; readonly value: string }[];
  /** Cumulative funding received (< 0 when paying) over time; optional. */
  readonly fundingPnl?: readonly { readonly tNs: string; readonly value: string }[];
}

export interface ReportPricePoint {
  readonly tNs: string;
  readonly price?: string;
  readonly bid?: string | null;
  readonly ask?: string | null;
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
  /** Fee charged and trading PnL realized by the fill (decimal text), for the hover details; optional. */
  readonly fee?: string;
  readonly realized?: string;
}

export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };
