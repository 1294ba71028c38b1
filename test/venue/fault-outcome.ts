import { expect } from 'vitest';
import { CommandFailedError } from '../../src/venue/command-log.ts';
import { InjectedFault, setFaultHook } from '../../src/venue/fault-points.ts';

/**
 * Runs `command` with a fault injected at its fault point number `step` (0-based): the fault
 * points it passed, its answer, and whether it failed (then as a `CommandFailedError`); for the
 * property tests that fail one command of a stream on a venue and its twin.
 */
export function outcomeFailingAt<T>(step: number, command: () => T): { steps: string[]; answer: T | undefined; failed: boolean } {
  const steps: string[] = [];
  setFaultHook((s) => {
    steps.push(s);
    if (steps.length === step + 1) throw new InjectedFault(s);
  });
  try {
    return { steps, answer: command(), failed: false };
  } catch (e) {
    expect(e).toBeInstanceOf(CommandFailedError);
    return { steps, answer: undefined, failed: true };
  } finally {
    setFaultHook(undefined);
  }
}

/**
 * A runner that calls `fn` with a test switch of the venue (`setFastLane`, `setNarrowFillUndo`)
 * set to `on`, and sets it back on afterwards whatever happens: how a twin test runs one of
 * the two venues on the path before.
 */
export function withSwitch(set: (on: boolean) => void, on: boolean): <T>(fn: () => T) => T {
  return <T>(fn: () => T): T => {
    set(on);
    try {
      return fn();
    } finally {
      set(true);
    }
  };
}

/** One venue of a twin test: how it takes a command, what it shows after one, its feeds. */
interface TwinSide<C> {
  apply(c: C): unknown;
  observed(): unknown;
  feeds: { all: unknown[]; trades: unknown[] };
}

/**
 * Runs `cmds` through both twins and expects equal answers and observations after every
 * command, and equal feeds and trade records at the end.
 */
export function expectTwinsAgree<C>(a: TwinSide<C>, b: TwinSide<C>, cmds: readonly C[]): void {
  for (const c of cmds) {
    expect(a.apply(c)).toEqual(b.apply(c));
    expect(a.observed()).toEqual(b.observed());
  }
  expectTwinsEndAlike(a, b);
}

/** The end of a twin test's stream: equal observations, feeds and trade records. */
export function expectTwinsEndAlike(a: Omit<TwinSide<unknown>, 'apply'>, b: Omit<TwinSide<unknown>, 'apply'>): void {
  expect(a.observed()).toEqual(b.observed());
  expect(a.feeds.all).toEqual(b.feeds.all);
  expect(a.feeds.trades).toEqual(b.feeds.trades);
}
