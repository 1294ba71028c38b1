import { accessSync, constants, existsSync, mkdirSync, statfsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from './usage-error.ts';

// Output paths are checked before anything is created, so a bad --out is one line and exit 2
// instead of a stack trace (EEXIST, ENOTDIR) or a hang: Node's recursive mkdir loops forever
// below /proc, where every missing name answers ENOENT.

/** Kernel pseudo file systems (statfs f_type) where perpsim never writes. */
const PSEUDO_FILE_SYSTEMS = new Map<number, string>([
  [0x9fa0, 'procfs'],
  [0x62656572, 'sysfs'],
  [0x63677270, 'cgroup2'],
  [0x27e0eb, 'cgroup'],
  [0x64626720, 'debugfs'],
  [0x73636673, 'securityfs'],
]);

/** Checks that `dir` is, or can be created as, a writable directory; then creates it. */
export function prepareOutDir(flag: string, dir: string): void {
  if (existsSync(dir)) {
    if (!statSync(dir).isDirectory()) throw new UsageError(`${flag} ${dir} exists and is a file, not a directory (give a directory, or remove the file)`);
    checkWritable(flag, dir, dir);
    return;
  }
  checkWritable(flag, dir, nearestExistingDirectory(flag, dir));
  mkdirSync(dir, { recursive: true });
}

/** Checks that `file` can be written (its folder is created if missing; an existing file is replaced). */
export function prepareOutFile(flag: string, file: string): void {
  if (existsSync(file) && statSync(file).isDirectory()) throw new UsageError(`${flag} ${file} is a directory, not a file`);
  const parent = dirname(resolve(file));
  if (existsSync(parent)) {
    if (!statSync(parent).isDirectory()) throw new UsageError(`${flag} ${file}: ${parent} is a file, not a directory`);
    checkWritable(flag, file, parent);
    return;
  }
  checkWritable(flag, file, nearestExistingDirectory(flag, file));
  mkdirSync(parent, { recursive: true });
}

/** The closest existing ancestor of `path`, which must be a directory. */
function nearestExistingDirectory(flag: string, path: string): string {
  let p = dirname(resolve(path));
  while (!existsSync(p)) p = dirname(p);
  if (!statSync(p).isDirectory()) throw new UsageError(`${flag} ${path}: ${p} is a file, not a directory`);
  return p;
}

function checkWritable(flag: string, path: string, existingDir: string): void {
  const fsName = PSEUDO_FILE_SYSTEMS.get(statfsSync(existingDir).type);
  if (fsName !== undefined) throw new UsageError(`${flag} ${path} is on ${fsName} (${existingDir}), a kernel pseudo file system: choose a directory on a disk`);
  try {
    accessSync(existingDir, constants.W_OK);
  } catch {
    throw new UsageError(`${flag} ${path}: ${existingDir} is not writable`);
  }
}
