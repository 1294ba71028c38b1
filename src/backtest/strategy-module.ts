import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Strategy } from '../strategy/strategy.ts';
import { missingImport } from './load-error.ts';
import { ensureTypeScriptLoader, needsTypeScriptLoader } from './typescript-loader.ts';

/**
 * What a strategy file (`perpsim backtest STRATEGY.ts`) exports:
 *
 * - `default`: a factory `(params) => Strategy` (may be async), or a class whose constructor
 *   takes `(params)` and whose instances are Strategies.
 * - `paramsSchema` (optional): anything with zod's `safeParse(value)`; the parsed value (with
 *   its defaults) is what the factory gets, and a failed parse is reported as bad params.
 *
 * Params are the `--params` JSON (or `{}` when absent). A factory or constructor that throws
 * rejects the params, with its message.
 */
export interface StrategyModule {
  default?: unknown;
  paramsSchema?: unknown;
}

/** A strategy file or its params could not be used; the message is one line naming the problem. */
export class StrategyLoadError extends Error {}

interface SafeParser {
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: { issues?: { path: PropertyKey[]; message: string }[]; message?: string } };
}

/** Builds the strategy a module describes, with `params`. */
export async function instantiateStrategy(mod: StrategyModule, params: unknown, name: string): Promise<{ strategy: Strategy; params: unknown }> {
  const make = mod.default;
  if (typeof make !== 'function') throw new StrategyLoadError(`${name}: no default export of a strategy factory or class (see "Backtesting" in README.md)`);
  const parsed = parseParams(mod.paramsSchema, params, name);
  let strategy: unknown;
  try {
    strategy = isClass(make) ? new (make as new (p: unknown) => unknown)(parsed) : await (make as (p: unknown) => unknown)(parsed);
  } catch (e) {
    throw new StrategyLoadError(`${name}: params rejected: ${oneLine(e)}`);
  }
  if (strategy === null || typeof strategy !== 'object' || typeof (strategy as Strategy).onStart !== 'function') {
    throw new StrategyLoadError(`${name}: the default export did not make a Strategy (an object with onStart(port))`);
  }
  return { strategy: strategy as Strategy, params: parsed };
}

function parseParams(schema: unknown, params: unknown, name: string): unknown {
  if (schema === undefined) return params;
  if (schema === null || typeof (schema as SafeParser).safeParse !== 'function') throw new StrategyLoadError(`${name}: paramsSchema must have a safeParse method (a zod schema)`);
  const result = (schema as SafeParser).safeParse(params);
  if (result.success) return result.data;
  const issue = result.error.issues?.[0];
  const detail = issue === undefined ? (result.error.message ?? 'invalid') : `${issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : ''}${issue.message}`;
  throw new StrategyLoadError(`${name}: bad params: ${oneLine(detail)}`);
}

function isClass(fn: unknown): boolean {
  return /^class[\s{]/.test(Function.prototype.toString.call(fn));
}

/** An error's message on one line. */
export function oneLine(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

/**
 * Imports a strategy file; problems are StrategyLoadErrors saying what is missing (the file, a
 * package, an imported file). A TypeScript file registers tsx first, lazily: only strategies
 * need it (in each thread that loads one: sweep workers too).
 */
export async function importStrategyModule(file: string): Promise<StrategyModule> {
  const path = resolve(file);
  if (!existsSync(path)) throw new StrategyLoadError(`strategy file ${file} not found`);
  if (statSync(path).isDirectory()) throw new StrategyLoadError(`strategy file ${file} is a directory`);
  if (needsTypeScriptLoader(path)) await ensureTypeScriptLoader();
  let mod: StrategyModule;
  try {
    mod = (await import(pathToFileURL(path).href)) as StrategyModule;
  } catch (e) {
    throw new StrategyLoadError(`cannot load strategy file ${file}: ${missingImport(path, e) ?? oneLine(e)}`);
  }
  // A file compiled as CommonJS arrives wrapped: its exports are the namespace's `default`.
  const inner = mod.default as (StrategyModule & { __esModule?: boolean }) | undefined;
  return inner !== null && typeof inner === 'object' && 'default' in inner ? inner : mod;
}
