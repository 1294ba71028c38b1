import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { SweepPlan } from './plan.ts';

/** `DIR/sweep.json`: the plan (spec and every run with its id), so merges know what to expect. */
export const MANIFEST = 'sweep.json';

export function writeManifest(dir: string, plan: SweepPlan): void {
  mkdirSync(dir, { recursive: true });
  writeAtomic(join(dir, MANIFEST), `${JSON.stringify(plan, null, 2)}\n`);
}

export function readManifest(dir: string): SweepPlan {
  const file = join(dir, MANIFEST);
  if (!existsSync(file)) throw new Error(`${dir} is not a sweep directory (no ${MANIFEST})`);
  return JSON.parse(readFileSync(file, 'utf8')) as SweepPlan;
}

/** Writes through a temporary file and a rename, so readers never see half a file. */
export function writeAtomic(file: string, content: string | Uint8Array): void {
  const tmp = `${file}.tmp-${randomUUID()}`;
  writeFileSync(tmp, content);
  renameSync(tmp, file);
}
