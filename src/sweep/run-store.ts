import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { threadId } from 'node:worker_threads';
import type { BacktestReport } from '../backtest/report.ts';

/**
 * A sweep's directory: `runs/<id>/report.json` (+ `fills.arrow`) per finished run. A run is
 * written into a temporary directory and renamed into place, so `report.json` exists only
 * for complete runs: a sweep killed at any moment resumes from what is there, and two workers
 * finishing the same run (a retried job whose first worker died late) leave one copy.
 */
export class RunStore {
  readonly runsDir: string;

  constructor(readonly dir: string) {
    this.runsDir = join(dir, 'runs');
  }

  has(id: string): boolean {
    return existsSync(join(this.runsDir, id, 'report.json'));
  }

  /** The ids of finished runs in the directory. */
  finishedIds(): string[] {
    if (!existsSync(this.runsDir)) return [];
    return readdirSync(this.runsDir)
      .filter((name) => !name.includes('.') && this.has(name))
      .sort();
  }

  report(id: string): BacktestReport {
    return JSON.parse(readFileSync(join(this.runsDir, id, 'report.json'), 'utf8')) as BacktestReport;
  }

  /** Writes a finished run's files atomically; false when the run was already there. */
  write(id: string, files: readonly (readonly [string, string | Uint8Array])[]): boolean {
    const final = join(this.runsDir, id);
    if (this.has(id)) return false;
    const tmp = join(this.runsDir, `${id}.tmp-${process.pid}-${threadId}-${randomUUID()}`);
    mkdirSync(tmp, { recursive: true });
    for (const [name, content] of files) writeFileSync(join(tmp, name), content);
    try {
      renameSync(tmp, final);
      return true;
    } catch (e) {
      rmSync(tmp, { recursive: true, force: true });
      const code = (e as NodeJS.ErrnoException).code;
      if ((code === 'ENOTEMPTY' || code === 'EEXIST') && this.has(id)) return false;
      throw e;
    }
  }

  /** Copies a finished run from another store (merging shards); false when already here. */
  copyFrom(other: RunStore, id: string): boolean {
    if (this.has(id)) return false;
    const src = join(other.runsDir, id);
    const files = readdirSync(src)
      .sort()
      .map((name) => [name, readFileSync(join(src, name))] as const);
    return this.write(id, files);
  }
}
