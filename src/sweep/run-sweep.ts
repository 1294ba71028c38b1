import type { RunOutcome } from './execute-run.ts';
import type { Executor, RunEvents } from './executor.ts';
import { writeManifest } from './manifest.ts';
import type { PlannedRun, SweepPlan } from './plan.ts';
import { writeResults, type ResultRow } from './results.ts';
import { RunStore } from './run-store.ts';
import { shardOf, type Shard } from './shard.ts';

/** What a sweep did. */
export interface SweepOutcome {
  /** Runs of this sweep (of this shard, with `--shard`). */
  planned: number;
  /** Already finished in the directory before this invocation (resumed past). */
  skipped: number;
  /** Finished by this invocation. */
  ran: number;
  failed: { id: string; message: string }[];
  /** Rows written to results.arrow / results.csv: every finished run of the plan in the directory. */
  rows: ResultRow[];
}

/** The runs of `plan` that belong to `shard` (all of them without one). */
export function runsOfShard(plan: SweepPlan, shard: Shard | undefined): PlannedRun[] {
  return shard === undefined ? plan.runs : plan.runs.filter((r) => shardOf(r.id, shard.count) === shard.index);
}

/**
 * Runs a planned sweep into `outDir`: writes `sweep.json`, skips runs already finished there
 * (resume), hands the rest to the executor, then writes `results.arrow` and `results.csv`
 * over every finished run of the plan, sorted by id.
 */
export async function runSweep(plan: SweepPlan, outDir: string, executor: Executor, options: { shard?: Shard; events?: Partial<RunEvents>; onPlanned?: (pending: number, skipped: number) => void } = {}): Promise<SweepOutcome> {
  const store = new RunStore(outDir);
  writeManifest(outDir, plan);
  const mine = runsOfShard(plan, options.shard);
  const pending = mine.filter((r) => !store.has(r.id));
  options.onPlanned?.(pending.length, mine.length - pending.length);
  const failed: { id: string; message: string }[] = [];
  let ran = 0;
  await executor(plan, pending, outDir, {
    started: (id) => options.events?.started?.(id),
    finished: (outcome: RunOutcome) => {
      ran++;
      options.events?.finished?.(outcome);
    },
    failed: (id, message) => {
      failed.push({ id, message });
      options.events?.failed?.(id, message);
    },
  });
  failed.sort((a, b) => (a.id < b.id ? -1 : 1));
  const rows = writeResults(outDir, plan, store);
  return { planned: mine.length, skipped: mine.length - pending.length, ran, failed, rows };
}
