import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { ReplayError } from '../../src/replay/replay-error.ts';
import {
  readTardisBookSnapshots,
  readTardisBookUpdates,
  readTardisCsv,
  readTardisDerivativeTickers,
  readTardisQuotes,
  readTardisTrades,
} from '../../src/replay/tardis-csv.ts';
import { sharedFolder } from './shared-data.ts';

const tmp = mkdtempSync(join(tmpdir(), 'perpsim-tardis-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function collect<B>(stream: AsyncIterable<B>): Promise<B[]> {
  const out: B[] = [];
  for await (const b of stream) out.push(b);
  return out;
}

function write(name: string, text: string): string {
  const path = join(tmp, name);
  writeFileSync(path, text);
  return path;
}

const QUOTES_HEADER = 'exchange,symbol,timestamp,local_timestamp,ask_amount,ask_price,bid_price,bid_amount\n';
const L2_HEADER = 'exchange,symbol,timestamp,local_timestamp,is_snapshot,side,price,amount\n';

describe('tardis CSV reader (hand-made rows)', () => {
  it('groups rows by local timestamp and starts a new batch with reset at every snapshot start', async () => {
    const path = write(
      'l2.csv',
      L2_HEADER +
        'x,S,1,10,true,bid,100.5,3\n' +
        'x,S,1,10,true,ask,101,2\n' +
        'x,S,2,20,false,bid,100.5,0\n' +
        'x,S,3,20,false,ask,101.5,7\n' +
        'x,S,4,20,true,bid,99,1\n' + // a refresh snapshot in the same receipt as two updates
        'x,S,4,30,true,ask,102,1\n' +
        'x,S,5,30,false,ask,102,0\n',
    );
    const batches = await collect(readTardisBookUpdates(path, { tickSize: '0.5', lotSize: '1' }));
    expect(batches.map((b) => [b.localTsNs, b.reset, b.rows.length, b.line])).toEqual([
      [10_000n, true, 2, 2],
      [20_000n, false, 2, 4],
      [20_000n, true, 1, 6],
      [30_000n, false, 2, 7],
    ]);
    expect(batches[0]!.rows[0]).toEqual({ exchangeTsNs: 1000n, isSnapshot: true, side: 'B', priceTicks: 201, qtyLots: 3 });
    expect(batches[1]!.rows[0]).toEqual({ exchangeTsNs: 2000n, isSnapshot: false, side: 'B', priceTicks: 201, qtyLots: 0 });
  });

  it('names the file, line and column of a bad value', async () => {
    const path = write('bad.csv', QUOTES_HEADER + 'x,S,1,10,1,100.01,99,1\nx,S,2,11,1,100.015,99,1\n');
    const read = collect(readTardisQuotes(path, { tickSize: '0.01', lotSize: '1' }));
    await expect(read).rejects.toThrowError(ReplayError);
    await expect(read).rejects.toThrowError(`${path}:3 column 6 (ask_price): price 100.015 is not a whole number of 0.01`);
  });

  it('counts bad rows instead of throwing with skipBadRows, and keeps the good ones', async () => {
    const path = write('skip.csv', QUOTES_HEADER + 'x,S,1,10,1,100,99,1\nx,S,2,11,1,abc,99,1\nx,S,3,12,1,100\nx,S,4,13,2,100,99,1\n');
    const stream = readTardisQuotes(path, { tickSize: '0.01', lotSize: '1', skipBadRows: true });
    const batches = await collect(stream);
    expect(batches.map((b) => b.localTsNs)).toEqual([10_000n, 13_000n]);
    expect(stream.errors.skippedRows).toBe(2);
    expect(stream.errors.firstSkipped?.message).toBe(`${path}:3 column 6 (ask_price): "abc" is not a non-negative decimal price`);
  });

  it('refuses a local timestamp that goes back, a file of another kind, and an empty file', async () => {
    const back = write('back.csv', QUOTES_HEADER + 'x,S,1,10,1,100,99,1\nx,S,2,9,1,100,99,1\n');
    await expect(collect(readTardisQuotes(back, { tickSize: '1', lotSize: '1' }))).rejects.toThrowError(/:3 column 4 \(local_timestamp\): local_timestamp 9 is before/);
    await expect(collect(readTardisTrades(back, { tickSize: '1', lotSize: '1' }))).rejects.toThrowError(/:1: expected a tardis trades file, the header is quotes/);
    await expect(collect(readTardisQuotes(write('empty.csv', ''), { tickSize: '1', lotSize: '1' }))).rejects.toThrowError(/empty file/);
  });

  it('reads quotes with an empty side as no quote, and exponent-form amounts exactly', async () => {
    const path = write('q.csv', QUOTES_HEADER + 'x,S,1,10,,,99.5,1e-3\n');
    const [batch] = await collect(readTardisQuotes(path, { tickSize: '0.5', lotSize: '0.001' }));
    expect(batch!.rows[0]).toEqual({ exchangeTsNs: 1000n, bidPriceTicks: 199, bidQtyLots: 1, askPriceTicks: undefined, askQtyLots: undefined });
  });

  it('reads derivative_ticker rates and reference prices as exact decimal text', async () => {
    const header = 'exchange,symbol,timestamp,local_timestamp,funding_timestamp,funding_rate,predicted_funding_rate,open_interest,last_price,index_price,mark_price\n';
    const path = write('dt.csv', header + 'x,S,1,10,1600000000000000,-0.00012,1e-7,12345.5,9700.5,9701.2345,9702.98765432\nx,S,2,11,,,,,,,\n');
    const batches = await collect(readTardisDerivativeTickers(path, { tickSize: '0.5', lotSize: '1' }));
    expect(batches[0]!.rows[0]).toEqual({
      exchangeTsNs: 1000n,
      fundingTsNs: 1_600_000_000_000_000_000n,
      fundingRate: '-0.00012',
      predictedFundingRate: '0.0000001',
      openInterest: '12345.5',
      lastPrice: '9700.5',
      indexPrice: '9701.2345',
      markPrice: '9702.98765432',
    });
    expect(batches[1]!.rows[0]!.fundingRate).toBeUndefined();
  });
});

const tardis = sharedFolder('tardis-nautilus-samples', 'tardis CSV reader on the real samples');

describe.skipIf(tardis.missing)(tardis.title, () => {
  const file = (name: string): string => join(tardis.dir, name);

  it('reads the Deribit incremental_book_L2 start as one reset batch of 15 snapshot rows', async () => {
    const batches = await collect(readTardisBookUpdates(file('deribit_incremental_book_L2_BTC-PERPETUAL.csv'), { tickSize: '0.5', lotSize: '1' }));
    expect(batches).toHaveLength(1);
    const b = batches[0]!;
    expect([b.reset, b.rows.length, b.localTsNs]).toEqual([true, 15, 1_585_699_200_355_684_000n]);
    expect(b.rows[0]).toMatchObject({ side: 'S', priceTicks: 12_843, qtyLots: 18_640 }); // 6421.5 / 0.5
  });

  it('groups the BitMEX trades that share a receipt time and keeps their order', async () => {
    const batches = await collect(readTardisTrades(file('bitmex_trades_XBTUSD.csv'), { tickSize: '0.5', lotSize: '1' }));
    expect(batches.map((b) => b.rows.length)).toEqual([1, 9]);
    expect(batches[0]!.rows[0]).toEqual({
      exchangeTsNs: 1_583_020_803_145_000_000n,
      tradeId: 'ccc3c1fa-212c-e8b0-1706-9b9c4f3d5ecf',
      takerSide: 'S',
      priceTicks: 17_063,
      qtyLots: 2152,
    });
  });

  it('agrees between book_snapshot_25 and book_snapshot_5 on the top 5 levels at the same receipt times', async () => {
    const units = { tickSize: '0.01', lotSize: '0.001' };
    const deep = await collect(readTardisBookSnapshots(file('binance-futures_book_snapshot_25_BTCUSDT.csv'), units));
    const top = await collect(readTardisBookSnapshots(file('binance-futures_book_snapshot_5_BTCUSDT.csv'), units));
    const byTime = new Map(deep.map((b) => [b.localTsNs, b.rows[0]!]));
    let compared = 0;
    for (const b of top) {
      const d = byTime.get(b.localTsNs);
      if (d === undefined) continue;
      compared++;
      expect(b.rows[0]!.bids).toEqual(d.bids.slice(0, 5));
      expect(b.rows[0]!.asks).toEqual(d.asks.slice(0, 5));
    }
    expect(compared).toBeGreaterThanOrEqual(3);
    expect(deep[0]!.rows[0]!.bids).toHaveLength(25);
    expect(deep[0]!.rows[0]!.asks[0]).toEqual({ priceTicks: 1_165_708, qtyLots: 1714 });
  });

  it('reads a gzipped copy exactly like the plain file', async () => {
    const plain = file('2020-02-22_binance-futures_BTCUSDT/quotes.csv');
    const gz = join(tmp, 'quotes.csv.gz');
    writeFileSync(gz, gzipSync(readFileSync(plain)));
    const units = { tickSize: '0.01', lotSize: '0.001' };
    const a = await collect(readTardisQuotes(plain, units));
    const b = await collect(readTardisQuotes(gz, units));
    expect(b).toEqual(a);
    expect(a.reduce((n, x) => n + x.rows.length, 0)).toBe(9999);
    expect(a[0]!.rows[0]).toEqual({ exchangeTsNs: 1_582_329_601_096_000_000n, askQtyLots: 840, askPriceTicks: 968_200, bidPriceTicks: 968_192, bidQtyLots: 670 });
  });

  it('tells the kind from the header when reading any tardis file', async () => {
    const units = { tickSize: '0.01', lotSize: '0.001' };
    const [first] = await collect(readTardisCsv(file('2020-02-22_binance-futures_BTCUSDT/trades.csv'), units));
    expect(first!.kind).toBe('trades');
    if (first!.kind === 'trades') expect(first!.rows[0]).toMatchObject({ tradeId: '42377944', takerSide: 'B', priceTicks: 968_200, qtyLots: 132 });
  });
});
