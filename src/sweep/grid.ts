import { canonicalJson } from './canonical-json.ts';

/** A sweep's parameter sets or seeds could not be read; the message is one line. */
export class SweepInputError extends Error {}

type Params = Record<string, unknown>;

/**
 * The cartesian product of a grid `{"a":[1,2],"b":[3,4]}`: one params object per combination,
 * keys in sorted order, the last key varying fastest. A key with a scalar is a fixed value.
 */
export function expandGrid(gridJson: string): Params[] {
  const grid = parseJson(gridJson, '--grid');
  if (grid === null || typeof grid !== 'object' || Array.isArray(grid)) throw new SweepInputError('--grid must be a JSON object of arrays, such as {"a":[1,2],"b":[3,4]}');
  let sets: Params[] = [{}];
  for (const key of Object.keys(grid).sort()) {
    const raw = (grid as Params)[key];
    const values = Array.isArray(raw) ? raw : [raw];
    if (values.length === 0) throw new SweepInputError(`--grid: "${key}" has no values`);
    sets = sets.flatMap((s) => values.map((v) => ({ ...s, [key]: v })));
  }
  return dedupe(sets);
}

/** One params object per non-empty line of a JSON-lines file (`# ` lines are comments). */
export function parseParamsLines(text: string, file: string): Params[] {
  const sets: Params[] = [];
  text.split('\n').forEach((line, i) => {
    const t = line.trim();
    if (t === '' || t.startsWith('#')) return;
    const v = parseJson(t, `${file}:${i + 1}`);
    if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new SweepInputError(`${file}:${i + 1}: each line must be a JSON object of params`);
    sets.push(v as Params);
  });
  if (sets.length === 0) throw new SweepInputError(`${file}: no params (one JSON object per line)`);
  return dedupe(sets);
}

/** `--seeds`: `7`, `1..10` (inclusive) or `1,5,9`; sorted, without repeats. */
export function parseSeeds(text: string): number[] {
  const seeds = new Set<number>();
  for (const part of text.split(',')) {
    const m = /^\s*(\d+)\s*(?:\.\.\s*(\d+)\s*)?$/.exec(part);
    if (m === null) throw new SweepInputError(`--seeds must look like 7, 1..10 or 1,5,9, got "${text}"`);
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (!Number.isSafeInteger(to) || to < from || to - from >= 100_000) throw new SweepInputError(`--seeds: bad range "${part.trim()}"`);
    for (let s = from; s <= to; s++) seeds.add(s);
  }
  return [...seeds].sort((a, b) => a - b);
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new SweepInputError(`${where} is not valid JSON: ${(e as Error).message}`);
  }
}

/** Drops repeated params sets (same canonical JSON), keeping the first. */
function dedupe(sets: Params[]): Params[] {
  const seen = new Set<string>();
  return sets.filter((s) => {
    const key = canonicalJson(s);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
