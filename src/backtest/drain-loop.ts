import type { SimClock } from '../clock/sim-clock.ts';
import type { TimeNs } from '../core/types.ts';
import type { TrackedPort } from './tracked-port.ts';

/**
 * `runEvents` over a port that counts its settlements with the `drain` rule, without a promise
 * or a tick per drain where Node offers a synchronous microtask checkpoint
 * (`microtask-checkpoint.ts`), else without a promise per drain.
 *
 * `step` always runs in a microtask. It runs events until one may have queued the strategy's
 * microtasks (`TrackedPort.mayContinue`), then waits for V8's queue to run dry, chains
 * included, before the next event:
 * - With the checkpoint: it leaves the microtask with one `setImmediate` (a macrotask, the
 *   reference rule's own step) and the loop goes on in `runChecked`, outside any microtask,
 *   where each drain is one call to the checkpoint: it runs V8's queue dry (every continuation,
 *   however long its chain), then Node's ticks and the microtasks they queue, and returns. The
 *   same order as a tick (below), without the tick's object (its computed keys made each one
 *   ~5 k instructions, most of what a drain cost) and the reaction that stepped again.
 * - Without: it queues `afterDrain` with `process.nextTick`: Node runs ticks only once V8's
 *   microtask queue is empty (`drainMicrotasks` says why), so every continuation has run when
 *   `afterDrain` runs. It queues `step` as a microtask again: a tick queued from a tick would
 *   run before the microtasks queued meanwhile, so the loop never steps the clock from a tick.
 * Both keep the order of awaiting `drainMicrotasks` after each such event, without its promises.
 */
const RESOLVED = Promise.resolve();

export class DrainLoop {
  private n = 0;
  private nextProgress: number;
  /** What an event threw (`checkedEvents`), for `runChecked` to reject with. */
  private thrown: unknown = undefined;

  constructor(
    private readonly clock: SimClock,
    private readonly port: TrackedPort,
    private readonly done: () => boolean,
    private readonly progressEvery: number,
    private readonly onProgress: ((tNs: TimeNs) => void) | undefined,
    private readonly fail: (port: TrackedPort) => Error,
    private readonly resolve: (events: number) => void,
    private readonly reject: (error: unknown) => void,
    /** Node's synchronous checkpoint, or undefined for the tick per drain (tests compare both). */
    private readonly checkpoint: (() => void) | undefined,
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
    else if (!port.mayContinue()) this.settled();
    else if (this.checkpoint !== undefined) setImmediate(this.afterTurnDrained);
    else process.nextTick(this.afterDrain);
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
    if (this.checkpoint !== undefined) this.runChecked();
    else void RESOLVED.then(this.step);
  };

  /** A macrotask after `step`'s first drain: every continuation ran (as after a tick). */
  private readonly afterTurnDrained = (): void => {
    this.port.drained();
    if (this.port.errors.length > 0) this.reject(this.fail(this.port));
    else this.runChecked();
  };

  /**
   * The loop outside any microtask (in a macrotask), up to the next progress turn: each event
   * that may have queued the strategy's microtasks is followed by the checkpoint, which runs
   * them all before the next event. The events run in `checkedEvents`; the ways out (the run's
   * promise, the progress turn) are here.
   */
  private runChecked(): void {
    const end = this.checkedEvents();
    if (end === LoopEnd.Threw) this.reject(this.thrown);
    else if (end === LoopEnd.StrategyFailed) this.reject(this.fail(this.port));
    else if (end === LoopEnd.Idle) this.resolve(this.n);
    else {
      this.nextProgress = this.n + this.progressEvery;
      setImmediate(this.afterTurn);
    }
  }

  /**
   * Runs events up to the next progress turn, the end or a failure, and says which. Apart
   * from `runChecked` because this is the loop V8 compiles on the stack (OSR) while it runs: a
   * call in it to the run's own functions (`resolve`, `reject`, made anew for every run) would
   * be inlined with its target, and the next run's target would throw the compiled loop away.
   * In a process running several backtests (the bench's pairs) the loop then ran unoptimized
   * from the second run on: ~20 M instructions per 900 sim-s of a listener.
   */
  private checkedEvents(): LoopEnd {
    const { clock, port, done } = this;
    const checkpoint = this.checkpoint!;
    const until = this.nextProgress;
    let n = this.n;
    try {
      for (;;) {
        if (done() || !clock.step()) {
          this.n = n;
          return LoopEnd.Idle;
        }
        n++;
        if (port.mayContinue()) {
          checkpoint();
          port.drained();
          if (port.errors.length > 0) {
            this.n = n;
            return LoopEnd.StrategyFailed;
          }
        }
        if (n >= until) {
          this.n = n;
          return LoopEnd.Progress;
        }
      }
    } catch (e) {
      this.n = n;
      this.thrown = e;
      return LoopEnd.Threw;
    }
  }
}

/** How `DrainLoop.checkedEvents` ended. */
const enum LoopEnd {
  /** At a progress turn: one event-loop turn, then on. */
  Progress,
  /** `done()`, or no event left: the run's promise resolves. */
  Idle,
  /** A strategy callback failed: the run's promise rejects with it. */
  StrategyFailed,
  /** An event threw (`thrown`). */
  Threw,
}
