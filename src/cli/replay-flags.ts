import { buildReplaySimulation, type BuiltReplaySimulation } from '../replay/l2/build-replay.ts';
import { replayScenario, takeReplayFiles, type ReplayArgs } from '../replay/l2/replay-scenario.ts';
import { ReplayError } from '../replay/replay-error.ts';
import type { Scenario } from '../scenario/schema.ts';
import { UsageError } from './flags.ts';
import { resolveScenario } from './run-command.ts';

/** Flags that go with `--replay FILES…` (run and serve). */
export const REPLAY_FLAGS = ['queue-model', 'tick-size', 'lot-size'];

/** `--replay` files and the recordings' options, plus the scenario they go into (if any). */
export interface ReplayRequest extends ReplayArgs {
  /** `--scenario` given with `--replay`: its `market.replay` takes the files. */
  baseScenario?: string;
}

/** Splits `--replay FILE…` off the arguments (one-line usage errors). */
export function replayArgs(args: string[]): { files: string[] | undefined; rest: string[] } {
  try {
    return takeReplayFiles(args);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/** The replay part of a request from `--replay` files and the parsed flags. */
export function replayRequest(files: string[], flags: Map<string, string>): ReplayRequest {
  const request: ReplayRequest = { files };
  const model = flags.get('queue-model');
  if (model !== undefined) {
    if (model !== 'risk-averse' && model !== 'prob') throw new UsageError(`--queue-model must be risk-averse or prob, got "${model}"`);
    request.queueModel = model;
  }
  for (const name of ['tick-size', 'lot-size'] as const) {
    const v = flags.get(name);
    if (v === undefined) continue;
    if (!/^\d*\.?\d+$/.test(v) || Number(v) <= 0) throw new UsageError(`--${name} must be a positive decimal, got "${v}"`);
    request[name === 'tick-size' ? 'tickSize' : 'lotSize'] = v;
  }
  const base = flags.get('scenario');
  if (base !== undefined) request.baseScenario = base;
  return request;
}

/**
 * Builds the replay simulation of a run or serve request: `--replay` files (into `--scenario`
 * when given), or a scenario with `market.replay`. Bad files and rows are usage errors.
 */
export async function buildReplayRun(request: { scenario: string; seed?: number; durationNs?: bigint; replay?: ReplayRequest }): Promise<{ scenario: Scenario; sim: BuiltReplaySimulation['sim']; built: BuiltReplaySimulation }> {
  const options: { seed?: number; durationNs?: bigint } = {};
  if (request.seed !== undefined) options.seed = request.seed;
  if (request.durationNs !== undefined) options.durationNs = request.durationNs;
  try {
    let scenario: Scenario;
    let built: BuiltReplaySimulation;
    if (request.replay !== undefined) {
      const base = request.replay.baseScenario === undefined ? undefined : resolveScenario(request.replay.baseScenario);
      const r = await replayScenario(request.replay, base);
      scenario = r.scenario;
      built = await buildReplaySimulation(scenario, { ...options, events: r.events });
    } else {
      scenario = resolveScenario(request.scenario);
      built = await buildReplaySimulation(scenario, options);
    }
    return { scenario, sim: built.sim, built };
  } catch (e) {
    if (e instanceof ReplayError || (e as NodeJS.ErrnoException).code === 'ENOENT') throw new UsageError((e as Error).message);
    throw e;
  }
}
