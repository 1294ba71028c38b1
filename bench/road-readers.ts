/**
 * What the one road costs over the readers it wraps (`npx tsx bench/road-readers.ts`): the same
 * files read by the reader alone (the floor) and through `openMarketRecords` (sniffing, the
 * normalized records, Binance's depth sync, the k-way merge into batches), alternating A/B,
 * ROUNDS passes each. Rows/s in CPU time (user + sys of this process; the machine is shared,
 * CPU time is the steadier figure) and wall time; the ratio is road / floor per round.
 */
import { join } from 'node:path';
import { readBinanceRaw } from '../src/replay/binance-raw.ts';
import { openMarketRecords } from '../src/replay/market-stream.ts';
import { readTardisCsv } from '../src/replay/tardis-csv.ts';

const ROUNDS = 5;
const DATA = join(import.meta.dirname, '../../shared/data');
const BTC = join(DATA, 'hftbacktest-binance-futures-raw/usdm/btcusdt_20240808.gz');
const TARDIS = join(DATA, 'tardis-nautilus-samples/2020-02-22_binance-futures_BTCUSDT');
const TARDIS_FILES = [join(TARDIS, 'quotes.csv'), join(TARDIS, 'trades.csv')];
const BTC_UNITS = { tickSize: '0.1', lotSize: '0.001' };
const TARDIS_UNITS = { tickSize: '0.01', lotSize: '0.001' };

interface Case {
  name: string;
  floor: () => Promise<number>;
  /** The normalized records of each source, not merged: what the merge adds is road − this. */
  records: () => Promise<number>;
  road: () => Promise<number>;
}

const CASES: Case[] = [
  {
    name: 'Binance capture btcusdt_20240808.gz (94k lines)',
    floor: async () => {
      let n = 0;
      for await (const c of readBinanceRaw(BTC, BTC_UNITS).chunks()) n += c.length;
      return n;
    },
    records: () => unmerged(openMarketRecords([BTC], { units: BTC_UNITS })),
    road: () => count(openMarketRecords([BTC], { units: BTC_UNITS })),
  },
  {
    name: 'tardis quotes.csv + trades.csv (20k rows), merged',
    floor: async () => {
      let n = 0;
      for (const f of TARDIS_FILES) for await (const c of readTardisCsv(f, TARDIS_UNITS).chunks()) for (const b of c) n += b.rows.length;
      return n;
    },
    records: () => unmerged(openMarketRecords(TARDIS_FILES, { units: TARDIS_UNITS })),
    road: () => count(openMarketRecords(TARDIS_FILES, { units: TARDIS_UNITS })),
  },
];

async function count(opening: ReturnType<typeof openMarketRecords>): Promise<number> {
  let n = 0;
  for await (const b of (await opening).batches()) n += b.records.length;
  return n;
}

async function unmerged(opening: ReturnType<typeof openMarketRecords>): Promise<number> {
  let n = 0;
  for (const s of (await opening).sources) for await (const c of s.records.chunks()) n += c.length;
  return n;
}

async function timed(f: () => Promise<number>): Promise<{ rows: number; cpuS: number; wallS: number }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const rows = await f();
  const cpu = process.cpuUsage(cpu0);
  return { rows, cpuS: (cpu.user + cpu.system) / 1e6, wallS: (performance.now() - t0) / 1000 };
}

const range = (xs: number[], digits = 0) => `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;
const k = (x: number) => x / 1000;

for (const c of CASES) {
  await c.floor(); // warm up both paths once
  await c.road();
  const floor: number[] = [];
  const records: number[] = [];
  const road: number[] = [];
  const ratio: number[] = [];
  const recordsRatio: number[] = [];
  let rows = { floor: 0, road: 0 };
  for (let r = 0; r < ROUNDS; r++) {
    const a = await timed(c.floor);
    const m = await timed(c.records);
    const b = await timed(c.road);
    records.push(m.rows / m.cpuS);
    recordsRatio.push(m.cpuS / a.cpuS);
    rows = { floor: a.rows, road: b.rows };
    floor.push(a.rows / a.cpuS);
    road.push(b.rows / b.cpuS);
    ratio.push(b.cpuS / a.cpuS);
  }
  console.log(`${c.name}\n  floor (reader alone): ${rows.floor} rows, ${range(floor.map(k))} k rows/CPU-s\n  records, unmerged: ${range(records.map(k))} k records/CPU-s (CPU ×${range(recordsRatio, 2)} the floor)\n  road (openMarketRecords): ${rows.road} records, ${range(road.map(k))} k records/CPU-s\n  CPU time road / floor: ${range(ratio, 2)}×`);
}
