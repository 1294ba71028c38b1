import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatDuration, formatTimestampNs } from '../core/time.ts';
import type { Scenario } from '../scenario/schema.ts';
import type { factsBySymbol } from '../sim/event-log/facts-feed.ts';
import { attachTapeRecorder, type TapeRecorder } from '../sim/event-log/tape-recorder.ts';
import type { Simulation } from '../sim/simulation.ts';
import { ThreadedEventLogWriter, type ClosedEventLog } from '../sim-io/threaded-writer.ts';
import { lz4FallbackWarning, processNativeLz4 } from '../sim-io/lz4-native.ts';
import { costWarning, estimateEventLogBytes } from './cost-warning.ts';
import { prepareOutDir } from './out-path.ts';
import { NO_PROGRESS, Progress, type ProgressStream } from './progress.ts';
import type { L2Replayer } from '../replay/l2/l2-replayer.ts';
import { buildRequestedRun, replayErrorLine, type ReplayRequest } from './replay-flags.ts';
import { ReplayError } from '../replay/replay-error.ts';
import { UsageError } from './usage-error.ts';
import { mainThreadCpuS } from './thread-cpu.ts';

/** What `perpsim run` was asked to do, after flag parsing. */
export interface RunRequest {
  /** Built-in scenario name or path of a scenario file. */
  scenario: string;
  seed?: number;
  durationNs?: bigint;
  /** Output directory (default `out/run-<scenario>-<seed>` under the current directory). */
  outDir?: string;
  /** `--replay`: recordings to replay (with the scenario when `--scenario` is given). */
  replay?: ReplayRequest;
  /** `--quiet`: no progress on stderr. */
  quiet?: boolean;
}

/** `summary.json`: everything in it is deterministic for a scenario and seed. */
export interface RunSummary {
  scenario: string;
  seed: number;
  sim_start: string;
  sim_end: string;
  duration: string;
  state_hash: string;
  events: number;
  events_by_kind: Record<string, number>;
  trades: number;
  /** Lots traded, all symbols. */
  volume: number;
  volume_by_symbol: Record<string, number>;
  liquidations: number;
  event_log: string;
  event_log_bytes: number;
  /** Measured from the event log, exactly as `perpsim report` measures them (NaN → null). */
  stylized_facts: ReturnType<typeof factsBySymbol>;
}

/**
 * `perpsim run`: runs the request (flags parsed by `commands/run.ts`) and prints the summary.
 * A scenario with a recorded market (or `--replay`) runs asynchronously: the recordings are
 * read first.
 */
export function runCommand(request: RunRequest): number | Promise<number> {
  const wallStart = performance.now();
  return executeRun(request, request.quiet === true ? NO_PROGRESS : process.stderr).then((r) => printRun(r, wallStart));
}

/** Where a run's wall time went, in ms (`perpsim run` prints it). */
export interface RunWall {
  /** Reading the scenario (and recordings) and building the simulation. */
  buildMs: number;
  /** Running the simulation with its recorder: the simulation thread's part. */
  simulationMs: number;
  /** Of `simulationMs`, waiting for the writer thread (its queue full). */
  writerWaitMs: number;
  /** CPU ms the simulation's thread used meanwhile (NaN where the OS does not say). */
  simulationCpuMs: number;
  /** After the run: waiting for the writer thread to write what is queued and the footer. */
  writerCloseMs: number;
  /** CPU ms the writer thread used in all (NaN where the OS does not say). */
  writerCpuMs?: number;
}

/**
 * The wall-time line: the whole (process start to summary) and its parts. Start-up is the
 * process's own (node and module loading) before the command ran; the rest is the summary.
 * @internal Exported for its test.
 */
export function wallLine(totalMs: number, startupMs: number, wall: RunWall): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const restMs = Math.max(0, totalMs - startupMs - wall.buildMs - wall.simulationMs - wall.writerCloseMs);
  const cpu = Number.isNaN(wall.simulationCpuMs) ? '' : `its thread's CPU ${s(wall.simulationCpuMs)}, `;
  return (
    `since the process started ${s(totalMs)} = start-up ${s(startupMs)} + build ${s(wall.buildMs)} + simulation ${s(wall.simulationMs)}` +
    ` (${cpu}waiting for the writer thread ${s(wall.writerWaitMs)}) + writer thread finishing ${s(wall.writerCloseMs)} + summary ${s(restMs)}`
  );
}

function printRun({ summary, outDir, simNs, wall }: { summary: RunSummary; outDir: string; simNs: bigint; wall: RunWall }, wallStart: number): number {
  const wallSeconds = (performance.now() - wallStart) / 1000;
  const simSeconds = Number(simNs / 1_000_000n) / 1000;
  const w = (line: string) => process.stdout.write(`${line}\n`);
  w(`perpsim run: ${summary.scenario}, seed ${summary.seed}, ${summary.duration} of sim time → ${outDir}`);
  w(`events ${summary.events} (trades ${summary.trades}, volume ${summary.volume} lots, liquidations ${summary.liquidations}), event log ${(summary.event_log_bytes / 1e6).toFixed(1)} MB (${Math.round(summary.event_log_bytes / Math.max(summary.events, 1))} bytes/event)`);
  w(`wall ${wallSeconds.toFixed(2)} s: ${Math.round(summary.events / wallSeconds)} events/s, ${Math.round(simSeconds / wallSeconds)} sim-s per wall-s`);
  const cpu = process.cpuUsage();
  const writerCpu = wall.writerCpuMs === undefined || Number.isNaN(wall.writerCpuMs) ? '' : `; the writer thread's ${(wall.writerCpuMs / 1000).toFixed(2)} s`;
  w(`${wallLine(performance.now(), wallStart, wall)}; CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s (every thread${writerCpu})`);
  w(`state_hash: ${summary.state_hash}`);
  return 0;
}

