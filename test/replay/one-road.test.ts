import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import marketMaker, { paramsSchema } from '../../examples/market-maker.ts';
import { runBacktest } from '../../src/backtest/runner.ts';
import { convertCommand } from '../../src/cli/convert-command.ts';
import { replayScenario } from '../../src/replay/l2/replay-scenario.ts';
import { ChunkedStream } from '../../src/replay/chunked-stream.ts';
import type { MarketRecord } from '../../src/replay/market-records.ts';
import { mergeSources, openMarketRecords } from '../../src/replay/market-stream.ts';
import type { RecordSource } from '../../src/replay/open-records.ts';
import { SHARED_DATA } from './shared-data.ts';

const tmp = mkdtempSync(join(tmpdir(), 'perpsim-road-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const trade = (symbol: string, exchNs: bigint, qtyLots: number): MarketRecord => ({ kind: 'trade', recvNs: exchNs, exchNs, symbol, side: 'B', priceTicks: 1, qtyLots, tradeId: undefined });

/** An in-memory source: `records` handed out in chunks of the given sizes. */
function memorySource(records: MarketRecord[], chunkSizes: number[], priority: number): RecordSource {
  return {
    name: 'memory', paths: [], format: 'market-records', instruments: {}, errors: undefined, priority, quotes: 'book',
    records: new ChunkedStream(async function* () {
      let at = 0;
      for (let k = 0; at < records.length; k++) {
        const n = chunkSizes[k % chunkSizes.length]!;
        yield records.slice(at, at + n);
        at += n;
      }
    }),
  };
}

describe('one time-ordered record stream from many sources', () => {
  it('merges by (time held level per source, priority, source order, file order), whatever the chunking', async () => {
    const stream = fc.record({
      times: fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 30 }),
      priority: fc.integer({ min: 0, max: 2 }),
      chunks: fc.array(fc.integer({ min: 0, max: 7 }), { minLength: 1, maxLength: 4 }).map((c) => (c.every((n) => n === 0) ? [...c, 1] : c)),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(stream, { minLength: 1, maxLength: 5 }), fc.integer({ min: 1, max: 9 }), async (streams, batchSize) => {
        // Times as given (they may step back); the qty carries (stream, index) to check the order.
        const sources = streams.map((s, k) => memorySource(s.times.map((t, i) => trade(`S${k}`, BigInt(t), i)), s.chunks, s.priority));
        const got: [number, number, bigint][] = [];
        for await (const b of mergeSources(sources, 'exchange', batchSize)) {
          expect(b.records.length).toBeLessThanOrEqual(batchSize);
          b.records.forEach((r, i) => got.push([b.source[i]!, r.kind === 'trade' ? r.qtyLots : -1, b.timeNs[i]!]));
        }
        // The oracle: each source's times held level, then a stable sort by (time, priority, source).
        const expected = streams.flatMap((s, k) => {
          let floor = -1;
          return s.times.map((t, i) => ((floor = Math.max(floor, t)), { k, i, t: floor, p: s.priority }));
        });
        expected.sort((a, b) => a.t - b.t || a.p - b.p || a.k - b.k || a.i - b.i);
        expect(got).toEqual(expected.map((e) => [e.k, e.i, BigInt(e.t)]));
      }),
      { numRuns: 150, seed: 10 },
    );
  });

  it('opens files of six formats at once and hands out every record of each, in time order, the same on every pass', async () => {
    const D = SHARED_DATA;
    const paths = [
      join(D, 'freqtrade-binance-futures-funding/XRP_USDT_USDT-8h-funding_rate.json'),
      join(D, 'bybit-orderbook-nautilus/xrpusdt-ob500.data.zip'),
      join(D, 'binance-futures-bookticker/BTCUSDT-bookTicker-2023-10-02-short.csv'),
      join(D, 'binance-futures-depth-nautilus/btcusdt-depth-snap.csv'),
      join(D, 'lobster-sample/LOBSTER_SampleFile_AMZN_2012-06-21_1.zip'),
      join(D, 'tardis-nautilus-samples/bitmex_trades_XBTUSD.csv'),
    ];
    const units: Record<string, { tickSize: string; lotSize: string }> = { XRPUSDT: { tickSize: '0.0001', lotSize: '0.1' }, BTCUSDT: { tickSize: '0.1', lotSize: '0.001' }, XBTUSD: { tickSize: '0.5', lotSize: '1' } };
    const road = await openMarketRecords(paths, { unitsOf: (s) => units[s] });
    expect(road.sources.map((s) => s.format)).toEqual(['freqtrade-funding', 'bybit-orderbook', 'binance-bookticker', 'binance-depth', 'lobster', 'tardis']);
    const pass = async () => {
      const out: string[] = [];
      let last = -1n;
      const perSource = road.sources.map(() => 0);
      for await (const b of road.batches()) {
        b.records.forEach((r, i) => {
          expect(b.timeNs[i]! >= last).toBe(true);
          last = b.timeNs[i]!;
          perSource[b.source[i]!]!++;
          out.push(`${b.source[i]} ${r.kind} ${r.exchNs}`);
        });
      }
      return { out, perSource };
    };
    const first = await pass();
    const counts = [];
    for (const s of road.sources) {
      let n = 0;
      for await (const c of s.records.chunks()) n += c.length;
      counts.push(n);
    }
    expect(first.perSource).toEqual(counts);
    expect(counts.slice(0, 4)).toEqual([91, 3_966, 9_999, 100]);
    expect((await pass()).out).toEqual(first.out);
    expect(road.instruments).toMatchObject({ AMZN: { tickSize: '0.0001', lotSize: '1' }, ...units });
  }, 60_000);
});

