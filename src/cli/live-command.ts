import { basename, extname, join } from 'node:path';
import { WireExchangePort } from '../api/client/wire-exchange-port.ts';
import type { WireClientOptions } from '../api/client/wire-client-options.ts';
import { WireError } from '../api/client/errors.ts';
import { metricLines } from '../backtest/metric-table.ts';
import { buildReport } from '../backtest/report.ts';
import { writeReportFiles } from '../backtest/report-files.ts';
import { instantiateStrategy, oneLine, StrategyLoadError } from '../backtest/strategy-module.ts';
import { runLive } from '../live/live-run.ts';
import { importStrategy, parseParamsJson } from './backtest-command.ts';
import { prepareOutDir } from './out-path.ts';
import { UsageError } from './usage-error.ts';

/** What `perpsim live` was asked to do, after flag parsing. */
export interface LiveRequest {
  strategyFile: string;
  paramsJson?: string;
  /** {base_url} of the exchange, e.g. http://127.0.0.1:8080. */
  url: string;
  user: string;
  password?: string;
  apiKey?: string;
  secret?: string;
  /** Wall time to run (default: until Ctrl-C). */
  durationNs?: bigint;
  /** Wall ms between equity samples (default 60,000). */
  sampleIntervalMs?: number;
  outDir?: string;
}

/**
 * `perpsim live`: the strategy on the wire client (token renewal, reconnects with resubscribe
 * and order reconciliation), until --duration or Ctrl-C / SIGTERM; then cancel all, onStop,
 * and the backtest's report files. `stop` ends it early (tests).
 */
export async function liveCommand(request: LiveRequest, stop?: Promise<void>): Promise<number> {
  const credentials = credentialsOf(request);
  const params = parseParamsJson(request.paramsJson);
  const name = basename(request.strategyFile);
  const mod = await importStrategy(request.strategyFile);
  const { strategy, params: parsedParams } = await instantiateStrategy(mod, params, name).catch((e: unknown) => {
    throw e instanceof StrategyLoadError ? new UsageError(oneLine(e)) : e;
  });
  const outDir = request.outDir ?? join('out', `live-${basename(name, extname(name)).replace(/[^A-Za-z0-9._-]+/g, '-')}`);
  prepareOutDir(request.outDir === undefined ? 'output directory' : '--out', outDir);
  const port = await WireExchangePort.connect({ baseUrl: request.url, username: request.user, ...credentials, keepAlive: true }).catch((e: unknown) => {
    throw e instanceof WireError ? new UsageError(`cannot connect to ${request.url} as ${request.user}: ${oneLine(e)}`) : e;
  });
  const w = (line: string) => process.stderr.write(`${line}\n`);
  port.onReconnect((r) => w(`perpsim live: ${r.socket} socket reconnected${r.closedWhileAway.length > 0 ? `; closed while away: ${r.closedWhileAway.join(', ')}` : ''}`));
  let finish!: () => void;
  const ended = new Promise<void>((resolve) => (finish = resolve));
  const onSignal = () => finish();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const timer = request.durationNs === undefined ? undefined : setTimeout(finish, Number(request.durationNs / 1_000_000n));
  void stop?.then(finish);
  w(`perpsim live: ${name} as ${request.user} on ${request.url}; Ctrl-C cancels all orders and stops`);
  try {
    const options = { stop: ended, source: `live ${request.url}` };
    const result = await runLive(strategy, port, request.sampleIntervalMs === undefined ? options : { ...options, sampleIntervalMs: request.sampleIntervalMs });
    const report = buildReport(result, name, parsedParams);
    writeReportFiles(outDir, report, result);
    process.stdout.write(`perpsim live: ${report.strategy} on ${report.scenario}, ${report.duration} → ${outDir}\n`);
    for (const line of metricLines(report.metrics)) process.stdout.write(`  ${line}\n`);
  } finally {
    clearTimeout(timer);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await port.close();
  }
  return 0;
}

function credentialsOf(r: LiveRequest): Pick<WireClientOptions, 'password' | 'apiKey'> {
  if (r.password !== undefined && r.apiKey === undefined && r.secret === undefined) return { password: r.password };
  if (r.password === undefined && r.apiKey !== undefined && r.secret !== undefined) return { apiKey: { key: r.apiKey, secret: r.secret } };
  throw new UsageError('give --password, or --api-key with --secret');
}