/**
 * Runs a scenario headless (synthetic or recorded: a recorded market's files are read first),
 * as fast as the machine allows, writing `events.arrow` and `summary.json` to the output
 * directory; progress goes to `progressOut`.
 */
export async function executeRun(request: RunRequest, progressOut: ProgressStream): Promise<{ summary: RunSummary; outDir: string; simNs: bigint; wall: RunWall }> {
  const buildStart = performance.now();
  const { scenario, sim, built } = await buildRequestedRun(request);
  const buildMs = performance.now() - buildStart;
  const ran = runBuilt(scenario, sim, request, progressOut, built.replayer);
  return { ...ran, wall: { ...ran.wall, buildMs } };
}

/** Runs a built simulation headless, writing the event log and summary. @internal Exported for its test. */
export function runBuilt(scenario: Scenario, sim: Simulation, request: RunRequest, progressOut: ProgressStream, replayer: L2Replayer | undefined): { summary: RunSummary; outDir: string; simNs: bigint; wall: RunWall } {
  const outDir = request.outDir ?? join('out', `run-${slug(scenario.name)}-${sim.seed}`);
  prepareOutDir(request.outDir === undefined ? 'output directory' : '--out', outDir);
  const warning = costWarning('run', sim.endNs - sim.startNs, estimateEventLogBytes(scenario.agents.length, sim.endNs - sim.startNs));
  if (warning !== undefined) progressOut.write(`${warning}\n`);
  // The writer thread compresses with the same binding (arrow-lz4.ts): known here without loading Arrow.
  const lz4Fallback = processNativeLz4().fallbackReason;
  if (lz4Fallback !== undefined) progressOut.write(`${lz4FallbackWarning(lz4Fallback)}\n`);
  // Compression and the facts run on a thread of their own, beside the simulation.
  const writer = new ThreadedEventLogWriter(join(outDir, 'events.arrow'), { compression: 'lz4', facts: true });
  let recorder: TapeRecorder;
  let closed: ClosedEventLog;
  const simulationStart = performance.now();
  const simulationCpuS = mainThreadCpuS();
  let closeStart = NaN;
  let simulationCpuMs = NaN;
  try {
    recorder = attachTapeRecorder(sim.venue, {
      // The rows travel as numbers: the writer thread builds the columns, ids and dictionaries.
      onRows: (tape, setup) => writer.writeRows(tape, setup),
      metadata: {
        'perpsim.scenario': scenario.name,
        'perpsim.seed': String(sim.seed),
        'perpsim.sim_start': formatTimestampNs(sim.startNs),
        'perpsim.sim_end': formatTimestampNs(sim.endNs),
      },
    });
    runInSlices(sim, new Progress(progressOut, sim.startNs, sim.endNs, `perpsim run ${scenario.name}`), replayer);
    recorder.flush();
  } catch (e) {
    // The span pass read every recording before the run; one changed or cut since fails here.
    if (e instanceof ReplayError) throw new UsageError(`replay failed at ${formatTimestampNs(sim.clock.nowNs)} of the run (the event log in ${outDir} stops there): ${replayErrorLine(e)}`);
    throw e;
  } finally {
    closeStart = performance.now();
    simulationCpuMs = (mainThreadCpuS() - simulationCpuS) * 1000;
    closed = writer.close();
  }
  const wall: RunWall = { buildMs: 0, simulationMs: closeStart - simulationStart, writerWaitMs: writer.waitedMs, simulationCpuMs, writerCloseMs: performance.now() - closeStart, writerCpuMs: closed.cpuMs };
  const summary = summarize(sim, scenario, recorder, closed.bytesWritten, closed.facts as RunSummary['stylized_facts']);
  writeFileSync(join(outDir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  return { summary, outDir, simNs: sim.endNs - sim.startNs, wall };
}

/**
 * Runs to the end in slices of sim time (1/500 of the run, between 1 s and 60 s), reporting
 * progress (and the records a replay has applied) between slices. Slicing never changes what
 * runs: events keep their (time, insertion) order.
 */
function runInSlices(sim: Simulation, progress: Progress, replayer: L2Replayer | undefined): void {
  const span = sim.endNs - sim.startNs;
  const second = 1_000_000_000n;
  let slice = span / 500n;
  if (slice < second) slice = second;
  if (slice > 60n * second) slice = 60n * second;
  sim.start();
  for (let t = sim.startNs; t < sim.endNs; ) {
    t = t + slice < sim.endNs ? t + slice : sim.endNs;
    sim.runUntil(t);
    progress.update(t, replayer?.stats.events);
  }
  progress.done();
}

function summarize(sim: Simulation, scenario: Scenario, recorder: TapeRecorder, bytes: number, facts: RunSummary['stylized_facts']): RunSummary {
  const volumeBySymbol = Object.fromEntries(sim.venue.markets.map((m) => [m.symbol, recorder.volumeLots.get(m.symbol) ?? 0]));
  return {
    scenario: scenario.name,
    seed: sim.seed,
    sim_start: formatTimestampNs(sim.startNs),
    sim_end: formatTimestampNs(sim.endNs),
    duration: formatDuration(sim.endNs - sim.startNs),
    state_hash: sim.venue.stateHash(),
    events: recorder.rows,
    events_by_kind: { ...recorder.counts },
    trades: recorder.counts.trade,
    volume: Object.values(volumeBySymbol).reduce((a, b) => a + b, 0),
    volume_by_symbol: volumeBySymbol,
    liquidations: sim.venue.liquidationCount,
    event_log: 'events.arrow',
    event_log_bytes: bytes,
    stylized_facts: facts,
  };
}

function slug(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '-');
}