describe('convert → replay gives the original replay', () => {
  it('replays the Arrow conversion of (2 minutes of) the BTCUSDT capture into the same events, fills and state as the capture itself (market maker, 30 s), and its CSV conversion into the same events', async () => {
    // The capture's first 30,000 lines (its first ~2 minutes: snapshot, diffs, trades), to keep the test short.
    const full = gunzipSync(readFileSync(join(SHARED_DATA, 'hftbacktest-binance-futures-raw/usdm/btcusdt_20240808.gz'))).toString('latin1');
    const raw = join(tmp, 'capture', 'btcusdt_20240808.gz');
    mkdirSync(join(tmp, 'capture'));
    writeFileSync(raw, gzipSync(full.split('\n').slice(0, 30_000).join('\n') + '\n'));
    // Named like the capture, so the replay's scenario is named alike too (the state hash covers it).
    const arrow = join(tmp, 'btcusdt_20240808.arrow');
    const write = process.stdout.write;
    process.stdout.write = () => true;
    try {
      expect(await convertCommand({ inputs: [raw], to: 'arrow', out: arrow, tickSize: '0.1', lotSize: '0.001', skipBadRows: false })).toBe(0);
    } finally {
      process.stdout.write = write;
    }
    const csv = join(tmp, 'btcusdt_20240808.csv');
    process.stdout.write = () => true;
    try {
      expect(await convertCommand({ inputs: [raw], to: 'csv', out: csv, tickSize: '0.1', lotSize: '0.001', skipBadRows: false })).toBe(0);
    } finally {
      process.stdout.write = write;
    }
    const original = await replayScenario({ files: [raw] }, undefined, { load: true });
    const converted = await replayScenario({ files: [arrow] }, undefined, { load: true });
    // The CSV conversion (decimal text, units from the known BTCUSDT ones) reads back to the same events.
    expect((await replayScenario({ files: [csv] }, undefined, { load: true })).events).toEqual(original.events);
    const withoutPaths = (r: typeof original) => ({ ...r.scenario, market: { replay: { ...r.scenario.market!.replay, files: [] } } });
    expect(withoutPaths(converted)).toEqual(withoutPaths(original));
    expect(converted.events).toEqual(original.events);
    const run = (r: typeof original) =>
      runBacktest(marketMaker(paramsSchema.parse({ symbol: 'BTCUSDT-PERP', halfSpreadTicks: 10, sizeLots: 5 })), { scenario: r.scenario, replayEvents: r.events, durationNs: 30_000_000_000n });
    const [a, b] = [await run(original), await run(converted)];
    expect(a.fills.length).toBeGreaterThan(0);
    expect(b.fills).toEqual(a.fills);
    expect(b.stateHash).toBe(a.stateHash);
  }, 120_000);
});
