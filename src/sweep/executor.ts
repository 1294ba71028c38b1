import type { RunOutcome } from './execute-run.ts';
import type { PlannedRun, SweepPlan } from './plan.ts';

/** What an executor tells the sweep as runs go (drives the progress bar and the failure list). */
export interface RunEvents {
  started(id: string): void;
  finished(outcome: RunOutcome): void;
  /** The run failed for good (after any retries); `message` is one line. */
  failed(id: string, message: string): void;
}

/** Runs `runs` of `plan`, writing under `outDir`; resolves when each has finished or failed. */
export type Executor = (plan: SweepPlan, runs: readonly PlannedRun[], outDir: string, events: RunEvents) => Promise<void>;
