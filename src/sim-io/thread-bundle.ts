import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * A worker thread's TypeScript entry bundled to one JavaScript file, cached under the temp
 * directory: in a checkout, where threads are TypeScript, registering tsx and compiling the
 * thread's modules in each thread costs about half a second of CPU (the replay's reader
 * thread, the event log's writer thread).
 *
 * Bundling takes esbuild ~350 ms (over a second on a loaded machine), so the bundle is kept
 * and reused while its sources are unchanged: its first line lists every file bundled (the
 * thread's imports, dependencies included) with a digest of its content, and a start re-reads
 * only those files (~20 ms) to check them. One bundle per checkout and kind (named by the
 * thread's path), replaced in place when a source changes (atomically: a process starting the
 * old one meanwhile reads a whole file, old or new); bundles of checkouts that are gone are
 * deleted when a new one is written, so versions do not pile up in the temp directory.
 */

/** What names a kind of bundle: its file-name prefix and its header's mark. */
export interface BundleKind {
  /** File-name prefix, e.g. `perpsim-replay-reader-`. */
  prefix: string;
  /** The first line of a cached bundle is `// <mark><JSON of BundleHeader>`. */
  mark: string;
}

interface BundleHeader {
  /** The bundled thread (its checkout): a bundle whose thread is gone is stale. */
  thread: string;
  /** Absolute path → sha256 (hex) of each bundled file, as it was bundled. */
  sources: Record<string, string>;
}

/** The part of esbuild's API used here. */
export interface Bundler {
  buildSync(options: Record<string, unknown>): { outputFiles: { contents: Uint8Array }[]; metafile: { inputs: Record<string, unknown> } };
}

/** Options of {@link threadBundle}. */
export interface ThreadBundleOptions {
  /** Cache directory (default: the temp directory). */
  dir?: string;
  /** esbuild (default: tsx's own). */
  bundler?: () => Bundler;
}

/**
 * The entry of the thread `name` (a module beside `moduleUrl`) as a cached bundle, when
 * `moduleUrl` is TypeScript (a checkout); undefined in the built package, where the thread is
 * JavaScript already, when the thread's source is missing, or when bundling fails: the caller
 * then starts its worker entry as it is.
 */
export function checkoutThreadEntry(kind: BundleKind, moduleUrl: string, name: string): URL | undefined {
  const ownExtension = extname(fileURLToPath(moduleUrl));
  if (ownExtension !== '.ts') return undefined;
  const thread = fileURLToPath(new URL(`./${name}${ownExtension}`, moduleUrl));
  if (!existsSync(thread)) return undefined;
  try {
    return pathToFileURL(threadBundle(kind, thread));
  } catch {
    return undefined;
  }
}

/**
 * The path of an up-to-date bundle of `thread` (a TypeScript entry), bundling it when no cached
 * one is current. Throws when esbuild cannot bundle it (the caller falls back to the TypeScript thread).
 */
export function threadBundle(kind: BundleKind, thread: string, options: ThreadBundleOptions = {}): string {
  const dir = options.dir ?? tmpdir();
  const path = join(dir, `${kind.prefix}${digest(thread).slice(0, 16)}.mjs`);
  if (isCurrent(kind, path)) return path;
  const esbuild = (options.bundler ?? defaultBundler)();
  const built = esbuild.buildSync({
    entryPoints: [thread],
    bundle: true,
    platform: 'node',
    format: 'esm',
    write: false,
    metafile: true,
    absWorkingDir: process.cwd(),
    logLevel: 'silent',
    // A module that resolves a package at run time (the native LZ4 binding: lz4-native.ts)
    // resolves it from the checkout, as unbundled, not from the bundle's temp directory.
    define: { 'import.meta.url': JSON.stringify(pathToFileURL(thread).href) },
    // CommonJS dependencies bundled into an ES module still call require.
    banner: { js: "import { createRequire as perpsimRequire } from 'node:module'; const require = perpsimRequire(import.meta.url);" },
  });
  const sources: Record<string, string> = {};
  for (const input of Object.keys(built.metafile.inputs).sort()) {
    const file = resolve(process.cwd(), input);
    sources[file] = digest(readFileSync(file));
  }
  const header: BundleHeader = { thread, sources };
  const partial = `${path}.${process.pid}.tmp`;
  writeFileSync(partial, Buffer.concat([Buffer.from(`// ${kind.mark}${JSON.stringify(header)}\n`), built.outputFiles[0]!.contents]));
  renameSync(partial, path); // atomic: processes bundling at once never see half a file
  removeOrphans(kind, dir, path);
  return path;
}

/** Whether the bundle at `path` exists and every file it was built from is unchanged. */
function isCurrent(kind: BundleKind, path: string): boolean {
  const header = headerOf(kind, path);
  if (header === undefined) return false;
  try {
    for (const [file, sha] of Object.entries(header.sources)) if (digest(readFileSync(file)) !== sha) return false;
    return true;
  } catch {
    return false; // a source was removed
  }
}

/** The header of a cached bundle (undefined when absent or not one of ours). */
function headerOf(kind: BundleKind, path: string): BundleHeader | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    // The header is the first line: grow the read until its end shows.
    let buf = Buffer.alloc(1 << 16);
    let length = 0;
    for (;;) {
      const n = readSync(fd, buf, length, buf.length - length, length);
      length += n;
      const end = buf.subarray(0, length).indexOf(10);
      if (end >= 0) return parseHeader(kind, buf.subarray(0, end).toString('utf8'));
      if (n === 0) return undefined;
      if (length === buf.length) buf = Buffer.concat([buf, Buffer.alloc(buf.length)]);
    }
  } finally {
    closeSync(fd);
  }
}

function parseHeader(kind: BundleKind, line: string): BundleHeader | undefined {
  const at = line.indexOf(kind.mark);
  if (!line.startsWith('// ') || at !== 3) return undefined;
  try {
    const h = JSON.parse(line.slice(3 + kind.mark.length)) as BundleHeader;
    return typeof h.thread === 'string' && typeof h.sources === 'object' && h.sources !== null ? h : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Deletes cached bundles other than `keep` (the bundle just written) whose checkout is gone, and
 * bundles of the old naming (one per version, no header) more than a day older than `keep`.
 */
function removeOrphans(kind: BundleKind, dir: string, keep: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  // "A day ago" by the file system's clock: `keep` was just written (no wall clock read here).
  let dayAgoMs: number;
  try {
    dayAgoMs = statSync(keep).mtimeMs - 86_400_000;
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(kind.prefix) || !name.endsWith('.mjs')) continue;
    const path = join(dir, name);
    if (path === keep) continue;
    try {
      const header = headerOf(kind, path);
      const stale = header === undefined ? statSync(path).mtimeMs < dayAgoMs : !existsFile(header.thread);
      if (stale) unlinkSync(path);
    } catch {
      // Another process removed or replaced it: nothing to do.
    }
  }
}

function existsFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function defaultBundler(): Bundler {
  // esbuild is tsx's own transpiler: present wherever a checkout runs TypeScript.
  const require = createRequire(import.meta.url);
  return createRequire(require.resolve('tsx'))('esbuild') as Bundler;
}

function digest(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
