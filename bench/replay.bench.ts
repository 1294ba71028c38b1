/**
 * Replay readers: rows/s through the real async readers, and a pass's peak memory at 1× and 10×
 * the input (flat = streaming). The harness times a synchronous `run()`, so each case owns a
 * worker thread that does the pass while `run()` blocks on `Atomics.wait` (a message each way,
 * microseconds). Memory is the worker's: peak V8 `heapUsed` during the pass (uncollected garbage
 * included) and process RSS. Inputs are made at prepare time under `os.tmpdir()` from
 * `../shared/data` (cases without inputs are left out): gzipped tardis quotes / trades and 10×
 * copies with timestamps shifted past the previous copy; the LOBSTER GOOG level-1 pair 10× as
 * gzipped CSVs; an Arrow event log of synthetic book and trade rows (the project's writer);
 * normalized market-records Arrow files converted from the tardis quotes repeated 10× (the 1×
 * case, 99,990 rows) and 100× (the 10× case).
 *
 * tardis passes take the reader's chunks (`ChunkedStream.chunks()`, arrays of batches as
 * decoded), the way a replay consumes them; `arrow-market` and `arrow-event-log-market` read
 * `ArrowReplaySource.batches()`: typed-array columns per record batch, no object per row.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { isMainThread, MessageChannel, parentPort, receiveMessageOnPort, Worker, workerData, type MessagePort } from 'node:worker_threads';
import { findGc, type BenchCase } from './harness.ts';

const ROOT = join(import.meta.dirname, '..');
const TARDIS = join(ROOT, '../shared/data/tardis-nautilus-samples/2020-02-22_binance-futures_BTCUSDT');
const LOBSTER = join(ROOT, '../shared/data/lobster-sample');
const EVENT_LOG = join(ROOT, 'src/sim-io/event-log-file.ts');
const ARROW_ROWS = 4 * 65_536;

type Job = (
  | { op: 'gc' }
  | { op: 'tardis'; path: string; tickSize: string; lotSize: string }
  | { op: 'lobster'; paths: string[]; verify: boolean }
  | { op: 'lobster-10x'; zip: string; dir: string }
  | { op: 'arrow-build'; path: string; rows: number }
  | { op: 'arrow'; path: string; columnar: boolean }
  | { op: 'arrow-market'; path: string }
  | { op: 'arrow-market-build'; csv: string; path: string }
) & { probe?: boolean };

/** What a pass reports: rows read, and the worker's memory peaks during it. */
type Pass = { rows: number; peakHeapMb: number; peakRssMb: number; error?: string };

// ---------------------------------------------------------------- worker side

// Loaded once: a dynamic import() per pass would ask tsx's loader thread again (a millisecond or more).
const once = <T>(load: () => Promise<T>): (() => Promise<T>) => {
  let loaded: Promise<T> | undefined;
  return () => (loaded ??= load());
};
const replay = once(async () => ({
  ...(await import('../src/replay/tardis-csv.ts')),
  ...(await import('../src/replay/lobster-files.ts')),
  ...(await import('../src/replay/lobster-reader.ts')),
  ...(await import('../src/replay/lobster-verify.ts')),
  ...(await import('../src/replay/zip.ts')),
}));
const market = once(async () => ({
  ...(await import('../src/replay/arrow-source.ts')),
  ...(await import('../src/replay/market-arrow.ts')),
  ...(await import('../src/replay/market-records.ts')),
  ...(await import('../src/replay/normalize.ts')),
}));
const eventLog = once(async () => ({
  ...(await import('../src/sim-io/event-log-file.ts')),
  ...(await import('../src/sim/event-log/schema.ts')),
  ...(await import('../src/sim/event-log/recorder.ts')),
}));
let gc: (() => void) | undefined;
let probing = false;
const peak = { heapMb: 0, rssMb: 0 };
/** Records the heap and RSS peaks of the current pass; when probing, after a full GC (live memory only). */
function sample(): void {
  if (probing) (gc ??= findGc())?.();
  peak.heapMb = Math.max(peak.heapMb, process.memoryUsage().heapUsed / 2 ** 20);
  peak.rssMb = Math.max(peak.rssMb, process.memoryUsage.rss() / 2 ** 20);
}

