/**
 * The shape every benchmark file exports, and the code that runs one case under tinybench.
 *
 * A case separates what is timed from what is not: `prepare` generates the seeded workload
 * once, `reset` builds fresh engine state before every timed pass, `run` is the timed pass,
 * and `release` drops the workload so that the heap measured afterwards is the engine's state
 * (plus the runtime's own baseline), not the pre-generated commands.
 */
import { Bench } from 'tinybench';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** One benchmark: a hot path with a seeded workload. */
export interface BenchCase {
  /** Dotted name used for filtering and in the JSON output, e.g. `book.mix`. */
  readonly name: string;
  /**
   * Name of the case this one is measured against, run in the same process (e.g. `book.mix`
   * against `book.mix-reference`): `run.ts` runs it too and prints the ratio of the two.
   */
  readonly floor?: string;
  /** What one op is, for the table (`order`, `event`, `call`). */
  readonly unit: string;
  /** Operations performed by one call of `run`. */
  readonly opsPerRun: number;
  /** Timed passes (at least); whole-workload cases use a handful. */
  readonly iterations: number;
  /** Time budget in ms for the timed phase (0: iterations only). */
  readonly timeMs: number;
  /** Untimed passes before measuring, so the JIT has settled. */
  readonly warmupIterations: number;
  /**
   * Collect garbage before every timed pass (untimed), so one pass does not pay for the last
   * one's. Right for whole-workload passes; far too slow for microsecond-sized calls.
   */
  readonly gcBetweenRuns: boolean;
  /** Generates the workload (untimed, once). */
  prepare(): void;
  /** Fresh engine state for the next pass (untimed). */
  reset(): void;
  /** The timed work (awaited inside the timed window when `async`). */
  run(): void | Promise<void>;
  /** `run` returns a promise (the wire cases: a load run by a client over sockets). */
  readonly async?: boolean;
  /** Untimed, once before anything else: e.g. start a server and its client. */
  setup?(): Promise<void>;
  /** Untimed, once at the end: stop what `setup` started. */
  teardown?(): Promise<void>;
  /** Drops the workload, keeping the engine state of the last pass alive for the heap figure. */
  release(): void;
  /** Drops the engine state once its heap figure is taken, so later cases start clean. */
  dispose(): void;
  /** A one-line check that the pass did what it claims (e.g. events run, orders resting). */
  describe(): string;
  /**
   * Rates the case measured itself, replacing tinybench's (the wire cases time each load on the
   * client and the server's CPU per load, alternating with their floor inside one pass).
   */
  rates?(): { opsPerSec: number; cpuOpsPerSec: number } | undefined;
}

/** What one case measured. */
export interface BenchResult {
  name: string;
  unit: string;
  opsPerSec: number;
  /** Mean time of one `run` call, ms. */
  meanMs: number;
  /** Relative margin of error of the mean, percent. */
  rmePct: number;
  /**
   * ops/s from the fastest timed pass in process CPU time (whole-pass cases only, else NaN).
   * On a shared machine wall time includes waiting for a core; CPU time does not, and the
   * fastest pass is the one least disturbed by other processes' cache traffic.
   */
  cpuOpsPerSec: number;
  samples: number;
  /** `heapUsed` after the last pass (after a gc when available), MB. */
  heapMb: number;
  /** `arrayBuffers` at the same moment: typed-array storage, outside `heapUsed`, MB. */
  buffersMb: number;
  note: string;
}

/** `gc()` when it can be had: from --expose-gc, or switched on at run time. */
export function findGc(): (() => void) | undefined {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (typeof existing === 'function') return existing;
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}

/** The middle value of `xs` (the upper one of the two middles when their count is even). */
export const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** CPU seconds (user + system, the whole process) of `fn`. */
export function cpuSeconds(fn: () => void): number {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
}

/** One side of an alternated comparison: `fresh` builds the state (untimed), `run` is timed. */
export interface AlternatedPass {
  fresh(): void;
  run(): void;
}

/**
 * `pairs` passes of `a` and of `b` alternated in this process, `a` first in even pairs and `b`
 * first in odd ones (neither always runs on the other's leftovers), so both see the same load.
 * Each pass builds its fresh state, then collects garbage (after the build: a collection before
 * it can drop the optimized code of the state's classes, bench/README "Pitfalls"), then is
 * timed in CPU seconds.
 */
export function alternatedPasses(pairs: number, a: AlternatedPass, b: AlternatedPass, gc: (() => void) | undefined): { a: number[]; b: number[] } {
  const out = { a: [] as number[], b: [] as number[] };
  const pass = (p: AlternatedPass): number => {
    p.fresh();
    gc?.();
    return cpuSeconds(() => p.run());
  };
  for (let i = 0; i < pairs; i++) {
    if (i % 2 === 0) {
      out.a.push(pass(a));
      out.b.push(pass(b));
    } else {
      out.b.push(pass(b));
      out.a.push(pass(a));
    }
  }
  return out;
}

/** Runs one case with tinybench and measures the heap after its last pass. */
export async function runCase(c: BenchCase, gc: (() => void) | undefined): Promise<BenchResult> {
  await c.setup?.();
  try {
    return await measure(c, gc);
  } finally {
    await c.teardown?.();
  }
}

async function measure(c: BenchCase, gc: (() => void) | undefined): Promise<BenchResult> {
  c.prepare();
  const bench = new Bench({
    name: c.name,
    iterations: c.iterations,
    time: c.timeMs,
    warmupIterations: c.warmupIterations,
    warmupTime: 0,
    warmup: c.warmupIterations > 0,
    throws: true,
  });
  let heapMb = NaN;
  let buffersMb = NaN;
  let note = '';
  // Whole passes are long enough for two cpuUsage() calls (a microsecond) not to matter.
  const timeCpu = c.gcBetweenRuns && c.async !== true;
  let measuring = false;
  let fastestCpuMs = Infinity;
  const timed = (): void => {
    const before = process.cpuUsage();
    c.run();
    const used = process.cpuUsage(before);
    if (measuring) fastestCpuMs = Math.min(fastestCpuMs, (used.user + used.system) / 1000);
  };
  bench.add(c.name, timeCpu ? timed : () => c.run(), {
    async: c.async ?? false,
    beforeEach: (mode) => {
      measuring = mode === 'run';
      c.reset();
      if (c.gcBetweenRuns) gc?.();
    },
    afterAll: (mode) => {
      if (mode !== 'run') return;
      note = c.describe();
      c.release();
      gc?.();
      const memory = process.memoryUsage();
      heapMb = memory.heapUsed / (1024 * 1024);
      buffersMb = memory.arrayBuffers / (1024 * 1024);
      c.dispose();
    },
  });
  await bench.run();
  const task = bench.getTask(c.name);
  const result = task?.result;
  if (result === undefined || (result.state !== 'completed' && result.state !== 'aborted-with-statistics')) {
    throw new Error(`${c.name}: benchmark did not complete (${result?.state ?? 'no task'})`);
  }
  const meanMs = result.latency.mean;
  const own = c.rates?.();
  return {
    name: c.name,
    unit: c.unit,
    opsPerSec: own?.opsPerSec ?? (c.opsPerRun * 1000) / meanMs,
    meanMs,
    rmePct: result.latency.rme,
    cpuOpsPerSec: own?.cpuOpsPerSec ?? (timeCpu && Number.isFinite(fastestCpuMs) ? (c.opsPerRun * 1000) / fastestCpuMs : NaN),
    samples: result.latency.samplesCount,
    heapMb,
    buffersMb,
    note,
  };
}
