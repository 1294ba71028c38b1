/**
 * Node's synchronous microtask checkpoint, where it offers one: `process._tickCallback`, the
 * `runNextTicks` Node itself calls between two `setImmediate` callbacks. Called outside any
 * microtask, it runs V8's microtask queue dry (every job and every job those queue, however
 * long the chain) and returns; with ticks pending it runs them first, then the microtasks,
 * until both queues are empty. For a strategy that waits on promises only, that is exactly
 * what has run by the time a `process.nextTick` queued from a microtask runs, without the tick
 * (a strategy's own ticks, which the runner never covered, now run to the end as well).
 * Called from inside a microtask it would run nothing (V8 does not nest checkpoints), so the
 * drain loop calls it only from a macrotask (`drain-loop.ts`).
 *
 * Undefined where there is none (another runtime), and under `--pending-deprecation`, where
 * Node warns on its first call (DEP0134, a documentation-only deprecation otherwise): the drain
 * loop then queues a tick per drain instead, the same order at a higher cost.
 */
export const microtaskCheckpoint: (() => void) | undefined = pick();

function pick(): (() => void) | undefined {
  const tickCallback = (process as { _tickCallback?: unknown })._tickCallback;
  if (typeof tickCallback !== 'function') return undefined;
  const pending = process.execArgv.includes('--pending-deprecation') || (process.env.NODE_OPTIONS ?? '').includes('--pending-deprecation') || process.env.NODE_PENDING_DEPRECATION === '1';
  return pending ? undefined : (tickCallback as () => void);
}