async function runJob(job: Job): Promise<number> {
  let rows = 0;
  if (job.op === 'gc') {
    (gc ??= findGc())?.();
  } else if (job.op === 'tardis') {
    for await (const chunk of (await replay()).readTardisCsv(job.path, job).chunks()) {
      for (const batch of chunk) rows += batch.rows.length;
      sample();
    }
  } else if (job.op === 'arrow-market-build') {
    const { readTardisCsv } = await replay();
    const { MarketArrowWriter, tardisRecords } = await market();
    const writer = new MarketArrowWriter(job.path, { instruments: { BTCUSDT: { tickSize: '0.01', lotSize: '0.001' } }, source: 'bench' });
    for await (const chunk of tardisRecords(readTardisCsv(job.csv, { tickSize: '0.01', lotSize: '0.001' })).chunks()) for (const r of chunk) writer.add(r);
    writer.close();
    rows = writer.rows;
  } else if (job.op === 'arrow-market') {
    // What a replay does per row: the time-order check, the kind, one price column.
    const { ArrowReplaySource, KIND_TRADE, KIND_QUOTE } = await market();
    let [lastNs, trades, quotes, ticks] = [0n, 0, 0, 0];
    for await (const b of new ArrowReplaySource(job.path).batches()) {
      const { recvNs, kind, priceTicks, bidTicks } = b;
      for (let i = 0; i < b.length; i++) {
        if (recvNs[i]! < lastNs) throw new Error('records out of time order');
        lastNs = recvNs[i]!;
        const k = kind[i]!;
        if (k === KIND_TRADE) (trades++, (ticks += priceTicks[i]!));
        else if (k === KIND_QUOTE) (quotes++, (ticks += bidTicks[i]!));
      }
      rows += b.length;
      sample();
    }
    if (trades + quotes !== rows || !(ticks > 0)) throw new Error(`${trades} trades + ${quotes} quotes of ${rows} rows`);
  } else if (job.op === 'lobster') {
    const { openLobster, readLobster, verifyLobster } = await replay();
    const files = await openLobster(job.paths);
    const sampled = async function* () {
      for await (const row of readLobster(files)) {
        if ((++rows & 4095) === 0) sample();
        yield row;
      }
    };
    if (!job.verify) for await (const _ of sampled());
    else if ((await verifyLobster(sampled(), files.levels)).matched !== rows) throw new Error('LOBSTER oracle failed');
  } else if (job.op === 'lobster-10x') {
    // GOOG level-1 message and orderbook files repeated 10× as gzipped CSVs (a reader pass, not a replay).
    const { listZipEntries, zipEntrySource } = await replay();
    for (const entry of (await listZipEntries(job.zip)).filter((e) => /_(message|orderbook)_/.test(e.name))) {
      const parts: Buffer[] = [];
      for await (const chunk of zipEntrySource(job.zip, entry).open()) parts.push(chunk);
      const text = Buffer.concat(parts);
      writeFileSync(join(job.dir, `${entry.name}.gz`), gzipSync(Buffer.concat(Array<Buffer>(10).fill(text))));
      rows = 10 * (text.toString('latin1').split('\n').length - 1);
    }
  } else if (job.op === 'arrow-build') {
    rows = await buildEventLog(job.path, job.rows);
  } else {
    const log = await (await eventLog()).openEventLog(job.path);
    // Columnar: what the format allows, a scan of ts_ns and the kind codes of each batch as typed arrays.
    let [lastNs, trades] = [0n, 0];
    for await (const batch of job.columnar ? log.batches() : []) {
      const ts = batch.getChild('ts_ns')!.data[0]!.values as BigInt64Array;
      const kinds = batch.getChild('kind')!.data[0]!.values as Int8Array;
      for (let i = 0; i < batch.numRows; i++) {
        if (ts[i]! < lastNs) throw new Error('event log out of time order');
        lastNs = ts[i]!;
        if (kinds[i] === 1) trades++; // code 1 = 'trade' (EVENT_KINDS order)
      }
      rows += batch.numRows;
      sample();
    }
    if (job.columnar && trades !== Math.floor(rows / 3)) throw new Error(`${trades} trade rows of ${rows}, expected a third`);
    for await (const _ of job.columnar ? [] : log.records()) if ((++rows & 65535) === 0) sample();
    await log.close();
  }
  return rows;
}

