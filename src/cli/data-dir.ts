import { Exchange, type ExchangeOptions } from '../api/exchange.ts';
import type { JournalHeader } from '../api/journal/entries.ts';
import { openDataDir } from '../api/journal/restore.ts';
import { parseScenario } from '../scenario/load.ts';
import type { Scenario } from '../scenario/schema.ts';
import { buildSimulation } from '../sim/build.ts';
import { resolveScenario } from './scenario-arg.ts';
import { UsageError } from './usage-error.ts';

/** A journaled exchange for `perpsim serve --data-dir`, and where it came from. */
export interface DataDirExchange {
  exchange: Exchange;
  scenario: Scenario;
  seed: number;
  /** Journal entries replayed (0 when the directory was new). */
  restored: number;
}

/**
 * The exchange of `serve --data-dir DIR`: restored from DIR's journal when there is one (its
 * scenario and seed win over `--scenario` / `--seed`), else built from the request with a new
 * journal in DIR. Recorded-market (`--replay`) serving is not journaled.
 */
export async function exchangeForDataDir(
  dir: string,
  request: { scenario: string; seed?: number; replay?: unknown },
  options: ExchangeOptions,
  check: (scenario: Scenario) => void = () => {},
): Promise<DataDirExchange> {
  if (request.replay !== undefined) throw new UsageError('--data-dir cannot be combined with --replay');
  let scenario: Scenario | undefined;
  let seed = 0;
  const opened = await openDataDir(
    dir,
    () => {
      const requested = resolveScenario(request.scenario);
      if (requested.market !== undefined) throw new UsageError('--data-dir cannot serve a recorded-market scenario');
      return { perpsim_journal: 1, scenario: requested, seed: request.seed ?? requested.seed };
    },
    async (header: JournalHeader) => {
      scenario = parseScenario(header.scenario);
      check(scenario);
      seed = header.seed;
      return Exchange.forSimulation(buildSimulation(scenario, { seed }), options);
    },
  );
  return { exchange: opened.exchange, scenario: scenario!, seed, restored: opened.restored };
}
