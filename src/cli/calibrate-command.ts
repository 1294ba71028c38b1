import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { calibrate, calibratedScenario, type Calibration } from '../facts/calibrate.ts';
import type { SymbolFactsReport } from '../facts/market-facts.ts';
import { factsJson, formatFactsTable } from '../facts/table.ts';
import type { SourceFormat } from '../replay/market-sources.ts';
import { ReplayError } from '../replay/replay-error.ts';
import { factsOfFilesAt, factsOfScenarioRun } from './facts-command.ts';
import { prepareOutFile } from './out-path.ts';
import { resolveScenario } from './scenario-arg.ts';
import { UsageError } from './usage-error.ts';

/** What `perpsim calibrate` was asked to do (flags parsed by `commands/calibrate.ts`). */
export interface CalibrateRequest {
  files: string[];
  out: string;
  from?: SourceFormat;
  tickSize?: string;
  lotSize?: string;
  symbol?: string;
  /** Which recorded symbol to fit (default: the first by name). */
  fit?: string;
  /** Sim time of the comparison run (0: none; default 10 minutes). */
  compare?: bigint;
  json: boolean;
}

/**
 * `perpsim calibrate RECORDING… --out scenario.json`: fits a scenario to a recording (index
 * volatility and jumps, maker spread / levels / sizes, noise-trader rate and size tail, from the
 * recording's facts), writes it, loads it back, runs it for `--compare` and prints its facts
 * beside the recording's.
 *
 * @returns 0, or 1 when a recording is unreadable (one line); usage errors throw `UsageError`.
 */
export async function calibrateCommand(request: CalibrateRequest): Promise<number> {
  prepareOutFile('--out', request.out);
  let facts: SymbolFactsReport[];
  let fine: SymbolFactsReport[];
  try {
    [facts, fine] = (await factsOfFilesAt(request.files, request.from, { tickSize: request.tickSize, lotSize: request.lotSize, symbol: request.symbol }, [60, 1])) as [SymbolFactsReport[], SymbolFactsReport[]];
  } catch (e) {
    if (!(e instanceof ReplayError)) throw e;
    process.stderr.write(`perpsim: ${e.message.replace(/\s*\n\s*/g, ' ')}\n`);
    return 1;
  }
  const symbol = request.fit ?? facts[0]?.symbol;
  const recorded = facts.find((f) => f.symbol === symbol);
  const recordedFine = fine.find((f) => f.symbol === symbol);
  if (recorded === undefined || recordedFine === undefined) throw new UsageError(symbol === undefined ? 'the recording holds no market data' : `--fit ${symbol}: not in the recording (${facts.map((f) => f.symbol).join(', ')})`);
  if (recorded.tick_size === null || recorded.lot_size === null) throw new UsageError(`${symbol}: the recording does not say its tick and lot size (give --tick-size and --lot-size)`);
  if (!(recorded.trades.count > 1) || !Number.isFinite(recorded.last_mid_ticks)) throw new UsageError(`${symbol}: too little data to fit (needs trades and a two-sided book)`);

  const fit = calibrate({ facts: recorded, fine: recordedFine });
  const name = basename(request.out).replace(/\.json$/i, '');
  const scenarioJson = calibratedScenario(name, symbol!, { tickSize: recorded.tick_size, lotSize: recorded.lot_size }, recorded.last_mid_ticks, fit);
  writeFileSync(request.out, JSON.stringify(scenarioJson, null, 2) + '\n');
  const scenario = resolveScenario(request.out); // the fitted file loads, or this says why in one line
  const compareNs = request.compare ?? 600_000_000_000n;
  const simulated = compareNs > 0n ? factsOfScenarioRun(scenario, scenario.seed, compareNs) : [];
  if (request.json) {
    process.stdout.write(factsJson({ out: request.out, symbol, calibration: fit, recorded, simulated }) + '\n');
    return 0;
  }
  process.stdout.write(`perpsim calibrate: ${symbol} → ${request.out}\n${formatCalibration(fit)}\n`);
  if (simulated.length > 0) {
    process.stdout.write(formatFactsTable([{ heading: `recorded ${symbol}`, facts: recorded }, ...simulated.map((f) => ({ heading: `fitted ${f.symbol}`, facts: f }))]));
  }
  return 0;
}

function formatCalibration(c: Calibration): string {
  return [
    `index: vol ${c.volAnnual} annual, jumps ${c.jumpsPerDay}/day (log std ${c.jumpLogStd})`,
    `maker: half spread ${c.halfSpreadTicks} ticks, ${c.makerLevels} levels ${c.levelSpacingTicks} ticks apart, ${c.makerSizeLots} lots at the touch, growth ${c.sizeGrowth}`,
    `noise: ${c.noiseRatePerSec} orders/s (${c.marketableProbability * 100} % marketable), Pareto sizes from ${c.sizeMinLots} lots, tail ${c.sizeAlpha}, cap ${c.sizeMaxLots}`,
  ].join('\n') + '\n';
}
