/** report.html for a backtest: the input shape and the renderer. */
export type { JsonValue, ReportFill, ReportHtmlInput, ReportMetric, ReportPnl, ReportSeries, ReportSymbolSeries } from './input.ts';
export { renderReportHtml } from './render.ts';
