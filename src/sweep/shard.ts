import { SweepInputError } from './grid.ts';

/** This process's share of a sweep: runs whose id hashes to `index` mod `count`. */
export interface Shard {
  index: number;
  count: number;
}

/** Environment variables that carry the array index of a batch job, in the order they are read. */
export const SHARD_INDEX_VARIABLES = ['JOB_COMPLETION_INDEX', 'AWS_BATCH_JOB_ARRAY_INDEX'] as const;

/**
 * `--shard i/N` (0 ≤ i < N), or `auto/N`: i from `JOB_COMPLETION_INDEX` (Kubernetes Indexed
 * Jobs) or `AWS_BATCH_JOB_ARRAY_INDEX` (AWS Batch array jobs).
 */
export function parseShard(text: string, env: Readonly<Record<string, string | undefined>>): Shard {
  const m = /^(auto|\d+)\/(\d+)$/.exec(text);
  if (m === null) throw new SweepInputError(`--shard must be i/N or auto/N (such as 0/3), got "${text}"`);
  const count = Number(m[2]);
  if (!Number.isSafeInteger(count) || count < 1) throw new SweepInputError(`--shard: N must be a positive integer, got "${m[2]}"`);
  let indexText = m[1]!;
  if (indexText === 'auto') {
    const name = SHARD_INDEX_VARIABLES.find((v) => env[v] !== undefined && env[v] !== '');
    if (name === undefined) throw new SweepInputError(`--shard auto/${count}: neither ${SHARD_INDEX_VARIABLES.join(' nor ')} is set`);
    indexText = env[name]!;
    if (!/^\d+$/.test(indexText)) throw new SweepInputError(`--shard auto: ${name} must be a non-negative integer, got "${indexText}"`);
  }
  const index = Number(indexText);
  if (index >= count) throw new SweepInputError(`--shard: index ${index} must be below ${count}`);
  return { index, count };
}

/** The shard a run belongs to: its id (hex of a sha256) read as a number, mod N. Stable across machines. */
export function shardOf(id: string, count: number): number {
  return Number(BigInt(`0x${id}`) % BigInt(count));
}
