import { parseDuration } from '../core/time.ts';

/** A bad command line: printed as one line, exit code 2. */
export class UsageError extends Error {}

/**
 * Parses `--name value` pairs (and `--name=value`), allowing only `allowed` names; a repeated
 * flag is an error. Arguments that are not flags are returned as `positional` when
 * `maxPositional` allows them.
 */
export function parseFlags(args: string[], allowed: string[], maxPositional = 0): Map<string, string> & { positional: string[] } {
  const flags = Object.assign(new Map<string, string>(), { positional: [] as string[] });
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) {
      if (flags.positional.length >= maxPositional) throw new UsageError(`unexpected argument "${arg}"`);
      flags.positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    if (!allowed.includes(name)) {
      throw new UsageError(`unknown option "--${name}"${allowed.length > 0 ? ` (allowed: ${allowed.map((a) => `--${a}`).join(', ')})` : ''}`);
    }
    const value = eq < 0 ? args[++i] : arg.slice(eq + 1);
    if (value === undefined || value === '') throw new UsageError(`--${name} needs a value`);
    if (flags.has(name)) throw new UsageError(`--${name} given twice`);
    flags.set(name, value);
  }
  return flags;
}

/** A non-negative safe integer flag, or `fallback` when absent. */
export function integerFlag(flags: Map<string, string>, name: string, fallback: number): number {
  const text = flags.get(name);
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new UsageError(`--${name} must be a non-negative integer, got "${text}"`);
  }
  return Number(text);
}

/** A positive duration flag (`30s`, `15m`, `1h`, `1d`) in nanoseconds, or undefined when absent. */
export function durationFlag(flags: Map<string, string>, name: string): bigint | undefined {
  const text = flags.get(name);
  if (text === undefined) return undefined;
  const ns = parseDuration(text);
  if (ns === undefined || ns <= 0n) throw new UsageError(`--${name} must be a positive duration such as 30m, 1h or 1d, got "${text}"`);
  return ns;
}