/** An Arrow event log of `rows` synthetic rows (two book rows per trade row), written with the project's writer. */
async function buildEventLog(path: string, rows: number): Promise<number> {
  const { EventColumns, EVENT_LOG_VERSION, EventLogFileWriter, splitTimestamp } = await eventLog();
  const batchRows = 65_536;
  const writer = new EventLogFileWriter(path);
  const cols = new EventColumns(batchRows, new Map([['perpsim.event_log', EVENT_LOG_VERSION]]));
  const int64 = cols as unknown as Record<string, { setNumber(row: number, value: number): void }>;
  for (let start = 0; start < rows; start += batchRows) {
    const n = Math.min(batchRows, rows - start);
    for (let r = 0; r < n; r++) {
      const seq = start + r;
      const [hi, lo] = splitTimestamp(1_767_225_600 + Math.floor(seq / 1000), (seq % 1000) * 1_000_000);
      cols.seq.set(r, seq);
      cols.ts_ns.setHalves(r, hi, lo);
      cols.symbol.set(r, 'BTCUSD-PERP');
      const mid = 100_000 + (seq % 200) - 100;
      const trade = seq % 3 === 2;
      cols.kind.set(r, trade ? 'trade' : 'book');
      if (trade) {
        cols.user.set(r, `trader-${seq % 8}`);
        cols.order_id.set(r, `O-${seq.toString(36).padStart(26, '0')}`);
        cols.side.set(r, seq % 2 === 0 ? 'B' : 'S');
        cols.price.set(r, `${mid / 2}`);
      }
      const numbers = trade
        ? { price_ticks: mid, qty: 1 + (seq % 7), trade_id: seq }
        : { bid_ticks: mid - 1, bid_qty: 10 + (seq % 13), ask_ticks: mid + 1, ask_qty: 10 + (seq % 17), bid_depth5: 100 + (seq % 50), ask_depth5: 100 + (seq % 40) };
      for (const [name, value] of Object.entries(numbers)) int64[name]!.setNumber(r, value);
    }
    writer.write(cols.finish(n));
  }
  writer.close();
  return rows;
}

if (!isMainThread && (workerData as { role?: string } | null)?.role === 'replay-bench') {
  const { reply, done } = workerData as { reply: MessagePort; done: Int32Array };
  parentPort!.on('message', (job: Job) => {
    const finish = (pass: Pass): void => {
      reply.postMessage(pass);
      Atomics.store(done, 0, 1);
      Atomics.notify(done, 0);
    };
    peak.heapMb = peak.rssMb = 0;
    probing = job.probe === true;
    sample();
    runJob(job).then(
      (rows) => (sample(), finish({ rows, peakHeapMb: peak.heapMb, peakRssMb: peak.rssMb })),
      (e: unknown) => finish({ rows: 0, peakHeapMb: 0, peakRssMb: 0, error: String((e as Error)?.stack ?? e) }),
    );
  });
}

// ---------------------------------------------------------------- main side

/** A worker thread running jobs, called synchronously. */
class JobWorker {
  private readonly channel = new MessageChannel();
  private readonly done = new Int32Array(new SharedArrayBuffer(4));
  // Workers do not inherit tsx's loader: register it in the worker, then load this file there.
  private readonly worker = new Worker(
    `(async () => { const { register } = await import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}); register();
      await import(${JSON.stringify(import.meta.url)}); })().catch((e) => { console.error(e); process.exit(1); });`,
    { eval: true, workerData: { role: 'replay-bench', reply: this.channel.port2, done: this.done }, transferList: [this.channel.port2] },
  );

