import { relative } from 'node:path';

/**
 * What is missing when importing a strategy file failed with "module not found", in words:
 * a package that is not installed, or a file that does not exist (named, with the file that
 * imports it when that is not the strategy itself). Undefined for any other failure.
 *
 * Node says it several ways: ESM `ERR_MODULE_NOT_FOUND` ("Cannot find package 'zod' imported
 * from /x/s.ts", "Cannot find module '/x/lib.ts' imported from /x/s.ts") and CommonJS
 * `MODULE_NOT_FOUND` ("Cannot find module 'zod'\nRequire stack:\n- /x/s.ts").
 */
export function missingImport(strategyPath: string, error: unknown): string | undefined {
  const code = (error as { code?: unknown }).code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return undefined;
  const message = String((error as { message?: unknown }).message ?? '');
  const m = /Cannot find (package|module) '([^']+)'(?: imported from (\S+))?/.exec(message);
  if (m === null) return undefined;
  const [, kind, specifier, importerText] = m as unknown as [string, string, string, string | undefined];
  const importer = importerText ?? /Require stack:\s*\n- (\S+)/.exec(message)?.[1];
  const from = importer === undefined || samePath(importer, strategyPath) ? '' : ` (imported from ${shown(importer)})`;
  if (kind === 'package' || isBare(specifier)) {
    const name = packageName(specifier);
    return `it imports the package "${name}", which is not installed here${from} (npm install ${name})`;
  }
  return `it imports ${shown(specifier)}, a file that does not exist${from}`;
}

function isBare(specifier: string): boolean {
  return !specifier.startsWith('.') && !specifier.startsWith('/') && !specifier.startsWith('file:') && !/^[A-Za-z]:[\\/]/.test(specifier);
}

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

function samePath(a: string, b: string): boolean {
  return stripUrl(a) === stripUrl(b);
}

function stripUrl(p: string): string {
  return p.startsWith('file://') ? decodeURIComponent(new URL(p).pathname) : p;
}

/** A path as the user would type it: relative to the working directory when inside it. */
function shown(p: string): string {
  const path = stripUrl(p);
  if (!path.startsWith('/')) return path;
  const rel = relative(process.cwd(), path);
  return rel.startsWith('..') ? path : rel;
}
