import { createHash } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { importStrategyModule, instantiateStrategy, type StrategyModule } from '../backtest/strategy-module.ts';
import type { L2Event } from '../replay/l2/l2-event.ts';
import { replayScenario, type ReplayArgs } from '../replay/l2/replay-scenario.ts';
import { loadScenario } from '../scenario/load.ts';
import type { Scenario } from '../scenario/schema.ts';
import { canonicalJson } from './canonical-json.ts';

/**
 * What a sweep runs, as plain JSON (it travels to worker threads and through Redis): one
 * strategy file, one market (a scenario, or recordings), duration and cash. Paths are absolute
 * so a worker anywhere on a shared filesystem finds the same files.
 */
export interface SweepSpec {
  strategyFile: string;
  /** Built-in scenario name or absolute path of a scenario file (the base one with `replay`). */
  scenario: string;
  replay?: ReplayArgs & { baseScenario?: string };
  /** Overrides the scenario's duration, ns as decimal text. */
  durationNs?: string;
  /** Starting cash of the strategy's account, decimal text. */
  cash?: string;
}

/** One run of a sweep: params after the schema's defaults, a seed, and the id both hash to. */
export interface PlannedRun {
  id: string;
  params: unknown;
  seed: number;
}

/** The sweep's runs with what their ids were made of. */
export interface SweepPlan {
  spec: SweepSpec;
  strategySha256: string;
  marketSha256: string;
  version: string;
  runs: PlannedRun[];
}

/** Everything a process needs to run any run of a sweep; built once per worker. */
export interface SweepContext {
  spec: SweepSpec;
  strategyName: string;
  module: StrategyModule;
  scenario: Scenario;
  replayEvents?: readonly L2Event[];
}

const contexts = new Map<string, Promise<SweepContext>>();

/**
 * The context of a spec, loaded once per process: the strategy module imported, the scenario
 * resolved, recordings read (so a worker running many runs reads the data once).
 */
export function sweepContext(spec: SweepSpec): Promise<SweepContext> {
  const key = canonicalJson(spec);
  let ctx = contexts.get(key);
  if (ctx === undefined) {
    ctx = loadContext(spec);
    ctx.catch(() => contexts.delete(key));
    contexts.set(key, ctx);
  }
  return ctx;
}

async function loadContext(spec: SweepSpec): Promise<SweepContext> {
  const module = await importStrategyModule(spec.strategyFile);
  const strategyName = basename(spec.strategyFile);
  if (spec.replay === undefined) return { spec, strategyName, module, scenario: loadScenario(spec.scenario) };
  const base = spec.replay.baseScenario === undefined ? undefined : loadScenario(spec.replay.baseScenario);
  const { scenario, events } = await replayScenario(spec.replay, base, { load: true });
  return { spec, strategyName, module, scenario, replayEvents: events };
}

/**
 * Plans a sweep: every params set (validated and completed by the strategy's schema) × every
 * seed, each with its id = sha256 of (strategy file bytes, params after defaults, market
 * content hash, seed, duration, cash, perpsim version). Sorted by id.
 */
export async function planSweep(spec: SweepSpec, paramSets: readonly unknown[], seeds: readonly number[]): Promise<SweepPlan> {
  const ctx = await sweepContext(spec);
  const strategySha256 = sha256(readFileSync(spec.strategyFile));
  const marketSha256 = await marketHash(spec, ctx.scenario);
  const version = perpsimVersion();
  const runs: PlannedRun[] = [];
  const seen = new Set<string>();
  for (const raw of paramSets) {
    const { params } = await instantiateStrategy(ctx.module, raw, ctx.strategyName);
    for (const seed of seeds) {
      const id = runId({ strategySha256, marketSha256, version, params, seed, durationNs: spec.durationNs, cash: spec.cash });
      if (seen.has(id)) continue; // two params sets the schema made equal
      seen.add(id);
      runs.push({ id, params, seed });
    }
  }
  runs.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { spec, strategySha256, marketSha256, version, runs };
}

/** The id of a run: 20 hex digits of sha256 over its inputs in canonical JSON. */
export function runId(inputs: { strategySha256: string; marketSha256: string; version: string; params: unknown; seed: number; durationNs?: string | undefined; cash?: string | undefined }): string {
  return sha256(canonicalJson(inputs)).slice(0, 20);
}

/** Content hash of the market: the resolved scenario, plus the bytes of every recording replayed. */
async function marketHash(spec: SweepSpec, scenario: Scenario): Promise<string> {
  const h = createHash('sha256');
  h.update(canonicalJson(scenario));
  for (const file of spec.replay?.files ?? []) h.update(await fileSha256(file));
  h.update(canonicalJson({ ...spec.replay, files: undefined, baseScenario: undefined }));
  return h.digest('hex');
}

function fileSha256(file: string): Promise<string> {
  return new Promise((ok, fail) => {
    const h = createHash('sha256');
    createReadStream(file)
      .on('data', (chunk) => h.update(chunk))
      .on('error', fail)
      .on('end', () => ok(h.digest('hex')));
  });
}

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

let version: string | undefined;

/** perpsim's version (package.json): part of every run id, so an upgrade reruns everything. */
export function perpsimVersion(): string {
  version ??= (JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string }).version;
  return version;
}

/** A spec with every path made absolute. */
export function absoluteSpec(spec: SweepSpec): SweepSpec {
  const out: SweepSpec = { ...spec, strategyFile: resolve(spec.strategyFile) };
  if (isPath(spec.scenario)) out.scenario = resolve(spec.scenario);
  if (spec.replay !== undefined) {
    out.replay = { ...spec.replay, files: spec.replay.files.map((f) => resolve(f)) };
    const base = spec.replay.baseScenario;
    if (base !== undefined && isPath(base)) out.replay.baseScenario = resolve(base);
  }
  return out;
}

function isPath(nameOrFile: string): boolean {
  return nameOrFile.includes('/') || nameOrFile.endsWith('.json');
}
