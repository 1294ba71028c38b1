import type { ReplayArgs } from '../replay/l2/replay-scenario.ts';
import { ReplayError } from '../replay/replay-error.ts';
import type { L2Event } from '../replay/l2/l2-event.ts';
import { buildRun, type BuiltRun, type RunOptions } from '../run/build-run.ts';
import type { Scenario } from '../scenario/schema.ts';
import { ScenarioError } from '../scenario/load.ts';
import { UsageError } from './usage-error.ts';
import { resolveScenario } from './scenario-arg.ts';

/** `--replay` files and the recordings' options, plus the scenario they go into (if any). */
export interface ReplayRequest extends ReplayArgs {
  /** `--scenario` given with `--replay`: its `market.replay` takes the files. */
  baseScenario?: string;
}

/**
 * Builds the run of a run or serve request: `--replay` files (into `--scenario` when given), or
 * the named scenario, synthetic or recorded (`buildRun` decides). Bad files and rows are usage errors.
 */
export async function buildRequestedRun(request: { scenario: string; seed?: number; durationNs?: bigint; replay?: ReplayRequest }): Promise<{ scenario: Scenario; sim: BuiltRun['sim']; built: BuiltRun }> {
  const options: RunOptions = {};
  if (request.seed !== undefined) options.seed = request.seed;
  if (request.durationNs !== undefined) options.durationNs = request.durationNs;
  const { scenario, events } = await requestedScenario(request);
  if (events !== undefined) options.replayEvents = events;
  try {
    const built = await buildRun(scenario, options);
    return { scenario, sim: built.sim, built };
  } catch (e) {
    if (e instanceof ReplayError || e instanceof ScenarioError || (e as NodeJS.ErrnoException).code === 'ENOENT') throw new UsageError(replayErrorLine(e as Error));
    throw e;
  }
}

/**
 * The scenario of a run, serve or backtest request — the one road from `--replay` files (into
 * `--scenario` when given) or a named scenario — with the recordings' events when it replays.
 * Bad files and rows are one-line usage errors.
 */
export async function requestedScenario(request: { scenario: string; replay?: ReplayRequest }): Promise<{ scenario: Scenario; events?: L2Event[] }> {
  if (request.replay === undefined) return { scenario: resolveScenario(request.scenario) };
  const base = request.replay.baseScenario === undefined ? undefined : resolveScenario(request.replay.baseScenario);
  try {
    // Loaded only when replaying (see build-run.ts: a synthetic run's start-up does without the readers).
    const { replayScenario } = await import('../replay/l2/replay-scenario.ts');
    return await replayScenario(request.replay, base);
  } catch (e) {
    if (e instanceof ReplayError || e instanceof ScenarioError || e instanceof RangeError || (e as NodeJS.ErrnoException).code === 'ENOENT') throw new UsageError(replayErrorLine(e as Error));
    throw e;
  }
}

/** A replay file's problem as the one line the CLI prints (`no such file: X`, or file: reason). */
export function replayErrorLine(e: Error): string {
  if (e instanceof ReplayError && e.line === undefined && e.reason === 'no such file') return `no such file: ${e.file}`;
  return e.message.replace(/\s*\n\s*/g, ' ');
}
