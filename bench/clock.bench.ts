/**
 * Clock hot path: scheduling and running events with a steady backlog, as a simulation with
 * many actors and in-flight messages does.
 */
import { SimClock } from '../src/clock/sim-clock.ts';
import { recordClockTrace, replayClockTrace, type ClockTrace } from './clock-trace.ts';
import { RandomStream } from '../src/random/random-stream.ts';
import type { BenchCase } from './harness.ts';

const EVENTS = 1_000_000;
const PENDING = 10_000;
/** 50 ms before a second boundary, so the run crosses it (the seconds carry is exercised). */
const START_NS = 1_700_000_000_950_000_000n;

/**
 * `clock.events`: 10,000 events scheduled up front; each event, when run, schedules one more
 * at a seeded delay of 0–999,999 ns, until 1,000,000 have been scheduled; all of them run.
 * One op = one event scheduled and run.
 */
export function eventsCase(): BenchCase {
  let delays = new Float64Array(0);
  let clock: SimClock | undefined;
  let scheduled = 0;
  let ran = 0;
  const onEvent = (): void => {
    if (scheduled < EVENTS) clock!.scheduleIn(delays[scheduled++]!, onEvent);
  };
  return {
    name: 'clock.events',
    unit: 'event',
    opsPerRun: EVENTS,
    iterations: 5,
    timeMs: 0,
    warmupIterations: 2,
    gcBetweenRuns: true,
    prepare() {
      const rng = new RandomStream('bench/clock.events');
      delays = new Float64Array(EVENTS);
      for (let i = 0; i < EVENTS; i++) delays[i] = rng.int(0, 999_999);
    },
    reset() {
      clock = new SimClock(START_NS);
      scheduled = 0;
      ran = 0;
    },
    run() {
      const c = clock!;
      for (let i = 0; i < PENDING; i++) c.scheduleIn(delays[scheduled++]!, onEvent);
      ran = c.runUntilIdle();
    },
    release() {
      delays = new Float64Array(0);
    },
    dispose() {
      clock = undefined;
    },
    describe() {
      return `${ran} events run, clock at ${clock?.nowNs ?? 0n} ns`;
    },
  };
}

/**
 * `clock.sim-trace`: the clock operations of 1 h of `default` (420,227 events: every post,
 * schedule and cancel with the event that issued it, and the run's slices; `clock-trace.ts`),
 * recorded once and replayed, each event issuing when it runs what its counterpart issued. The
 * clock under the simulation's own load (~90 pending, a quarter of the pushes at the instant of
 * the push before, an eighth at the current instant) without the agents and venue around it.
 * One op = one event run. Floor: `clock.events`, bare events at uniform delays.
 */
export function simTraceCase(): BenchCase {
  let trace: ClockTrace | undefined;
  let events = 1;
  let ran = 0;
  return {
    name: 'clock.sim-trace',
    floor: 'clock.events',
    unit: 'event',
    get opsPerRun() {
      return events;
    },
    iterations: 7,
    timeMs: 0,
    warmupIterations: 3,
    gcBetweenRuns: true,
    prepare() {
      trace = recordClockTrace(1);
      events = replayClockTrace(trace, SimClock); // those run by the end (a few stay pending)
    },
    reset() {
      ran = 0;
    },
    run() {
      ran = replayClockTrace(trace!, SimClock);
    },
    release() {
      trace = undefined;
    },
    dispose() {},
    describe() {
      return `1 h of default's clock operations replayed: ${ran} events run`;
    },
  };
}

/** Every clock case, in run order. */
export const clockCases = (): BenchCase[] => [eventsCase(), simTraceCase()];
