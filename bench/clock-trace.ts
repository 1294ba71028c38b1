/**
 * The clock under a simulation's own load: the clock operations of a run of `default`, recorded
 * (every post, schedule and cancel, with the event that issued it, and the run's slices) and
 * replayed against a `SimClock`, each event issuing, when it runs, what its recorded counterpart
 * issued. Same pushes, same instants, same pending set as in the simulation (~90 events, a
 * quarter of pushes at the instant of the push before, an eighth at the current instant),
 * without the agents and venue around it.
 *
 * `node --import tsx bench/clock-trace.ts [CHECKOUT]` replays 1 h of `default` (recorded with
 * this checkout) on this checkout's clock, or on CHECKOUT's: CPU ns an event over warm passes.
 */
import { pathToFileURL } from 'node:url';
import { loadScenario } from '../src/scenario/load.ts';
import { buildSimulation } from '../src/sim/build.ts';
import { SimClock, type ScheduledEvent } from '../src/clock/sim-clock.ts';

const POST = 0;
const IN = 1;
const AT = 2;
const CANCEL = 3;
const UNTIL = 4;

/** Ops grouped by the event (its insertion seq) that issued them, and the run's top-level ops. */
export interface ClockTrace {
  startNs: bigint;
  /** Events pushed in all. */
  events: number;
  /** Ops of event `seq`: `kinds`/`values` in [first[seq], first[seq + 1]). */
  first: Int32Array;
  kinds: Int8Array;
  /** Delay in ns (post, in, at), the seq to cancel, or the slice's end in ns from the start. */
  values: Float64Array;
  /** Ops outside any event, in order: kind, value, kind, value, … */
  topLevel: number[];
}

/** Records the clock operations of `hours` of `default` (seed 1). */
export function recordClockTrace(hours: number): ClockTrace {
  const sim = buildSimulation(loadScenario('default'), { durationNs: BigInt(Math.round(hours * 3600)) * 1_000_000_000n });
  const clock = sim.clock;
  const startNs = clock.nowNs;
  const owners: number[] = [];
  const ops: number[] = [];
  const topLevel: number[] = [];
  let running = -1;
  const record = (kind: number, value: number): void => {
    if (running < 0) topLevel.push(kind, value);
    else owners.push(running), ops.push(kind, value);
  };
  const wrap = (fn: (arg: any) => void, seq: number) => (arg: any) => {
    const outer = running;
    running = seq;
    fn(arg);
    running = outer;
  };
  const real = { postIn: clock.postIn, scheduleIn: clock.scheduleIn, scheduleAt: clock.scheduleAt, cancel: clock.cancel, runUntil: clock.runUntil };
  const c = clock as any;
  c.postIn = (d: number, fn: any, a: any) => (record(POST, d), real.postIn.call(clock, d, wrap(fn, clock.upcomingSeq), a));
  c.scheduleIn = (d: number, fn: any, a: any) => (record(IN, d), real.scheduleIn.call(clock, d, wrap(fn, clock.upcomingSeq), a));
  c.scheduleAt = (at: bigint, fn: any, a: any) => (record(AT, Number(at - clock.nowNs)), real.scheduleAt.call(clock, at, wrap(fn, clock.upcomingSeq), a));
  c.cancel = (h: ScheduledEvent) => (record(CANCEL, h.seq), real.cancel.call(clock, h));
  c.runUntil = (u: bigint) => (record(UNTIL, Number(u - startNs)), real.runUntil.call(clock, u));
  sim.runToEnd();
  const events = clock.upcomingSeq;
  const first = new Int32Array(events + 1);
  for (const o of owners) first[o + 1]!++;
  for (let i = 0; i < events; i++) first[i + 1]! += first[i]!;
  const at = first.slice();
  const kinds = new Int8Array(owners.length);
  const values = new Float64Array(owners.length);
  owners.forEach((o, i) => {
    const j = at[o]!++;
    kinds[j] = ops[2 * i]!;
    values[j] = ops[2 * i + 1]!;
  });
  return { startNs, events, first, kinds, values, topLevel };
}

/** A clock class with `SimClock`'s API (this checkout's or another's). */
export type ClockClass = new (startNs: bigint) => SimClock;

/** Replays `trace` on a new clock of `Clock`; the number of events run (throws if it differs from the recording's). */
export function replayClockTrace(trace: ClockTrace, Clock: ClockClass): number {
  const clock = new Clock(trace.startNs);
  const { first, kinds, values } = trace;
  const handles: (ScheduledEvent | undefined)[] = new Array(trace.events);
  let ran = 0;
  const act = (kind: number, value: number): void => {
    const seq = clock.upcomingSeq;
    if (kind === POST) clock.postIn(value, onEvent, seq);
    else if (kind === IN) handles[seq] = clock.scheduleIn(value, onEvent, seq);
    else if (kind === AT) handles[seq] = clock.scheduleAt(clock.nowNs + BigInt(value), onEvent, seq);
    else if (kind === CANCEL) clock.cancel(handles[value]!);
    else clock.runUntil(trace.startNs + BigInt(value));
  };
  function onEvent(seq: number): void {
    ran++;
    for (let j = first[seq]!, end = first[seq + 1]!; j < end; j++) act(kinds[j]!, values[j]!);
  }
  for (let i = 0; i < trace.topLevel.length; i += 2) act(trace.topLevel[i]!, trace.topLevel[i + 1]!);
  if (clock.upcomingSeq !== trace.events) throw new Error(`replay pushed ${clock.upcomingSeq} events, the run ${trace.events}`);
  return ran;
}

function cpuNsPerEvent(trace: ClockTrace, Clock: ClockClass): number {
  const t = process.cpuUsage();
  const ran = replayClockTrace(trace, Clock);
  const u = process.cpuUsage(t);
  return ((u.user + u.system) * 1000) / ran;
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  // One clock per process (two classes behind one replay would make its calls polymorphic):
  // alternate processes for an A/B.
  const other = process.argv[2];
  const Clock = other === undefined ? SimClock : ((await import(pathToFileURL(`${other}/src/clock/sim-clock.ts`).href)) as { SimClock: ClockClass }).SimClock;
  const trace = recordClockTrace(1);
  const ns: number[] = [];
  for (let pass = 0; pass < 10; pass++) ns.push(cpuNsPerEvent(trace, Clock));
  const warm = ns.slice(3).sort((a, b) => a - b);
  console.log(`${other ?? 'this checkout'}: ${trace.events} events, CPU ns an event over ${warm.length} warm passes: min ${warm[0]!.toFixed(1)}, median ${warm[warm.length >> 1]!.toFixed(1)}, max ${warm.at(-1)!.toFixed(1)}`);
}
