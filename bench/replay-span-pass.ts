/**
 * The raw capture's span pass, header scan against full decode
 * (`npx tsx bench/replay-span-pass.ts [FILE] [--rounds 3]`; FILE defaults to the 10× capture
 * `bench/replay-speed.ts` makes under os.tmpdir(), else the 1× capture in ../shared/data).
 *
 * Cases, in-process, alternated round by round: `full` is the span pass as it was until round 9
 * (every line decoded; kept as the oracle in test/replay/binance-raw-span-oracle.ts), `headers`
 * the one `scanL2Span` runs now (src/replay/l2/l2-span-binance.ts); `lines` is the floor both
 * stand on, the file inflated and its line breaks found (`textChunks`, `Buffer.indexOf`). Each prints its CPU and wall
 * time (gunzip runs on libuv's pool: CPU counts it, wall overlaps it) and lines per CPU second.
 * Both spans must be equal, or the script fails.
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { binanceRawSpan } from '../src/replay/l2/l2-span-binance.ts';
import { textChunks } from '../src/replay/line-chunks.ts';
import { fileSource } from '../src/replay/file-source.ts';
import { binanceRawSpanOracle } from '../test/replay/binance-raw-span-oracle.ts';

const argv = process.argv.slice(2);
const roundsAt = argv.indexOf('--rounds');
const rounds = roundsAt >= 0 ? Number(argv[roundsAt + 1]) : 3;
const x10 = join(tmpdir(), 'perpsim-replay-speed/x10/btcusdt_20240808.gz');
const file = argv.find((a, i) => !a.startsWith('--') && argv[i - 1] !== '--rounds') ?? (existsSync(x10) ? x10 : join(import.meta.dirname, '../../shared/data/hftbacktest-binance-futures-raw/usdm/btcusdt_20240808.gz'));

async function lines(): Promise<number> {
  let n = 0;
  for await (const bytes of textChunks(fileSource(file))) {
    for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) n++;
    if (bytes.length > 0 && bytes[bytes.length - 1] !== 10) n++;
  }
  return n;
}

async function timed<T>(name: string, fn: () => Promise<T>, count: number): Promise<T> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const out = await fn();
  const wallS = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuS = (cpu.user + cpu.system) / 1e6;
  console.log(`${name.padEnd(8)} cpu ${cpuS.toFixed(2)} s  wall ${wallS.toFixed(2)} s  ${Math.round(count / cpuS).toLocaleString('en-US')} lines per CPU s`);
  return out;
}

const count = await lines();
console.log(`${file}: ${count.toLocaleString('en-US')} lines`);
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? ['full', 'headers'] : ['headers', 'full'];
  const spans: Record<string, unknown> = {};
  for (const name of order) {
    spans[name] = await timed(name, () => (name === 'full' ? binanceRawSpanOracle : binanceRawSpan)(file, '0.1', '0.001', 0), count);
  }
  await timed('lines', lines, count);
  const a = JSON.stringify(spans.full, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
  const b = JSON.stringify(spans.headers, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
  if (a !== b) throw new Error(`the spans differ: ${a} vs ${b}`);
}
