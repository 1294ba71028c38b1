import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tableFromIPC, type RecordBatch } from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/load.ts';
import { attachEventLog } from '../../src/sim/event-log/recorder.ts';
import { Simulation } from '../../src/sim/simulation.ts';
import { EventLogFileWriter } from '../../src/sim-io/event-log-file.ts';
import { ArrowReplaySource } from '../../src/replay/arrow-source.ts';
import { openLobster } from '../../src/replay/lobster-files.ts';
import { readLobster } from '../../src/replay/lobster-reader.ts';
import { MarketArrowWriter } from '../../src/replay/market-arrow.ts';
import { RecordBook, type MarketRecord } from '../../src/replay/market-records.ts';
import { lobsterRecords, tardisRecords } from '../../src/replay/normalize.ts';
import { ReplayError } from '../../src/replay/replay-error.ts';
import { readTardisCsv } from '../../src/replay/tardis-csv.ts';
import { sharedFolder } from './shared-data.ts';

const dir = mkdtempSync(join(tmpdir(), 'perpsim-market-arrow-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of items) out.push(x);
  return out;
}

const UNITS = { 'BTC-PERP': { tickSize: '0.5', lotSize: '1' } };
const T0 = 1_767_225_600_000_000_000n;

/** One record of every kind and shape, including nulls and a timestamp past 2^53 ns. */
const SAMPLE: MarketRecord[] = [
  { kind: 'book', recvNs: T0, exchNs: T0 - 5n, symbol: 'BTC-PERP', reset: true, side: 'B', priceTicks: 100_000, qtyLots: 3 },
  { kind: 'book', recvNs: T0, exchNs: T0 - 5n, symbol: 'BTC-PERP', reset: false, side: 'S', priceTicks: 100_002, qtyLots: 4 },
  { kind: 'book', recvNs: T0 + 1n, exchNs: T0 + 1n, symbol: 'BTC-PERP', reset: true, side: undefined, priceTicks: 0, qtyLots: 0 },
  { kind: 'trade', recvNs: T0 + 2n, exchNs: T0 + 1n, symbol: 'BTC-PERP', side: 'S', priceTicks: 100_000, qtyLots: 2, tradeId: 't-1' },
  { kind: 'trade', recvNs: T0 + 3n, exchNs: T0 + 3n, symbol: 'BTC-PERP', side: undefined, priceTicks: 100_001, qtyLots: 1, tradeId: undefined },
  { kind: 'quote', recvNs: T0 + 4n, exchNs: T0 + 4n, symbol: 'BTC-PERP', bidTicks: 99_999, bidQtyLots: 7, askTicks: undefined, askQtyLots: undefined },
  { kind: 'stats', recvNs: T0 + 5n, exchNs: T0 + 5n, symbol: 'BTC-PERP', lastPrice: '50000.5', lastQtyLots: 2, volumeLots: 9, fundingRate: '-0.0001', fundingTsNs: T0 + 8n },
];

describe('normalized market-records Arrow files', () => {
  it('read back every record kind exactly as written, across several batches', async () => {
    const path = join(dir, 'sample.arrow');
    const writer = new MarketArrowWriter(path, { instruments: UNITS, source: 'test', batchRows: 3 });
    for (const r of SAMPLE) writer.add(r);
    writer.close();
    const source = new ArrowReplaySource(path);
    expect(await all(source.records())).toEqual(SAMPLE);
    const info = await source.info();
    expect(info).toMatchObject({ format: 'market-records', instruments: UNITS, source: 'test', complete: true });
    // An ordinary Arrow reader sees the same table.
    const table = tableFromIPC(readFileSync(path));
    expect(table.numRows).toBe(SAMPLE.length);
    expect(table.getChild('kind')!.toArray()).toEqual(['book', 'book', 'book', 'trade', 'trade', 'quote', 'stats']);
  });

  it('reads a file cut short before its footer up to its last complete batch', async () => {
    const path = join(dir, 'cut.arrow');
    const writer = new MarketArrowWriter(path, { instruments: UNITS, source: 'test', batchRows: 2 });
    for (const r of SAMPLE.slice(0, 5)) writer.add(r); // two full batches on disk, one row pending
    const size = writer.bytesWritten;
    const cut = readFileSync(path);
    writeFileSync(join(dir, 'cut-mid.arrow'), cut.subarray(0, size - 10)); // also a torn last batch
    const source = new ArrowReplaySource(path);
    expect((await source.info()).complete).toBe(false);
    expect(await all(source.records())).toEqual(SAMPLE.slice(0, 4));
    expect(await all(new ArrowReplaySource(join(dir, 'cut-mid.arrow')).records())).toEqual(SAMPLE.slice(0, 2));
    writer.close();
    expect(await all(source.records())).toEqual(SAMPLE.slice(0, 5));
  });

  it('refuses a file that is not Arrow or not there (a ReplayError naming it), and a symbol without units', async () => {
    const path = join(dir, 'not.arrow');
    writeFileSync(path, 'exchange,symbol\n');
    await expect(new ArrowReplaySource(path).info()).rejects.toThrow(ReplayError);
    const missing = join(dir, 'missing.arrow');
    await expect(new ArrowReplaySource(missing).info()).rejects.toThrow(new ReplayError(missing, undefined, undefined, 'no such file'));
    const writer = new MarketArrowWriter(join(dir, 'units.arrow'), { instruments: UNITS, source: 'test' });
    expect(() => writer.add({ ...SAMPLE[0]!, symbol: 'ETH-PERP' })).toThrow(/ETH-PERP has no units/);
    writer.close();
    truncateSync(join(dir, 'units.arrow'), 4);
    await expect(new ArrowReplaySource(join(dir, 'units.arrow')).info()).rejects.toThrow(/no ARROW1 magic/);
  });
});

describe('perpsim event log as a replay source', () => {
  it('streams trades, touches and marks of a run as normalized records, batch by batch', async () => {
    const scenario = parseScenario({
      name: 'log-replay',
      start: '2026-01-01T07:59:00Z',
      duration: '2m',
      instruments: [{ symbol: 'BTCUSD-PERP', tickSize: '0.5', indexPrice: '50000' }],
      users: [
        { username: 'alice', password: 'pw-alice', cash: '1000000' },
        { username: 'bob', password: 'pw-bob', cash: '1000000' },
      ],
    });
    const path = join(dir, 'events.arrow');
    const file = new EventLogFileWriter(path);
    const batches: RecordBatch[] = [];
    const sim = new Simulation(scenario);
    const recorder = attachEventLog(sim.venue, { batchRows: 4, onBatch: (b) => (batches.push(b), file.write(b)) });
    const v = sim.venue;
    const [alice, bob, btc] = [v.account('alice')!, v.account('bob')!, v.market('BTCUSD-PERP')!];
    sim.clock.scheduleAt(sim.startNs + 5_000_000_000n, () => {
      v.placeOrderTicks(alice, btc, 'B', 99_990, 3);
      v.placeOrderTicks(bob, btc, 'S', 100_020, 2);
      v.placeOrderTicks(bob, btc, 'S', 99_990, 1, 'IOC');
    });
    sim.runToEnd();
    recorder.flush();
    file.close();

    const source = new ArrowReplaySource(path);
    expect((await source.info()).format).toBe('event-log');
    const records = await all(source.records());
    const trades = records.filter((r) => r.kind === 'trade');
    expect(trades).toEqual([
      { kind: 'trade', recvNs: sim.startNs + 5_000_000_000n, exchNs: sim.startNs + 5_000_000_000n, symbol: 'BTCUSD-PERP', side: 'S', priceTicks: 99_990, qtyLots: 1, tradeId: expect.any(String) },
    ]);
    const lastQuote = records.filter((r) => r.kind === 'quote').at(-1);
    expect(lastQuote).toMatchObject({ bidTicks: 99_990, bidQtyLots: 2, askTicks: 100_020, askQtyLots: 2 });
    expect(records.some((r) => r.kind === 'stats' && r.markPrice !== undefined)).toBe(true);
    // Every market row of the log, and nothing else, in log order.
    const table = batches.flatMap((b) => b.getChild('kind')!.toArray() as string[]);
    expect(records.length).toBe(table.filter((k) => ['book', 'trade', 'mark', 'funding', 'index'].includes(k)).length);
  });
});

const tardis = sharedFolder('tardis-nautilus-samples', 'tardis CSV → Arrow round trip on the real samples');
describe.skipIf(tardis.missing)(tardis.title, () => {
  const cases = [
    ['2020-02-22_binance-futures_BTCUSDT/quotes.csv', '0.01', '0.001'],
    ['2020-02-22_binance-futures_BTCUSDT/trades.csv', '0.01', '0.001'],
    ['deribit_incremental_book_L2_BTC-PERPETUAL.csv', '0.5', '1'],
    ['binance-futures_book_snapshot_25_BTCUSDT.csv', '0.01', '0.001'],
  ] as const;
  for (const [file, tickSize, lotSize] of cases) {
    it(`reads ${file} back from Arrow exactly as the direct read`, async () => {
      const direct = await all(tardisRecords(readTardisCsv(join(tardis.dir, file), { tickSize, lotSize })));
      expect(direct.length).toBeGreaterThan(9);
      const path = join(dir, `${file.replaceAll('/', '_')}.arrow`);
      const writer = new MarketArrowWriter(path, { instruments: { '*': { tickSize, lotSize } }, source: 'tardis', batchRows: 4096 });
      for (const r of direct) writer.add(r);
      writer.close();
      expect(await all(new ArrowReplaySource(path).records())).toEqual(direct);
    });
  }
});

const lobster = sharedFolder('lobster-sample', 'LOBSTER as normalized book records');
describe.skipIf(lobster.missing)(lobster.title, () => {
  it('rebuilds the orderbook file from the book rows at every timestamp (AMZN level 1)', async () => {
    const files = await openLobster([join(lobster.dir, 'LOBSTER_SampleFile_AMZN_2012-06-21_1.zip')]);
    const expected = new Map<bigint, { bids: unknown; asks: unknown }>(); // the last row of each time
    for await (const row of readLobster(files)) expected.set(row.tsNs, { bids: row.bids, asks: row.asks });
    const book = new RecordBook();
    let checked = 0;
    let groupNs: bigint | undefined;
    const check = () => {
      if (groupNs === undefined) return;
      expect(book.l2(), `at ${groupNs}`).toEqual(expected.get(groupNs));
      checked++;
    };
    for await (const r of lobsterRecords(readLobster(files))) {
      if (r.kind !== 'book') continue;
      if (r.recvNs !== groupNs) check();
      book.apply(r);
      groupNs = r.recvNs;
    }
    check();
    expect(checked).toBeGreaterThan(1000);
  });
});
