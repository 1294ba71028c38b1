import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RecordBatchReader, tableFromIPC, type RecordBatch } from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/load.ts';
import { Int64Column } from '../../src/sim/event-log/columns.ts';
import { readEventRecords, type EventRecord } from '../../src/sim/event-log/reader.ts';
import { attachEventLog, type EventLogRecorder } from '../../src/sim/event-log/recorder.ts';
import { splitTimestamp } from '../../src/sim/event-log/schema.ts';
import { Simulation } from '../../src/sim/simulation.ts';
import { EventLogError, EventLogFileWriter, openEventLog } from '../../src/sim-io/event-log-file.ts';

const S = 1_000_000_000n;
const scenario = parseScenario({
  name: 'log-test',
  start: '2026-01-01T07:59:00Z',
  duration: '2m',
  instruments: [
    { symbol: 'BTCUSD-PERP', tickSize: '0.5', indexPrice: '50000' },
    { symbol: 'ETHUSD-PERP', tickSize: '0.01', indexPrice: '3000' },
  ],
  users: [
    { username: 'alice', password: 'pw-alice', cash: '1000000' },
    { username: 'bob', password: 'pw-bob', cash: '1000000' },
  ],
});

/** A short scripted market: rests, trades, rejects, cancel rejects, index moves, a halt, a funding. */
function scriptedRun(batchRows: number, onBatch: (b: RecordBatch) => void, reuseBuffers = false): { sim: Simulation; recorder: EventLogRecorder } {
  const sim = new Simulation(scenario);
  const recorder = attachEventLog(sim.venue, { batchRows, onBatch, reuseBuffers });
  const v = sim.venue;
  const alice = v.account('alice')!;
  const bob = v.account('bob')!;
  const btc = v.market('BTCUSD-PERP')!;
  const eth = v.market('ETHUSD-PERP')!;
  sim.clock.scheduleAt(sim.startNs + 5n * S, () => {
    v.placeOrderTicks(alice, btc, 'B', 99_990, 3);
    v.placeOrderTicks(bob, btc, 'S', 99_990, 1, 'IOC');
    v.placeOrderTicks(bob, btc, 'S', 100_020, 2);
    for (let i = 1; i <= 7; i++) v.placeOrderTicks(alice, eth, 'B', 299_000 - i * 10, 1);
    v.placeOrder(bob, { symbol: 'XYZ-PERP', price: '1.23', quantity: 1, side: 'S', timeInForce: 'GTC', postOnly: false });
    v.placeOrder(bob, { symbol: 'ETHUSD-PERP', price: '2999.995', quantity: 1, side: 'S', timeInForce: 'GTC', postOnly: false });
    v.cancelOrder(bob, 'O-NOSUCHORDER');
    v.setIndexPrice(btc, 100_010);
    v.setIndexPrice(btc, 100_010);
  });
  sim.clock.scheduleAt(sim.startNs + 10n * S, () => v.setInstrumentState(eth, 'HALTED'));
  sim.runToEnd();
  recorder.flush();
  return { sim, recorder };
}

