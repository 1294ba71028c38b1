import { loadScenario, ScenarioError } from '../scenario/load.ts';
import type { Scenario } from '../scenario/schema.ts';
import { UsageError } from './usage-error.ts';

/** Loads the scenario a `--scenario NAME|FILE` names, or says, in one line, why it cannot. */
export function resolveScenario(nameOrFile: string): Scenario {
  try {
    return loadScenario(nameOrFile);
  } catch (e) {
    if (e instanceof ScenarioError) throw new UsageError(e.message);
    throw e;
  }
}
