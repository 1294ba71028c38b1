import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveLatencyFiles } from './latency-files.ts';
import { resolveRecordedIndexes } from './recorded-series.ts';
import { resolveReplayPaths } from './replay-schema.ts';
import { describeIssue, scenarioSchema, type Scenario } from './schema.ts';

/** The scenarios shipped with perpsim (the repository's scenarios/ folder). */
export const BUILT_IN_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../scenarios');

/** A scenario that cannot be used: the message names the file and the field. */
export class ScenarioError extends Error {}

/** Names of the built-in scenarios. */
export function builtInScenarios(): string[] {
  return readdirSync(BUILT_IN_DIR)
    .filter((f) => f.endsWith('.json'))
    .map((f) => basename(f, '.json'))
    .sort();
}

/**
 * Loads a built-in scenario by name, or a JSON file by path, validates it, and reads the files
 * of recorded index series (relative to the scenario's folder).
 */
export function loadScenario(nameOrFile: string): Scenario {
  const builtIn = join(BUILT_IN_DIR, `${nameOrFile}.json`);
  const file = /^[a-z0-9-]+$/.test(nameOrFile) && existsSync(builtIn) ? builtIn : nameOrFile;
  if (!existsSync(file)) {
    throw new ScenarioError(`scenario "${nameOrFile}" is neither a built-in scenario (${builtInScenarios().join(', ')}) nor a file`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ScenarioError(`${file}: not valid JSON (${(e as Error).message})`);
  }
  const parsed = parseScenario(raw, file);
  // Recorded market files are named relative to the scenario file, like recorded indexes.
  const scenario = parsed.market === undefined ? parsed : { ...parsed, market: { replay: resolveReplayPaths(parsed.market.replay, dirname(file)) } };
  let indexed: Scenario;
  try {
    indexed = resolveRecordedIndexes(scenario, dirname(file));
  } catch (e) {
    throw new ScenarioError(`${file}: index: ${(e as Error).message}`);
  }
  try {
    return resolveLatencyFiles(indexed, dirname(file));
  } catch (e) {
    throw new ScenarioError(`${file}: latency: ${(e as Error).message}`);
  }
}

/** Validates scenario data; `where` names its origin in error messages. */
export function parseScenario(raw: unknown, where = 'scenario'): Scenario {
  const result = scenarioSchema.safeParse(raw);
  if (!result.success) throw new ScenarioError(`${where}: ${describeIssue(result.error)}`);
  return result.data;
}
