import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { BinanceDepthSync, syncBinanceDepth, type BinanceSyncedEvent } from '../../src/replay/binance-depth-sync.ts';
import { readBinanceRaw, type BinanceDepthDiff, type BinanceRawEvent } from '../../src/replay/binance-raw.ts';
import { sharedFolder } from './shared-data.ts';

const tmp = mkdtempSync(join(tmpdir(), 'perpsim-binance-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const diffLine = (ns: number, U: number, u: number, pu: number, bid = '["100.10","1.500"]'): string =>
  `${ns} {"stream":"btcusdt@depth@0ms","data":{"e":"depthUpdate","E":1000,"T":999,"s":"BTCUSDT","U":${U},"u":${u},"pu":${pu},"b":[${bid}],"a":[]}}`;

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of items) out.push(x);
  return out;
}

describe('Binance raw capture reader', () => {
  const lines = [
    diffLine(10, 1, 5, 0),
    `11 {"stream":"btcusdt@trade","data":{"e":"trade","E":1001,"T":1000,"s":"BTCUSDT","t":42,"p":"100.20","q":"0.003","X":"MARKET","m":true}}`,
    `12 {"stream":"btcusdt@bookTicker","data":{"e":"bookTicker","u":6,"s":"BTCUSDT","b":"100.10","B":"1.500","a":"100.20","A":"0.250","T":1002,"E":1003}}`,
    `13 {"lastUpdateId":4,"E":1004,"T":1003,"bids":[["100.00","2.000"]],"asks":[["100.20","1.000"]]}`,
  ];

  it('decodes diffs, trades, book tickers and the REST snapshot with exact ticks, lots and ns', async () => {
    const path = join(tmp, 'capture.gz');
    writeFileSync(path, gzipSync(lines.join('\n') + '\n'));
    const events = await collect(readBinanceRaw(path, { tickSize: '0.1', lotSize: '0.001' }));
    expect(events.map((e) => e.kind)).toEqual(['depth', 'trade', 'bookTicker', 'depthSnapshot']);
    expect(events[0]).toEqual({
      kind: 'depth', localTsNs: 10n, eventTsNs: 1_000_000_000n, transactTsNs: 999_000_000n, line: 1,
      firstUpdateId: 1, finalUpdateId: 5, prevFinalUpdateId: 0, bids: [{ priceTicks: 1001, qtyLots: 1500 }], asks: [],
    });
    expect(events[1]).toMatchObject({ tradeId: 42, priceTicks: 1002, qtyLots: 3, takerSide: 'S' });
    expect(events[2]).toMatchObject({ updateId: 6, bidPriceTicks: 1001, bidQtyLots: 1500, askPriceTicks: 1002, askQtyLots: 250 });
    expect(events[3]).toMatchObject({ kind: 'depthSnapshot', lastUpdateId: 4, line: 4, bids: [{ priceTicks: 1000, qtyLots: 2000 }] });
  });

  it('names the line and JSON field of a bad value, or counts it with skipBadRows', async () => {
    const path = join(tmp, 'bad.txt');
    writeFileSync(path, [lines[0], diffLine(14, 6, 7, 5, '["100.15","1"]'), 'not a line'].join('\n'));
    await expect(collect(readBinanceRaw(path, { tickSize: '0.1', lotSize: '0.001' }))).rejects.toThrowError(
      `${path}:2 column data.b[0][0]: "100.15" is not a decimal string on the step 0.1`,
    );
    const stream = readBinanceRaw(path, { tickSize: '0.1', lotSize: '0.001', skipBadRows: true });
    expect((await collect(stream)).length).toBe(1);
    expect(stream.errors.skippedRows).toBe(2);
  });

  it('refuses a negative trade or update id with its line and field (ids count up from 0)', async () => {
    const trade = join(tmp, 'negative-trade.txt');
    writeFileSync(trade, [lines[0], lines[1]!.replace('"t":42', '"t":-42')].join('\n'));
    await expect(collect(readBinanceRaw(trade, { tickSize: '0.1', lotSize: '0.001' }))).rejects.toThrowError(`${trade}:2 column t: -42 is not a non-negative integer id`);
    const diff = join(tmp, 'negative-pu.txt');
    writeFileSync(diff, [lines[0], diffLine(14, 6, 7, -1)].join('\n'));
    await expect(collect(readBinanceRaw(diff, { tickSize: '0.1', lotSize: '0.001' }))).rejects.toThrowError(`${diff}:2 column pu: -1 is not a non-negative integer id`);
  });
});

