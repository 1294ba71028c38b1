/**
 * Whole-simulation throughput of the `default` scenario (agents, index processes, venue), as
 * `perpsim run` drives it: `sim.day` (issue 11's target: a day in ≤ 10 s of wall time with a
 * log ≤ 300 MB) and one hour with and without the log in memory (the earlier target: a day
 * under 60 s).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordBatch } from 'apache-arrow';
import { loadScenario } from '../src/scenario/load.ts';
import type { Scenario } from '../src/scenario/schema.ts';
import { buildSimulation } from '../src/sim/build.ts';
import { attachEventLog, type EventLogRecorder } from '../src/sim/event-log/recorder.ts';
import type { Simulation } from '../src/sim/simulation.ts';
import { ThreadedEventLogWriter } from '../src/sim-io/threaded-writer.ts';
import { mainThreadCpuS } from '../src/cli/thread-cpu.ts';
import type { BenchCase } from './harness.ts';

const SIM_SECONDS = 3_600;
const DURATION_NS = BigInt(SIM_SECONDS) * 1_000_000_000n;
const DAY_TARGET_S = 60;

/**
 * `sim.default.log`: one hour of `default` with the event log recorded in memory (Arrow
 * batches built, then dropped, as the file writer would take them). One op = one event-log row.
 * `sim.default.nolog`: the same hour with nothing listening. One op = one simulated second.
 */
function simCase(withLog: boolean): BenchCase {
  let scenario: Scenario | undefined;
  let sim: Simulation | undefined;
  let recorder: EventLogRecorder | undefined;
  let events = 0;
  let batchRows = 0;
  let wallMs = NaN;
  return {
    name: withLog ? 'sim.default.log' : 'sim.default.nolog',
    unit: withLog ? 'event' : 'sim-s',
    get opsPerRun() {
      return withLog ? events : SIM_SECONDS;
    },
    iterations: 3,
    timeMs: 0,
    warmupIterations: 1,
    gcBetweenRuns: true,
    prepare() {
      scenario = loadScenario('default');
    },
    reset() {
      sim = buildSimulation(scenario!, { durationNs: DURATION_NS });
      batchRows = 0;
      recorder = withLog
        ? attachEventLog(sim.venue, { reuseBuffers: true, onBatch: (b: RecordBatch) => void (batchRows += b.numRows) })
        : undefined;
    },
    run() {
      const t0 = performance.now();
      sim!.runToEnd();
      recorder?.flush();
      wallMs = performance.now() - t0;
      events = recorder?.rows ?? 0;
    },
    release() {
      scenario = undefined;
    },
    dispose() {
      sim = undefined;
      recorder = undefined;
    },
    describe() {
      const ratio = SIM_SECONDS / (wallMs / 1000);
      const day = 86_400 / ratio;
      const log = withLog ? `${events} events (${batchRows} rows in batches), ${Math.round(events / (wallMs / 1000))} events/s, ` : '';
      return `${log}1 h of default in ${(wallMs / 1000).toFixed(2)} s = ${Math.round(ratio)} sim-s per wall-s; a day ≈ ${day.toFixed(0)} s (target < ${DAY_TARGET_S} s)`;
    },
  };
}

/** Simulated hours of one `sim.day` pass, and the day's target (issue 11). */
const DAY_PASS_HOURS = 2;
const DAY_TARGET_WALL_S = 10;

/**
 * `sim.day`: a simulated day of `default` as `perpsim run` makes it, measured on a fixed
 * twelfth (the first 2 h; the day's later hours run ~7% more events an hour): the simulation
 * with its event log recorded, handed to the writer thread, LZ4-compressed and written to a
 * temporary file with the stylized facts measured. One op = one event-log row. The note gives
 * wall and CPU time of the pass (CPU of every thread: the writer's runs beside the simulation,
 * so CPU can exceed wall; and each of the two threads' own), events/s, and the day projected as 12 passes against the target.
 * Its floor is `clock.events`, the sim clock scheduling and running bare events: the ratio
 * says how far a simulated event is from a raw one.
 */
function dayCase(): BenchCase {
  let scenario: Scenario | undefined;
  let sim: Simulation | undefined;
  let recorder: EventLogRecorder | undefined;
  let writer: ThreadedEventLogWriter | undefined;
  let dir = '';
  let events = 0;
  let bytes = 0;
  let wallMs = NaN;
  let cpuMs = NaN;
  let simThreadS = NaN;
  let writerThreadS = NaN;
  return {
    name: 'sim.day',
    floor: 'clock.events',
    unit: 'event',
    get opsPerRun() {
      return events;
    },
    iterations: 2,
    timeMs: 0,
    warmupIterations: 1,
    gcBetweenRuns: true,
    prepare() {
      scenario = loadScenario('default');
      dir = mkdtempSync(join(tmpdir(), 'perpsim-bench-day-'));
    },
    reset() {
      sim = buildSimulation(scenario!, { durationNs: BigInt(DAY_PASS_HOURS * 3600) * 1_000_000_000n });
      writer = new ThreadedEventLogWriter(join(dir, 'events.arrow'), { compression: 'lz4', facts: true });
      const w = writer;
      // As `perpsim run`: the rows go to the writer thread as numbers, which builds the columns.
      recorder = attachEventLog(sim.venue, { onRows: (tape, setup) => w.writeRows(tape, setup) });
    },
    run() {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      const main0 = mainThreadCpuS();
      sim!.runToEnd();
      recorder!.flush();
      const closed = writer!.close();
      bytes = closed.bytesWritten;
      writerThreadS = closed.cpuMs / 1000;
      const c = process.cpuUsage(c0);
      simThreadS = mainThreadCpuS() - main0;
      cpuMs = (c.user + c.system) / 1000;
      wallMs = performance.now() - t0;
      events = recorder!.rows;
    },
    release() {
      scenario = undefined;
      rmSync(dir, { recursive: true, force: true });
    },
    dispose() {
      sim = undefined;
      recorder = undefined;
      writer = undefined;
    },
    describe() {
      const passes = 24 / DAY_PASS_HOURS;
      return (
        `${DAY_PASS_HOURS} h of default: ${events} events, log ${(bytes / 1e6).toFixed(1)} MB (${(bytes / events).toFixed(1)} bytes/event), ` +
        `wall ${(wallMs / 1000).toFixed(2)} s, CPU ${(cpuMs / 1000).toFixed(2)} s (every thread; the simulation's ${simThreadS.toFixed(2)} s, the writer's ${writerThreadS.toFixed(2)} s), ${Math.round(events / (wallMs / 1000))} events/s wall; ` +
        `a day ≈ ${((wallMs * passes) / 1000).toFixed(1)} s wall, ${((cpuMs * passes) / 1000).toFixed(1)} s CPU (simulation thread ${(simThreadS * passes).toFixed(1)} s: the wall on an idle 2-core machine), ${((bytes * passes) / 1e6).toFixed(0)} MB (target ≤ ${DAY_TARGET_WALL_S} s, ≤ 300 MB)`
      );
    },
  };
}

/** Every simulation case, in run order. */
export const simCases = (): BenchCase[] => [dayCase(), simCase(true), simCase(false)];
