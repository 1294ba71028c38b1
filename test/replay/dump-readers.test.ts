import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Decimal } from 'decimal.js';
import { afterAll, describe, expect, it } from 'vitest';
import { readBinanceBookTicker, readBinanceDepth } from '../../src/replay/binance-dump-csv.ts';
import { readBybitOrderbook } from '../../src/replay/bybit-orderbook.ts';
import { fileSource } from '../../src/replay/file-source.ts';
import { readFreqtrade } from '../../src/replay/freqtrade-json.ts';
import type { MarketRecord } from '../../src/replay/market-records.ts';
import { SHARED_DATA } from './shared-data.ts';

const tmp = mkdtempSync(join(tmpdir(), 'perpsim-dumps-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function all(stream: { chunks(): AsyncIterable<MarketRecord[]> }): Promise<MarketRecord[]> {
  const out: MarketRecord[] = [];
  for await (const c of stream.chunks()) out.push(...c);
  return out;
}

/** Decimal text as a whole number of `step`s, by decimal.js (the oracle: not the readers' parser). */
const steps = (text: string, step: string): number => new Decimal(text).div(step).toNumber();
const ms = (text: string | number): bigint => BigInt(text) * 1_000_000n;

describe('Binance bookTicker dump (../shared/data/binance-futures-bookticker)', () => {
  const file = join(SHARED_DATA, 'binance-futures-bookticker/BTCUSDT-bookTicker-2023-10-02-short.csv');

  it('gives one quote per row, every price and size exact, times in ns', async () => {
    const records = await all(readBinanceBookTicker(fileSource(file), 'BTCUSDT', { tickSize: '0.1', lotSize: '0.001' }));
    const rows = readFileSync(file, 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    expect(records).toHaveLength(9_999);
    expect(rows).toHaveLength(9_999);
    rows.forEach(([, bid, bidQty, ask, askQty, transaction, event], i) => {
      expect(records[i]).toEqual({
        kind: 'quote', symbol: 'BTCUSDT', exchNs: ms(transaction!), recvNs: ms(event!),
        bidTicks: steps(bid!, '0.1'), bidQtyLots: steps(bidQty!, '0.001'), askTicks: steps(ask!, '0.1'), askQtyLots: steps(askQty!, '0.001'),
      });
    });
    expect(records[0]).toMatchObject({ exchNs: 1_696_204_800_012_000_000n, bidTicks: 279_813, bidQtyLots: 12_911, askTicks: 279_814, askQtyLots: 7_258 });
    expect(records.at(-1)).toMatchObject({ exchNs: 1_696_204_827_849_000_000n, recvNs: 1_696_204_827_854_000_000n, bidTicks: 279_698, askQtyLots: 10_079 });
  });

  it('names file, line and column of a price off the tick', async () => {
    const bad = join(tmp, 'ticker.csv');
    writeFileSync(bad, 'update_id,best_bid_price,best_bid_qty,best_ask_price,best_ask_qty,transaction_time,event_time\n1,100.05,1,100.1,1,5,6\n');
    await expect(all(readBinanceBookTicker(fileSource(bad), 'BTCUSDT', { tickSize: '0.1', lotSize: '0.001' }))).rejects.toThrow(`${bad}:2 column 2 (best_bid_price): price 100.05 is not a whole number of 0.1`);
  });
});

describe('Binance depth dumps (../shared/data/binance-futures-depth-nautilus)', () => {
  const dir = join(SHARED_DATA, 'binance-futures-depth-nautilus');
  const units = { tickSize: '0.1', lotSize: '0.001' };

  it('reads the snapshot as a reset and its levels, exact; the update file, 10 minutes later and not chained to it, empties the book', async () => {
    const stream = readBinanceDepth([fileSource(join(dir, 'btcusdt-depth-snap.csv')), fileSource(join(dir, 'btcusdt-depth-update.csv'))], units);
    const records = await all(stream);
    const snap = readFileSync(join(dir, 'btcusdt-depth-snap.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    expect(records).toHaveLength(101);
    snap.forEach(([, ts, , , side, , price, qty], i) => {
      expect(records[i]).toEqual({ kind: 'book', symbol: 'BTCUSDT', recvNs: ms(ts!), exchNs: ms(ts!), reset: i === 0, side: side === 'b' ? 'B' : 'S', priceTicks: steps(price!, '0.1'), qtyLots: steps(qty!, '0.001') });
    });
    expect(records[0]).toMatchObject({ priceTicks: 203_770, qtyLots: 1_770 });
    // The first update's ids start after the snapshot's: the chain is broken, the book is emptied.
    expect(records[100]).toEqual({ kind: 'book', symbol: 'BTCUSDT', recvNs: ms(1_667_347_199_939), exchNs: ms(1_667_347_199_939), reset: true, side: undefined, priceTicks: 0, qtyLots: 0 });
    expect(stream.sync.stats).toMatchObject({ snapshots: 1, updates: 0, gaps: 1 });
  });

  it('applies updates that follow the snapshot (first covers it, then pu = previous u), drops stale ones, and empties the book on a break', async () => {
    const header = 'symbol,timestamp,first_update_id,last_update_id,side,update_type,price,qty,pu\n';
    const snap = join(tmp, 'snap.csv');
    const upd = join(tmp, 'upd.csv');
    writeFileSync(snap, header + 'BTCUSDT,1000,100,100,b,snap,10.0,1.000,-1\nBTCUSDT,1000,100,100,a,snap,10.1,2.000,-1\n');
    writeFileSync(upd, header + [
      'BTCUSDT,1000,90,95,b,set,9.9,1.000,89', // stale: ends before the snapshot's id
      'BTCUSDT,1001,98,103,b,set,10.0,0.500,95', // covers the snapshot's id 100
      'BTCUSDT,1001,98,103,a,set,10.2,1.000,95',
      'BTCUSDT,1002,104,110,b,set,10.0,0.000,103', // follows on
      'BTCUSDT,1003,115,120,a,set,10.1,0.000,112', // pu 112 ≠ 110: a break
      'BTCUSDT,1004,121,125,a,set,10.3,1.000,120', // dropped until a snapshot
    ].join('\n') + '\n');
    const stream = readBinanceDepth([fileSource(upd), fileSource(snap)], units);
    const rows = (await all(stream)).map((r) => (r.kind === 'book' ? [Number(r.exchNs / 1_000_000n), r.reset, r.side, r.priceTicks, r.qtyLots] : r.kind));
    expect(rows).toEqual([
      [1000, true, 'B', 100, 1000], [1000, false, 'S', 101, 2000],
      [1001, false, 'B', 100, 500], [1001, false, 'S', 102, 1000],
      [1002, false, 'B', 100, 0],
      [1003, true, undefined, 0, 0],
    ]);
    expect(stream.sync.stats).toEqual({ snapshots: 1, updates: 2, staleUpdates: 1, unsyncedUpdates: 1, gaps: 1 });
  });
});

describe('Bybit ob500 dump (../shared/data/bybit-orderbook-nautilus)', () => {
  const file = join(SHARED_DATA, 'bybit-orderbook-nautilus/xrpusdt-ob500.data.zip');

  it('reads the snapshot and 49 deltas of the zip as book rows, every level exact (checked against JSON.parse of each line)', async () => {
    const records = await all(readBybitOrderbook(fileSource(file), { tickSize: '0.0001', lotSize: '1' }));
    const text: string[] = [];
    for await (const chunk of fileSource(file).open()) text.push(chunk.toString('utf8'));
    const messages = text.join('').trim().split('\n').map((l) => JSON.parse(l) as { type: string; ts: number; cts: number; data: { s: string; b: string[][]; a: string[][] } });
    expect(messages).toHaveLength(50);
    const expected = messages.flatMap((m) =>
      [...m.data.b.map((l) => ['B', l] as const), ...m.data.a.map((l) => ['S', l] as const)].map(([side, [price, size]], i) => ({
        kind: 'book', symbol: 'XRPUSDT', recvNs: ms(m.ts), exchNs: ms(m.cts), reset: m.type === 'snapshot' && i === 0, side, priceTicks: steps(price!, '0.0001'), qtyLots: steps(size!, '1'),
      })),
    );
    expect(records).toEqual(expected);
    expect(records).toHaveLength(3_966);
    expect(records[0]).toMatchObject({ reset: true, side: 'B', priceTicks: 19_531, qtyLots: 6_203, recvNs: 1_733_011_200_691_000_000n, exchNs: 1_733_011_200_589_000_000n });
    expect(records.at(-1)).toMatchObject({ side: 'S', priceTicks: 20_038, qtyLots: 0, recvNs: 1_733_011_205_490_000_000n });
  });

  it('empties the book when a delta does not follow on (u + 1), and waits for the next snapshot', async () => {
    const line = (type: string, u: number, b: string[][]) => JSON.stringify({ topic: 'orderbook.500.XRPUSDT', type, ts: u, cts: u, data: { s: 'XRPUSDT', b, a: [], u, seq: u } });
    const f = join(tmp, 'gap.data');
    writeFileSync(f, [line('snapshot', 10, [['1.0000', '5']]), line('delta', 11, [['1.0000', '4']]), line('delta', 13, [['1.0000', '3']]), line('delta', 14, [['1.0000', '2']]), line('snapshot', 20, [['1.0001', '1']])].join('\n'));
    const stream = readBybitOrderbook(fileSource(f), { tickSize: '0.0001', lotSize: '1' });
    const rows = (await all(stream)).map((r) => (r.kind === 'book' ? [Number(r.recvNs / 1_000_000n), r.reset, r.priceTicks, r.qtyLots] : r.kind));
    expect(rows).toEqual([[10, true, 10_000, 5], [11, false, 10_000, 4], [13, true, 0, 0], [20, true, 10_001, 1]]);
    expect(stream.gaps()).toBe(1);
  });
});

describe('freqtrade mark and funding JSON (../shared/data/freqtrade-binance-futures-funding)', () => {
  const dir = join(SHARED_DATA, 'freqtrade-binance-futures-funding');
  const rowsOf = (name: string) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as number[][];
  /** A JSON number's text as written in the file (JSON.parse keeps the shortest round-trip text). */
  const text = (x: number) => new Decimal(x).toFixed();

  it('gives each 1 h mark candle as the recorded mark at its open time, the text of the file exactly', async () => {
    const records = await all(readFreqtrade(fileSource(join(dir, 'XRP_USDT_USDT-1h-mark.json')), 'mark', 'XRPUSDT'));
    const rows = rowsOf('XRP_USDT_USDT-1h-mark.json');
    expect(records).toHaveLength(100);
    expect(records).toEqual(rows.map(([t, open]) => ({ kind: 'stats', symbol: 'XRPUSDT', recvNs: ms(t!), exchNs: ms(t!), markPrice: text(open!) })));
    expect(records[0]).toMatchObject({ recvNs: ms(1_636_956_000_000), markPrice: '1.20932' });
    expect(records.at(-1)).toMatchObject({ markPrice: '1.05721' });
  });

  it('gives each realised funding rate for its settlement, known from the previous settlement on', async () => {
    const records = await all(readFreqtrade(fileSource(join(dir, 'XRP_USDT_USDT-8h-funding_rate.json')), 'funding', 'XRPUSDT'));
    const rows = rowsOf('XRP_USDT_USDT-8h-funding_rate.json');
    expect(records).toHaveLength(91);
    const firstAt = 2n * ms(rows[0]![0]!) - ms(rows[1]![0]!);
    expect(records).toEqual(rows.map(([t, rate], i) => {
      const at = i === 0 ? firstAt : ms(rows[i - 1]![0]!);
      return { kind: 'stats', symbol: 'XRPUSDT', recvNs: at, exchNs: at, fundingRate: text(rate!), fundingTsNs: ms(t!) };
    }));
    expect(records.find((r) => r.kind === 'stats' && r.fundingRate === '0.00013046')).toMatchObject({ fundingTsNs: ms(1_637_366_400_012) });
  });
});