function collect(batchRows: number) {
  const batches: RecordBatch[] = [];
  const run = scriptedRun(batchRows, (b) => batches.push(b));
  return { ...run, batches, records: [...readEventRecords(batches)] };
}

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('the event log recorder', () => {
  const { records, recorder, batches } = collect(65_536);
  const of = (kind: string) => records.filter((r) => r.kind === kind);

  it('opens with the state and index of every market at the start', () => {
    expect(records.slice(0, 4).map((r) => [r.kind, r.symbol, r.state ?? r.indexTicks])).toEqual([
      ['state', 'BTCUSD-PERP', 'OPEN'],
      ['index', 'BTCUSD-PERP', 100_000],
      ['state', 'ETHUSD-PERP', 'OPEN'],
      ['index', 'ETHUSD-PERP', 300_000],
    ]);
    expect(records[0]!.tsNs).toBe(1_767_254_340n * S);
  });

  it('numbers rows from 0 and keeps them in time order', () => {
    expect(records.map((r) => r.seq)).toEqual(records.map((_, i) => i));
    expect(records.every((r, i) => i === 0 || r.tsNs >= records[i - 1]!.tsNs)).toBe(true);
    expect(recorder.rows).toBe(records.length);
  });

  it('records each feed with the order it carries', () => {
    const fill = of('feed').find((r) => r.feed === 'p')!;
    expect(fill).toMatchObject({ user: 'alice', symbol: 'BTCUSD-PERP', state: 'PARTIALLY_FILLED', side: 'B', tif: 'GTC', liquidation: false, priceTicks: 99_990, price: '49995', qty: 3, filled: 1, tradeId: 1 });
    expect(of('feed').map((r) => r.feed).join('')).toBe(`nnpf${'n'.repeat(8)}jje`);
  });

  it('keeps rejects with their reason, and the price text even off the tick grid', () => {
    const [unknown, offGrid] = of('feed').filter((r) => r.feed === 'j');
    expect(unknown).toMatchObject({ symbol: 'XYZ-PERP', reason: 'UNKNOWN_SYMBOL', price: '1.23', priceTicks: null });
    expect(offGrid).toMatchObject({ symbol: 'ETHUSD-PERP', reason: 'INVALID_PRICE_INCREMENT', price: '2999.995', priceTicks: null });
    const cancelReject = of('feed').find((r) => r.feed === 'e')!;
    expect(cancelReject).toMatchObject({ user: 'bob', orderId: 'O-NOSUCHORDER', reason: 'UNKNOWN_ORDER', symbol: null, state: null });
  });

  it('records a trade with taker and maker', () => {
    expect(of('trade')).toHaveLength(1);
    const taker = of('feed').find((r) => r.feed === 'f')!;
    const maker = of('feed').find((r) => r.feed === 'p')!;
    expect(of('trade')[0]).toMatchObject({
      symbol: 'BTCUSD-PERP', tradeId: 1, priceTicks: 99_990, price: '49995', qty: 1, side: 'S',
      user: 'bob', orderId: taker.orderId, makerUser: 'alice', makerOrderId: maker.orderId,
    });
  });

  it('records the touch and top-five depth, only when they change', () => {
    const eth = of('book').filter((r) => r.symbol === 'ETHUSD-PERP');
    expect(eth).toHaveLength(5); // orders 6 and 7 rest below the fifth level
    expect(eth.at(-1)).toMatchObject({ bidTicks: 298_990, bidQty: 1, askTicks: null, askQty: null, bidDepth5: 5, askDepth5: 0 });
    const btc = of('book').filter((r) => r.symbol === 'BTCUSD-PERP').at(-1)!;
    expect(btc).toMatchObject({ bidTicks: 99_990, bidQty: 2, askTicks: 100_020, askQty: 2, bidDepth5: 2, askDepth5: 2 });
  });

  it('records an index row when the index moves, not when it is set to the same value', () => {
    expect(of('index').map((r) => [r.symbol, r.indexTicks])).toEqual([
      ['BTCUSD-PERP', 100_000], ['ETHUSD-PERP', 300_000], ['BTCUSD-PERP', 100_010],
    ]);
  });

  it('records instrument states, mark records and the funding settlement at 08:00', () => {
    expect(of('state').at(-1)).toMatchObject({ symbol: 'ETHUSD-PERP', state: 'HALTED' });
    // 08:00 (the minute record, which the funding re-announces) and 08:01, for two markets
    expect(of('mark').map((r) => r.tsNs - 1_767_254_400n * S)).toEqual([0n, 0n, 60n * S, 60n * S]);
    const funding = of('funding');
    expect(funding.map((r) => r.symbol)).toEqual(['BTCUSD-PERP', 'ETHUSD-PERP']);
    expect(funding[0]!.fundingRate).toMatch(/^-?\d+(\.\d+)?$/);
    expect(funding[0]!.tsNs).toBe(1_767_254_400n * S);
  });

  it('counts rows by kind and volume by symbol', () => {
    const kinds = Object.fromEntries(Object.keys(recorder.counts).map((k) => [k, of(k).length]));
    expect(recorder.counts).toEqual(kinds);
    expect(recorder.volumeLots.get('BTCUSD-PERP')).toBe(1);
    expect(batches).toHaveLength(1);
  });

  it('gives the same rows whatever the batch size (dictionaries grow across batches)', () => {
    const small = collect(3);
    expect(small.batches.length).toBe(Math.ceil(records.length / 3));
    expect(small.records).toEqual(records);
  });
});