/** A diff event for the sync state machine. */
function diff(U: number, u: number, pu: number, localTsNs = 0n): BinanceDepthDiff {
  return { kind: 'depth', localTsNs, eventTsNs: 0n, transactTsNs: 0n, line: 0, firstUpdateId: U, finalUpdateId: u, prevFinalUpdateId: pu, bids: [], asks: [] };
}
const snapshot = (lastUpdateId: number, localTsNs = 0n): BinanceRawEvent => ({
  kind: 'depthSnapshot', localTsNs, eventTsNs: 0n, transactTsNs: 0n, line: 0, lastUpdateId, bids: [], asks: [],
});
const summary = (out: BinanceSyncedEvent[]): string[] =>
  out.map((e) => (e.kind === 'book' ? `${e.reset ? 'reset' : 'book'}:${e.finalUpdateId}@${e.localTsNs}` : e.kind === 'gap' ? `gap:${e.expected}/${e.got}` : e.kind));

describe('Binance depth sync rule', () => {
  it('buffers diffs until the snapshot, drops those it covers, then chains on pu', () => {
    const sync = new BinanceDepthSync();
    const out: BinanceSyncedEvent[] = [];
    for (const d of [diff(1, 5, 0, 1n), diff(6, 9, 5, 2n), diff(10, 12, 9, 3n)]) sync.push(d, out);
    expect(out).toEqual([]);
    expect(sync.buffered).toBe(3);
    sync.push(snapshot(8, 4n), out); // covers update 8: the first diff is dropped, 6..9 applies first
    sync.push(diff(13, 15, 12, 5n), out);
    expect(summary(out)).toEqual(['reset:8@4', 'book:9@4', 'book:12@4', 'book:15@5']);
    expect(sync.stats.staleDiffs).toBe(1);
  });

  it('reports a gap when pu breaks the chain, and resyncs on the next snapshot', () => {
    const sync = new BinanceDepthSync();
    const out: BinanceSyncedEvent[] = [];
    sync.push(snapshot(10), out);
    sync.push(diff(9, 11, 8), out);
    sync.push(diff(12, 14, 13), out); // pu 13, but the book is at 11
    sync.push(diff(15, 16, 14), out); // buffered: out of sync
    sync.push(snapshot(15), out);
    expect(summary(out)).toEqual(['reset:10@0', 'book:11@0', 'gap:11/13', 'reset:15@0', 'book:16@0']);
    expect(sync.stats).toMatchObject({ gaps: 1, staleDiffs: 1 });
  });

  it('reports a gap when the first diff after a snapshot starts past it, and ignores an older snapshot', () => {
    const sync = new BinanceDepthSync();
    const out: BinanceSyncedEvent[] = [];
    sync.push(snapshot(10), out);
    sync.push(diff(12, 14, 11), out);
    expect(summary(out)).toEqual(['reset:10@0', 'gap:10/12']);
    out.length = 0;
    sync.push(snapshot(13), out);
    sync.push(snapshot(12), out);
    expect(summary(out)).toEqual(['reset:13@0', 'book:14@0']);
    expect(sync.stats.staleSnapshots).toBe(1);
  });
});

const raw = sharedFolder('hftbacktest-binance-futures-raw', 'Binance raw captures (hftbacktest)');

