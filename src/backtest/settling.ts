import { formatTimestampNs } from '../core/time.ts';
import type { SimClock } from '../clock/sim-clock.ts';
import type { TimeNs } from '../core/types.ts';
import { DrainLoop } from './drain-loop.ts';
import { microtaskCheckpoint } from './microtask-checkpoint.ts';
import { oneLine } from './strategy-module.ts';
import type { TrackedPort } from './tracked-port.ts';

/** The strategy did something the run cannot go on from (its own exception, or a hang at start). */
export class BacktestError extends Error {}

/**
 * How the runner lets a strategy's continuations run between clock events.
 * - `drain` (the default): after an event that may have queued the strategy's microtasks
 *   (`TrackedPort.mayContinue`), one `drainMicrotasks`; no event-loop turn.
 * - `every-event`: a macrotask (`setImmediate`) after every event, the plainest order-keeping
 *   rule and the slowest; the reference the tests compare `drain` with.
 * - `drain-tick`: `drain` with a `process.nextTick` per drain even where Node offers a
 *   synchronous microtask checkpoint (`microtask-checkpoint.ts`): the tests' twin.
 */
export type Settling = 'drain' | 'drain-tick' | 'every-event';

/** Events between progress reports (and the longest run of events between two awaits). */
export const PROGRESS_EVERY = 1 << 16;

/**
 * Steps the clock until `done()`, settling the strategy's async work after each event that
 * needs it. Call it from a microtask (after an `await`). Over a port that counts its settlements
 * with `drain` (or `drain-tick`), the loop of `drain-loop.ts` (no promise per drain); else the loop below.
 */
export function runEvents(clock: SimClock, port: TrackedPort, settling: Settling, done: () => boolean, onProgress?: (tNs: TimeNs) => void): Promise<number> {
  if (settling !== 'every-event' && port.knowsSettlements) {
    const checkpoint = settling === 'drain' ? microtaskCheckpoint : undefined;
    return new Promise((resolve, reject) => new DrainLoop(clock, port, done, PROGRESS_EVERY, onProgress, failure, resolve, reject, checkpoint).step());
  }
  return runEventsAwaiting(clock, port, settling, done, onProgress);
}

async function runEventsAwaiting(clock: SimClock, port: TrackedPort, settling: Settling, done: () => boolean, onProgress?: (tNs: TimeNs) => void): Promise<number> {
  let n = 0;
  let nextProgress = PROGRESS_EVERY;
  for (;;) {
    const ran = stepWhileIdle(clock, port, done, settling);
    n += ran;
    if (ran === 0) return n; // done, or nothing left to run
    await settle(port, settling);
    if (n >= nextProgress) {
      nextProgress = n + PROGRESS_EVERY;
      // One event-loop turn per progress interval: the drains above never leave the microtask
      // checkpoint, so without it a long run would hold off signal handlers (Ctrl-C in a sweep),
      // timers and I/O until it ended. The strategy's continuations have all run by now (a macrotask
      // turn is the reference rule's own step), so the order of events is unchanged.
      await new Promise<void>((resolve) => setImmediate(resolve));
      onProgress?.(clock.nowNs);
    }
  }
}

/**
 * Runs events synchronously (a tight loop, no promise per event) until the strategy may have
 * async work to settle, `done()`, or the clock is idle; returns how many ran.
 */
export function stepWhileIdle(clock: SimClock, port: TrackedPort, done: () => boolean, settling: Settling): number {
  let n = 0;
  const knows = port.knowsSettlements;
  while (!done() && clock.step()) {
    n++;
    if (settling === 'every-event') break;
    if (knows ? port.mayContinue() : port.outstanding > 0 || port.dirty) break;
    if (n >= PROGRESS_EVERY) break;
  }
  return n;
}

/**
 * Lets the strategy's continuations run at the current instant, then throws the first error a
 * callback left.
 *
 * Over a port that counts its settlements (the in-process port), the port says at once whether
 * the last event may have queued microtasks of the strategy's; if so, one `drainMicrotasks`
 * runs all of them, chains included. Over any other port, a settlement shows only as a
 * reaction a microtask later (`dirty`), so one microtask turn looks, and a macrotask turn
 * drains when it shows.
 */
export async function settle(port: TrackedPort, settling: Settling = 'drain'): Promise<void> {
  if (settling === 'every-event') {
    await new Promise<void>((resolve) => setImmediate(resolve));
    port.drained();
  } else if (port.knowsSettlements) {
    if (port.mayContinue()) {
      await drainMicrotasks();
      port.drained();
    }
  } else {
    if (!port.dirty) await null;
    while (port.dirty) {
      port.dirty = false;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
  if (port.errors.length > 0) throw failure(port);
}

function failure(port: TrackedPort): BacktestError {
  return new BacktestError(`the strategy failed at ${formatTimestampNs(port.now())}: ${oneLine(port.errors[0])}`);
}

/**
 * Resolves once V8's microtask queue has run dry: every microtask queued before the call and
 * every one those queue in turn, however long the chain (awaits, `Promise.all`, `then`s).
 *
 * Why it holds: Node runs `process.nextTick` callbacks only after a microtask checkpoint has
 * emptied the queue (`processTicksAndRejections` runs the ticks, then `runMicrotasks()`, which
 * drains the queue whole, then the ticks queued meanwhile; a callback from the event loop ends
 * in a checkpoint, then the ticks). The runner calls this from a microtask (it always resumed
 * from an `await` before: `runBacktest` awaits the run's build first), so the tick queued here
 * waits for the checkpoint under way to empty the queue, strategy chains included, and the
 * runner resumes right after it. No event-loop turn (`setImmediate` polls for I/O each time).
 * Not covered: a strategy that waits on Node's own queues (`setImmediate`, timers, I/O), which
 * never ran at a defined sim time.
 */
export function drainMicrotasks(): Promise<void> {
  return new Promise(afterTicks);
}

function afterTicks(resolve: () => void): void {
  process.nextTick(resolve);
}
