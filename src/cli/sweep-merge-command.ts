import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { canonicalJson } from '../sweep/canonical-json.ts';
import { readManifest, writeManifest } from '../sweep/manifest.ts';
import type { SweepPlan } from '../sweep/plan.ts';
import { writeResults } from '../sweep/results.ts';
import { RunStore } from '../sweep/run-store.ts';
import { renderSweepHtml } from '../sweep/sweep-html.ts';
import { heatmapOption, htmlInput, printRanking } from './sweep-command.ts';
import { UsageError } from './usage-error.ts';

/**
 * `perpsim sweep merge DIR… [--out DIR]`: joins the outputs of one sweep's shards (each
 * `sweep.json` must list the same runs) into `--out` (default: the first DIR): copies every
 * finished run there and writes results.arrow / results.csv / sweep.html over all of them.
 * Runs no directory has are listed, and the exit code is then 1.
 */
export function mergeCommand(dirs: string[], options: { out?: string; rankBy?: string; heatmap?: string }): number {
  if (dirs.length === 0) throw new UsageError('sweep merge needs at least one directory');
  const heatmap = heatmapOption(options.heatmap);
  const plans = dirs.map((d) => {
    try {
      return readManifest(d);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
  });
  const plan = plans[0]!;
  const ids = canonicalJson(plan.runs.map((r) => r.id));
  plans.forEach((p, i) => {
    if (canonicalJson(p.runs.map((r) => r.id)) !== ids) throw new UsageError(`${dirs[i]} holds a different sweep than ${dirs[0]} (its sweep.json lists other runs)`);
  });
  const outDir = options.out ?? dirs[0]!;
  const target = new RunStore(outDir);
  if (!dirs.some((d) => resolve(d) === resolve(outDir))) writeManifest(outDir, plan);
  let copied = 0;
  for (const dir of dirs) {
    if (resolve(dir) === resolve(outDir)) continue;
    const source = new RunStore(dir);
    for (const id of source.finishedIds()) if (plan.runs.some((r) => r.id === id) && target.copyFrom(source, id)) copied++;
  }
  const rows = writeResults(outDir, plan, target);
  const missing = missingRuns(plan, target);
  const rankBy = options.rankBy ?? 'net_pnl';
  writeFileSync(join(outDir, 'sweep.html'), renderSweepHtml(htmlInput(plan.spec, rows, rankBy, heatmap, missing.map((id) => ({ id, message: 'not in any directory' })))));
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out(`perpsim sweep merge: ${dirs.length} directories → ${outDir}: ${rows.length} of ${plan.runs.length} runs (${copied} copied)`);
  printRanking(out, rows, rankBy);
  for (const id of missing) out(`missing ${id}`);
  return missing.length > 0 ? 1 : 0;
}

function missingRuns(plan: SweepPlan, store: RunStore): string[] {
  return plan.runs.filter((r) => !store.has(r.id)).map((r) => r.id);
}
