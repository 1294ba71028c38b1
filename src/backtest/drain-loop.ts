import type { SimClock } from '../clock/sim-clock.ts';
import type { TimeNs } from '../core/types.ts';
import type { TrackedPort } from './tracked-port.ts';

/**
 * `runEvents` over a port that counts its settlements with the `drain` rule, without a promise
 * per drain: the loop is two functions made once, handed to Node's queues.
 *
 * `step` always runs in a microtask. It runs events until one may have queued the strategy's
 * microtasks (`TrackedPort.mayContinue`), then queues `afterDrain` with `process.nextTick`: Node
 * runs ticks only once V8's microtask queue is empty (`drainMicrotasks` says why), so every
 * continuation of the strategy's, chains included, has run when `afterDrain` runs. It queues
 * `step` as a microtask again: a tick queued from a tick would run before the microtasks
 * queued meanwhile, so the loop never steps the clock from a tick. Same order as awaiting
 * `drainMicrotasks` after each such event (which resumes the runner from a microtask queued in
 * a tick, as here), without the two promises, their reactions and the async function's resumptions.
 */
const RESOLVED = Promise.resolve();

export class DrainLoop {
  private n = 0;
  private nextProgress: number;

  constructor(
    private readonly clock: SimClock,
    private readonly port: TrackedPort,
    private readonly done: () => boolean,
    private readonly progressEvery: number,
    private readonly onProgress: ((tNs: TimeNs) => void) | undefined,
    private readonly fail: (port: TrackedPort) => Error,
    private readonly resolve: (events: number) => void,
    private readonly reject: (error: unknown) => void,
  ) {
    this.nextProgress = progressEvery;
  }

  /** Steps the events up to the first drain now (the caller runs in a microtask: see the class). */
  readonly step = (): void => {
    let ran = 0;
    const { clock, port, done } = this;
    try {
      while (!done() && clock.step()) {
        ran++;
        if (port.mayContinue() || ran >= this.progressEvery) break;
      }
    } catch (e) {
      this.reject(e);
      return;
    }
    this.n += ran;
    if (ran === 0) this.resolve(this.n);
    else if (port.mayContinue()) process.nextTick(this.afterDrain);
    else this.settled();
  };

  /** Every continuation ran (see the class). */
  private readonly afterDrain = (): void => {
    this.port.drained();
    this.settled();
  };

  /** After the drain (if any): the strategy's error, else a progress turn or the next step. */
  private settled(): void {
    if (this.port.errors.length > 0) {
      this.reject(this.fail(this.port));
      return;
    }
    if (this.n < this.nextProgress) {
      void RESOLVED.then(this.step);
      return;
    }
    this.nextProgress = this.n + this.progressEvery;
    // One event-loop turn per progress interval (`runEvents` says why).
    setImmediate(this.afterTurn);
  }

  private readonly afterTurn = (): void => {
    try {
      this.onProgress?.(this.clock.nowNs);
    } catch (e) {
      this.reject(e);
      return;
    }
    void RESOLVED.then(this.step);
  };
}
