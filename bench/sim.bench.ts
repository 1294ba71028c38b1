/**
 * Whole-simulation throughput: one hour of the `default` scenario (agents, index processes,
 * venue), as `perpsim run` drives it. Target: one simulated day of `default` in under 60 s of
 * wall time, i.e. at least 1,440 sim-seconds per wall-second.
 */
import type { RecordBatch } from 'apache-arrow';
import { loadScenario } from '../src/scenario/load.ts';
import type { Scenario } from '../src/scenario/schema.ts';
import { buildSimulation } from '../src/sim/build.ts';
import { attachEventLog, type EventLogRecorder } from '../src/sim/event-log/recorder.ts';
import type { Simulation } from '../src/sim/simulation.ts';
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

/** Every simulation case, in run order. */
export const simCases = (): BenchCase[] => [simCase(true), simCase(false)];