describe.skipIf(raw.missing)(raw.title, () => {
  const captures: [string, string, string, Record<string, number>, number][] = [
    // file, tick, lot, counts from SOURCE.md, snapshot line
    ['usdm/btcusdt_20240808.gz', '0.1', '0.001', { depth: 6551, trade: 21313, bookTicker: 66089, depthSnapshot: 1 }, 55],
    ['cm/btcusd_perp_20240808.gz', '0.1', '1', { depth: 26847, trade: 2286, bookTicker: 19136, depthSnapshot: 1 }, 37],
  ];
  for (const [file, tickSize, lotSize, counts, snapshotLine] of captures) {
    it(`syncs ${file} without a gap, and its top of book equals every bookTicker with the same update id`, async () => {
      const counted: Record<string, number> = {};
      let seenSnapshotLine = 0;
      const events = readBinanceRaw(join(raw.dir, file), { tickSize, lotSize });
      const counting = (async function* () {
        for await (const e of events) {
          counted[e.kind] = (counted[e.kind] ?? 0) + 1;
          if (e.kind === 'depthSnapshot') seenSnapshotLine = e.line;
          yield e;
        }
      })();
      const sync = new BinanceDepthSync();
      const book = new TopOfBook();
      const tops = new Map<number, string>();
      const tickers: [number, string][] = [];
      let lastTsNs = 0n;
      for await (const e of syncBinanceDepth(counting, sync)) {
        if (e.localTsNs < lastTsNs) throw new Error(`time goes back at line ${e.line}`);
        lastTsNs = e.localTsNs;
        if (e.kind === 'book') tops.set(e.finalUpdateId, book.apply(e.reset, e.bids, e.asks));
        else if (e.kind === 'bookTicker') tickers.push([e.updateId, `${e.bidPriceTicks}x${e.bidQtyLots} ${e.askPriceTicks}x${e.askQtyLots}`]);
        else if (e.kind === 'gap') throw new Error(`gap at line ${e.line}`);
      }
      expect(counted).toEqual(counts);
      expect(seenSnapshotLine).toBe(snapshotLine);
      expect(sync.stats.gaps).toBe(0);
      const compared = tickers.filter(([u]) => tops.has(u));
      expect(compared.length).toBeGreaterThan(500);
      expect(compared.filter(([u, top]) => tops.get(u) !== top)).toEqual([]);
    }, 30_000);
  }
});

/** Level maps with the best price kept incrementally (a test-side L2 book). */
class TopOfBook {
  private readonly bids = new Map<number, number>();
  private readonly asks = new Map<number, number>();
  private bestBid = -Infinity;
  private bestAsk = Infinity;

  apply(reset: boolean, bids: { priceTicks: number; qtyLots: number }[], asks: { priceTicks: number; qtyLots: number }[]): string {
    if (reset) {
      this.bids.clear();
      this.asks.clear();
    }
    for (const l of bids) l.qtyLots === 0 ? this.bids.delete(l.priceTicks) : this.bids.set(l.priceTicks, l.qtyLots);
    for (const l of asks) l.qtyLots === 0 ? this.asks.delete(l.priceTicks) : this.asks.set(l.priceTicks, l.qtyLots);
    if (reset || !this.bids.has(this.bestBid)) this.bestBid = Math.max(...this.bids.keys());
    else for (const l of bids) if (l.qtyLots > 0 && l.priceTicks > this.bestBid) this.bestBid = l.priceTicks;
    if (reset || !this.asks.has(this.bestAsk)) this.bestAsk = Math.min(...this.asks.keys());
    else for (const l of asks) if (l.qtyLots > 0 && l.priceTicks < this.bestAsk) this.bestAsk = l.priceTicks;
    return `${this.bestBid}x${this.bids.get(this.bestBid)} ${this.bestAsk}x${this.asks.get(this.bestAsk)}`;
  }
}