describe('the event log file', () => {
  /** Writes the scripted run with reused buffers, as `perpsim run` does. */
  function writeRun(batchRows: number, compression: 'lz4' | 'none' = 'none'): { path: string; records: EventRecord[] } {
    const dir = mkdtempSync(join(tmpdir(), 'perpsim-log-'));
    dirs.push(dir);
    const path = join(dir, 'events.arrow');
    const writer = new EventLogFileWriter(path, { compression });
    scriptedRun(batchRows, (b) => writer.write(b), true);
    writer.close();
    return { path, records: collect(batchRows).records };
  }

  it('reads back, batch by batch, the rows the recorder made (buffers reused between batches)', async () => {
    const { path, records } = writeRun(4);
    const log = await openEventLog(path);
    const read: EventRecord[] = [];
    for await (const r of log.records()) read.push(r);
    await log.close();
    expect(read).toEqual(records);
    expect(log.metadata.get('perpsim.tick_sizes')).toBe('{"BTCUSD-PERP":"0.5","ETHUSD-PERP":"0.01"}');
  });

  it('is an Arrow IPC file that any Arrow reader opens, with typed columns', () => {
    const { path, records } = writeRun(4);
    const bytes = readFileSync(path);
    expect(bytes.subarray(0, 6).toString()).toBe('ARROW1');
    const table = tableFromIPC(bytes);
    expect(table.numRows).toBe(records.length);
    expect(String(table.schema.fields.find((f) => f.name === 'ts_ns')!.type)).toBe('Int64');
    expect(String(table.schema.fields.find((f) => f.name === 'symbol')!.type)).toBe('Dictionary<Int32, Utf8>');
    expect(table.getChild('symbol')!.get(records.length - 1)).toBe(records.at(-1)!.symbol);
  });

  it('carries every known value in its first dictionaries; a value first seen later comes as a delta', () => {
    const { path } = writeRun(4);
    const reader = RecordBatchReader.from(readFileSync(path));
    reader.open();
    // 9 dictionary columns, plus one delta for XYZ-PERP (a symbol no market has, seen mid-run)
    expect(reader.numDictionaries).toBe(10);
    const { path: onePass } = writeRun(65_536);
    const whole = RecordBatchReader.from(readFileSync(onePass));
    whole.open();
    expect(whole.numDictionaries).toBe(9);
  });

  it('is byte-identical for two identical runs', () => {
    expect(readFileSync(writeRun(5).path).equals(readFileSync(writeRun(5).path))).toBe(true);
  });

  it('compressed with LZ4, reads back the same rows in fewer bytes, byte-identical run to run', async () => {
    const plain = writeRun(65_536);
    const { path, records } = writeRun(65_536, 'lz4');
    const bytes = readFileSync(path);
    expect(bytes.length).toBeLessThan(readFileSync(plain.path).length);
    expect(bytes.equals(readFileSync(writeRun(65_536, 'lz4').path))).toBe(true);
    // Every record batch says LZ4_FRAME, and its buffers are LZ4 frames (magic 04 22 4D 18).
    expect(bytes.indexOf(Buffer.from([0x04, 0x22, 0x4d, 0x18]))).toBeGreaterThan(0);
    const log = await openEventLog(path);
    const read: EventRecord[] = [];
    for await (const r of log.records()) read.push(r);
    await log.close();
    expect(read).toEqual(records);
    expect(tableFromIPC(bytes).numRows).toBe(records.length);
  });

  it('writes a price as text only where its ticks do not give it; the reader gives the text on every row', () => {
    const { path, records } = writeRun(1_000);
    const table = tableFromIPC(readFileSync(path));
    const texts = table.getChild('price')!;
    const ticks = table.getChild('price_ticks')!;
    let rebuilt = 0;
    records.forEach((r, i) => {
      if (r.price === null) return;
      if (ticks.get(i) === null) expect(texts.get(i)).toBe(r.price); // off the grid: written
      else if (texts.get(i) === null) rebuilt++;
    });
    expect(rebuilt).toBeGreaterThan(10);
    const trade = records.find((r) => r.kind === 'trade')!;
    expect(trade.price).toMatch(/^\d+(\.\d+)?$/);
  });

  it('refuses a file that is not an event log, naming it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'perpsim-log-'));
    dirs.push(dir);
    const path = join(dir, 'junk.arrow');
    new EventLogFileWriter(path).close();
    await expect(openEventLog(path)).rejects.toThrow(EventLogError);
    await expect(openEventLog(join(dir, 'missing.arrow'))).rejects.toThrow(/missing\.arrow: cannot open/);
  });
});

describe('int64 cells without bigints', () => {
  it('splits sec × 1e9 + nanos exactly', () => {
    for (const [sec, nanos] of [[0, 0], [1, 999_999_999], [1_767_225_600, 123_456_789], [4_294_967_295, 1], [2 ** 36, 5]] as const) {
      const [hi, lo] = splitTimestamp(sec, nanos);
      expect((BigInt(hi) << 32n) + BigInt(lo)).toBe(BigInt(sec) * S + BigInt(nanos));
    }
  });

  it('stores negative and large safe integers exactly', () => {
    const column = new Int64Column(4);
    const values = [-1, -(2 ** 40) - 3, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER];
    values.forEach((v, i) => column.setNumber(i, v));
    const data = column.finish(4);
    expect([...(data.values as BigInt64Array)]).toEqual(values.map(BigInt));
  });
});
