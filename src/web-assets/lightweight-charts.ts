import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * TradingView's lightweight-charts, the standalone production build (it defines
 * `window.LightweightCharts`), read from the installed package: report.html inlines it and the
 * live web view serves it, so neither page loads anything from a CDN.
 */
export function lightweightChartsPath(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('lightweight-charts/package.json')), 'dist', 'lightweight-charts.standalone.production.js');
}

let cached: string | undefined;

/** The library's source text (read once). */
export function lightweightChartsSource(): string {
  cached ??= readFileSync(lightweightChartsPath(), 'utf8');
  return cached;
}