  call(job: Job): Pass {
    Atomics.store(this.done, 0, 0);
    this.worker.postMessage(job);
    if (Atomics.wait(this.done, 0, 0, 600_000) === 'timed-out') throw new Error(`replay bench worker: ${job.op} timed out`);
    const pass = receiveMessageOnPort(this.channel.port1)?.message as Pass | undefined;
    if (pass === undefined || pass.error !== undefined) throw new Error(`replay bench worker: ${pass?.error ?? 'no reply'}`);
    return pass;
  }

  close = (): void => void this.worker.terminate();
}

let scratch: string | undefined;
/** This process's scratch folder under the OS temp dir, removed at exit. */
function scratchDir(): string {
  if (scratch !== undefined) return scratch;
  mkdirSync((scratch = join(tmpdir(), `perpsim-replay-bench-${process.pid}`)), { recursive: true });
  process.on('exit', () => rmSync(scratch!, { recursive: true, force: true }));
  return scratch;
}

/** A tardis CSV, gzipped or not, repeated `copies` times with both timestamps shifted past the previous copy. */
function tardisCopy(source: string, copies: number, gzip: boolean): { path: string; rows: number } {
  const [header, ...lines] = readFileSync(source, 'utf8').trimEnd().split('\n');
  const times = (line: string): number[] => line.split(',').slice(2, 4).map(Number);
  const span = Math.max(...times(lines.at(-1)!)) - Math.min(...times(lines[0]!)) + 1;
  const out: string[] = [header!];
  for (let k = 0; k < copies; k++) {
    for (const line of lines) {
      const f = line.split(',');
      f[2] = String(Number(f[2]) + k * span); // µs, exact below 2^53
      f[3] = String(Number(f[3]) + k * span);
      out.push(f.join(','));
    }
  }
  const path = join(scratchDir(), `${source.split('/').at(-1)!.replace('.csv', '')}-${copies}x.csv${gzip ? '.gz' : ''}`);
  const text = out.join('\n') + '\n';
  writeFileSync(path, gzip ? gzipSync(text) : text);
  return { path, rows: lines.length * copies };
}

/** A case whose pass is one worker job; `make` runs at prepare time and gives the job and its row count. */
function workerCase(name: string, iterations: number, make: (worker: JobWorker) => { job: Job; rows: number }): BenchCase {
  let worker: JobWorker | undefined;
  let job: Job | undefined;
  let rows = 0;
  let last: Pass | undefined;
  let live: Pass | undefined;
  return {
    name,
    unit: 'row',
    get opsPerRun() {
      return rows;
    },
    iterations,
    timeMs: 0,
    warmupIterations: Math.max(2, Math.round(iterations / 5)),
    gcBetweenRuns: false, // main-thread GC is beside the point: the work happens in the worker
    prepare() {
      worker = new JobWorker();
      ({ job, rows } = make(worker));
      // Untimed: one pass with a full GC before each memory sample, so its peak is live memory only.
      live = worker.call({ ...job, probe: true });
      worker.call({ op: 'gc' }); // once: a forced full GC before every timed pass would shrink the young generation and slow it 2-5x
    },
    reset() {},
    run() {
      last = worker!.call(job!);
      if (last.rows !== rows) throw new Error(`${name}: read ${last.rows} rows, expected ${rows}`);
    },
    release() {},
    dispose() {
      worker?.close();
      worker = undefined;
    },
    describe() {
      if (last === undefined || live === undefined) return '';
      return `${last.rows} rows a pass; worker live heap ≤ ${live.peakHeapMb.toFixed(1)} MB (sampled after GC), heap peak ${last.peakHeapMb.toFixed(1)} MB with garbage, rss peak ${last.peakRssMb.toFixed(0)} MB`;
    },
  };
}

