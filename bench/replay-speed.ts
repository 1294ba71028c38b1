/**
 * Replay backtests at reader speed? (`npx tsx bench/replay-speed.ts [--copies 10] [--rounds 3]`)
 *
 * Inputs, made under os.tmpdir() from ../shared/data: the Binance USD-M BTCUSDT capture
 * (hftbacktest) 1× and N× (copies with receipt times, E, T and update ids shifted past the
 * previous copy, as bench/replay.bench.ts shifts tardis files), and the N× file's Arrow
 * conversion (`perpsim convert --to arrow`).
 *
 * Cases, each in a child process of its own (so RSS is the case's), alternated round by round:
 * - `reader`: the reader alone, normalized records counted as `perpsim convert` counts them
 *   (`openMarketSources`) — the floor each replay is compared with. It reads the road the replay
 *   reads: a source's column batches when it has them (a raw Binance capture, its book tickers
 *   for their times, as an L2 replay reads them), else its records;
 *   `PERPSIM_READER_ROAD=records` times the record road instead (what `convert` reads);
 * - `nothing`: `runBacktest` of a strategy that does nothing on a `--replay` scenario of the
 *   file (span pass, build and the streamed run: what `perpsim backtest --replay` does);
 * - `mm`: the same with examples/market-maker.ts quoting the replayed symbol.
 * Speed is normalized records per wall second (the reader's count), with the CPU time of the
 * process (both threads: a replay reads on a second thread); peak RSS is sampled every 20 ms.
 * Module loading (tsx compiling the sources in a checkout) is timed apart and not in the rate:
 * the last column gives the rate with it.
 * The machine is shared: figures are printed per round and as ranges, with the ratio of each
 * replay to the reader measured in the same round.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';

const ROOT = join(import.meta.dirname, '..');
const CAPTURE = join(ROOT, '../shared/data/hftbacktest-binance-futures-raw/usdm/btcusdt_20240808.gz');

interface Pass {
  records: number;
  wallS: number;
  /** Module loading before the timed pass (wall seconds; not in `wallS` or `cpuS`). */
  loadS: number;
  cpuS: number;
  peakRssMb: number;
  hash?: string;
}

// ------------------------------------------------------------------ child: one pass

async function child(mode: string, file: string): Promise<Pass> {
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
  // Module loading first, timed apart: in a checkout tsx compiles the sources here (0.6–1.2 s
  // for the backtest's graph, a fixed cost whatever the file's length; the installed package
  // loads built JavaScript). The rate is the replay's own: span pass, build and the run.
  const l0 = performance.now();
  const { openMarketSources } = await import('../src/replay/market-sources.ts');
  const { replayScenario } = mode === 'reader' ? { replayScenario: undefined } : await import('../src/replay/l2/replay-scenario.ts');
  const { runBacktest } = mode === 'reader' ? { runBacktest: undefined } : await import('../src/backtest/runner.ts');
  const mm = mode === 'mm' ? await import('../examples/market-maker.ts') : undefined;
  const loadS = (performance.now() - l0) / 1000;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let records = 0;
  let hash: string | undefined;
  if (mode === 'reader') {
    const road = process.env.PERPSIM_READER_ROAD ?? 'columns';
    const [source] = await openMarketSources([file], undefined, { tickSize: '0.1', lotSize: '0.001', ...(road === 'columns' ? { quotesBesideBookUnused: true } : {}) });
    if (road === 'columns' && source!.batches !== undefined) for await (const batch of source!.batches()) records += batch.length;
    else for await (const chunk of source!.records.chunks()) records += chunk.length;
  } else {
    const { scenario } = await replayScenario!({ files: [file] });
    const symbol = scenario.instruments[0]!.symbol;
    const strategy = mm !== undefined ? mm.default(mm.paramsSchema.parse({ symbol })) : { async onStart() {} };
    const result = await runBacktest!(strategy, { scenario });
    hash = result.stateHash;
  }
  const wallS = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage.rss());
  return { records, wallS, loadS, cpuS: (cpu.user + cpu.system) / 1e6, peakRssMb: peak / 2 ** 20, ...(hash ? { hash } : {}) };
}

// ------------------------------------------------------------------ parent: inputs, rounds, table

/** The capture repeated `copies` times, shifted (gzip level 1; made once). */
function repeated(copies: number, dir: string): string {
  const out = join(dir, `x${copies}`, 'btcusdt_20240808.gz'); // the file name names the symbol
  if (existsSync(out)) return out;
  mkdirSync(join(dir, `x${copies}`), { recursive: true });
  const lines = gunzipSync(readFileSync(CAPTURE)).toString('utf8').split('\n').filter((l) => l.length > 0);
  const nsOf = (l: string) => BigInt(l.slice(0, l.indexOf(' ')));
  const spanNs = nsOf(lines[lines.length - 1]!) - nsOf(lines[0]!) + 1_000_000_000n;
  const spanMs = spanNs / 1_000_000n;
  const parts: Buffer[] = [];
  for (let k = 0n; k < BigInt(copies); k++) {
    const text = lines
      .map((l) => {
        const sp = l.indexOf(' ');
        const json = k === 0n ? l.slice(sp + 1) : l.slice(sp + 1).replace(/"(E|T)":(\d+)/g, (_, f, v) => `"${f}":${BigInt(v) + k * spanMs}`).replace(/"(U|u|pu|lastUpdateId)":(\d+)/g, (_, f, v) => `"${f}":${BigInt(v) + k * 100_000_000n}`);
        return `${nsOf(l) + k * spanNs} ${json}\n`;
      })
      .join('');
    parts.push(gzipSync(text, { level: 1 })); // concatenated gzip members are one gzip stream
  }
  writeFileSync(out, Buffer.concat(parts));
  return out;
}

