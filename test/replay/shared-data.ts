import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The recorded exchange data shared by the team, next to the repository (never copied into it). */
export const SHARED_DATA = join(import.meta.dirname, '../../../shared/data');

/** `SHARED_DATA/<folder>`, whether it exists, and a suite title that says when it is missing. */
export function sharedFolder(folder: string, title: string): { dir: string; missing: boolean; title: string } {
  const dir = join(SHARED_DATA, folder);
  const missing = !existsSync(dir);
  return { dir, missing, title: missing ? `${title} (skipped: ${dir} not found)` : title };
}