function tardisCase(file: 'quotes' | 'trades', copies: number, gzip: boolean): BenchCase {
  return workerCase(`replay.tardis-${file}-${gzip ? 'gz' : 'csv'}.${copies}x`, copies === 1 ? 50 : 10, () => {
    const { path, rows } = tardisCopy(join(TARDIS, `${file}.csv`), copies, gzip);
    return { job: { op: 'tardis', path, tickSize: '0.01', lotSize: '0.001' }, rows };
  });
}

function lobsterCase(name: string, iterations: number, paths: string[], rows: number, verify = false): BenchCase {
  return workerCase(`replay.lobster-${name}`, iterations, () => ({ job: { op: 'lobster', paths, verify }, rows }));
}

/** Every replay case whose inputs exist, in run order. */
export function replayCases(): BenchCase[] {
  const cases: BenchCase[] = [];
  if (existsSync(TARDIS)) {
    for (const file of ['quotes', 'trades'] as const) cases.push(tardisCase(file, 1, true), tardisCase(file, 10, true));
    cases.push(tardisCase('quotes', 10, false));
  }
  if (existsSync(LOBSTER)) {
    const goog1 = join(LOBSTER, 'LOBSTER_SampleFile_GOOG_2012-06-21_1.zip');
    const goog10 = join(LOBSTER, 'LOBSTER_SampleFile_GOOG_2012-06-21_10.zip');
    cases.push(lobsterCase('read-goog1.1x', 10, [goog1], 49_482));
    cases.push(
      workerCase('replay.lobster-read-goog1.10x', 3, (worker) => {
        const dir = join(scratchDir(), 'lobster-10x');
        mkdirSync(dir, { recursive: true });
        const rows = worker.call({ op: 'lobster-10x', zip: goog1, dir }).rows;
        const base = join(dir, 'GOOG_2012-06-21_34200000_57600000');
        return { job: { op: 'lobster', paths: [`${base}_message_1.csv.gz`, `${base}_orderbook_1.csv.gz`], verify: false }, rows };
      }),
    );
    cases.push(lobsterCase('read-goog10', 5, [goog10], 147_916), lobsterCase('l3-verify-goog10', 5, [goog10], 147_916, true));
  }
  if (existsSync(EVENT_LOG)) {
    for (const [copies, columnar] of [[1, false], [10, false], [1, true], [10, true]] as const) {
      cases.push(
        workerCase(`replay.arrow-event-log${columnar ? '-columns' : ''}.${copies}x`, copies === 1 ? 10 : 3, (worker) => {
          const path = join(scratchDir(), `events-${copies}x.arrow`);
          const rows = existsSync(path) ? copies * ARROW_ROWS : worker.call({ op: 'arrow-build', path, rows: copies * ARROW_ROWS }).rows;
          return { job: { op: 'arrow', path, columnar }, rows };
        }),
      );
    }
  }
  if (existsSync(TARDIS)) {
    for (const copies of [1, 10]) {
      cases.push(
        workerCase(`replay.arrow-market-quotes.${copies}x`, copies === 1 ? 20 : 5, (worker) => {
          const csv = tardisCopy(join(TARDIS, 'quotes.csv'), 10 * copies, false);
          const path = join(scratchDir(), `market-quotes-${copies}x.arrow`);
          const rows = worker.call({ op: 'arrow-market-build', csv: csv.path, path }).rows;
          return { job: { op: 'arrow-market', path }, rows };
        }),
      );
    }
  }
  if (existsSync(EVENT_LOG)) {
    for (const copies of [1, 10]) {
      cases.push(
        workerCase(`replay.arrow-event-log-market.${copies}x`, copies === 1 ? 10 : 3, (worker) => {
          const path = join(scratchDir(), `events-${copies}x.arrow`);
          const rows = existsSync(path) ? copies * ARROW_ROWS : worker.call({ op: 'arrow-build', path, rows: copies * ARROW_ROWS }).rows;
          return { job: { op: 'arrow-market', path }, rows };
        }),
      );
    }
  }
  return cases;
}