function arrowOf(file: string): string {
  const out = file.replace(/\.gz$/, '.arrow');
  if (!existsSync(out)) execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/bin.js'), 'convert', file, '--to', 'arrow', '--out', out, '--tick-size', '0.1', '--lot-size', '0.001'], { cwd: ROOT, stdio: 'ignore' });
  return out;
}

function runChild(mode: string, file: string): Pass {
  const r = spawnSync(process.execPath, ['--import', 'tsx', import.meta.filename, '--child', mode, file], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 20 });
  const line = r.stdout.trim().split('\n').pop() ?? '';
  if (r.status !== 0 || !line.startsWith('{')) throw new Error(`${mode} ${file}: ${r.stderr.trim().split('\n').slice(-3).join(' ')}`);
  return JSON.parse(line) as Pass;
}

const range = (xs: number[], digits = 0) => {
  const s = [...xs].sort((a, b) => a - b);
  const f = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
  return s.length === 1 ? f(s[0]!) : `${f(s[0]!)} … ${f(s[s.length - 1]!)}`;
};

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === '--child') {
    process.stdout.write(`${JSON.stringify(await child(argv[1]!, argv[2]!))}\n`);
    return;
  }
  const opt = (name: string, dflt: number) => {
    const i = argv.indexOf(name);
    return i >= 0 ? Number(argv[i + 1]) : dflt;
  };
  const copies = opt('--copies', 10);
  const rounds = opt('--rounds', 3);
  const only = argv.filter((a) => !a.startsWith('--') && Number.isNaN(Number(a)));
  if (!existsSync(CAPTURE)) {
    console.log(`no ${CAPTURE}: nothing to measure`);
    return;
  }
  const dir = join(tmpdir(), 'perpsim-replay-speed');
  const inputs: Record<string, string> = { raw1: repeated(1, dir), rawN: repeated(copies, dir) };
  inputs.arrowN = arrowOf(inputs.rawN!);
  const cases: { name: string; mode: string; input: string }[] = [
    { name: 'raw 1×', mode: 'nothing', input: 'raw1' },
    { name: `raw ${copies}×`, mode: 'nothing', input: 'rawN' },
    { name: `arrow ${copies}×`, mode: 'nothing', input: 'arrowN' },
    { name: `arrow ${copies}× market maker`, mode: 'mm', input: 'arrowN' },
    { name: `raw ${copies}× market maker`, mode: 'mm', input: 'rawN' },
  ].filter((c) => only.length === 0 || only.some((o) => c.name.includes(o)));
  const seen: Record<string, { reader: Pass[]; replay: Pass[] }> = {};
  for (let round = 0; round < rounds; round++) {
    for (const c of cases) {
      const file = inputs[c.input]!;
      const reader = runChild('reader', file);
      const replay = runChild(c.mode, file);
      (seen[c.name] ??= { reader: [], replay: [] }).reader.push(reader);
      seen[c.name]!.replay.push(replay);
      const rate = (p: Pass) => Math.round(reader.records / p.wallS).toLocaleString('en-US');
      console.log(`round ${round + 1} ${c.name}: ${reader.records} records; reader ${rate(reader)} rec/s (cpu ${reader.cpuS.toFixed(2)} s), replay ${rate(replay)} rec/s (wall ${replay.wallS.toFixed(2)} s, cpu ${replay.cpuS.toFixed(2)} s, peak RSS ${replay.peakRssMb.toFixed(0)} MB, hash ${replay.hash}; modules ${replay.loadS.toFixed(2)} s before it), ratio ${(reader.wallS / replay.wallS).toFixed(2)}`);
    }
  }
  console.log('\n| case | records | reader rec/s (wall) | replay rec/s (wall) | replay rec/s per CPU s | ratio replay / reader | replay peak RSS MB | replay rec/s with module loading (wall) |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const c of cases) {
    const { reader, replay } = seen[c.name]!;
    const n = reader[0]!.records;
    const ratios = replay.map((p, i) => reader[i]!.wallS / p.wallS);
    console.log(`| ${c.name} | ${n.toLocaleString('en-US')} | ${range(reader.map((p) => n / p.wallS))} | ${range(replay.map((p) => n / p.wallS))} | ${range(replay.map((p) => n / p.cpuS))} | ${range(ratios, 2)} | ${range(replay.map((p) => p.peakRssMb))} | ${range(replay.map((p) => n / (p.wallS + p.loadS)))} |`);
  }
}

await main();
