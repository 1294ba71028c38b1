import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { streamL2Batches, type L2FileSpec } from '../../src/replay/l2/l2-sources.ts';
import { binanceRawSpan } from '../../src/replay/l2/l2-span-binance.ts';
import { addBatchToSpan, emptySpan, type RecordingSpan } from '../../src/replay/l2/l2-span.ts';
import { ReplayError } from '../../src/replay/replay-error.ts';
import { binance, BTC_FILE } from './l2-fixture.ts';
import { inShapes, msg, render, variants } from './binance-capture-gen.ts';
import { binanceRawSpanOracle } from './binance-raw-span-oracle.ts';

/** The span as the whole road gives it: every row decoded, synced, normalized, batched. */
async function roadSpan(path: string, market = 0): Promise<RecordingSpan> {
  const files: L2FileSpec[] = [{ path, market, tickSize: '0.1', lotSize: '0.001' }];
  const span = emptySpan();
  for await (const b of streamL2Batches(files)) addBatchToSpan(span, b);
  return span;
}

const dir = mkdtempSync(join(tmpdir(), 'perpsim-span-binance-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let fileNo = 0;
function capture(lines: string[]): string {
  const path = join(dir, `btcusdt_${fileNo++}.txt`);
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

/** Lines the run refuses for a header (receipt time, JSON, stream, times, ids, shape): the span pass refuses them too. */
const headerBads = [
  '123 {"stream":"btcusdt@markPrice","data":{"E":1,"T":1}}',
  '1723161255000000000 {"stream":"btcusdt@trade","data":{"E":1,',
  'not a line',
  '1723161255000000000 {"stream":"btcusdt@bookTicker","data":{"e":"bookTicker","u":"x","s":"BTCUSDT","b":"1.0","B":"1.000","a":"1.1","A":"1.000","T":1,"E":1}}',
  '1723161255000000000 {"stream":"btcusdt@depth@0ms","data":{"e":"depthUpdate","E":"1","T":1,"s":"BTCUSDT","U":1,"u":2,"pu":0,"b":[],"a":[]}}',
  '1723161255000000000 {"stream":"btcusdt@depth@0ms","data":{"e":"depthUpdate","E":1,"T":1,"s":"BTCUSDT","U":1,"u":2,"b":[],"a":[]}}',
  '1723161255000000000 {"stream":"btcusdt@depth@0ms","data":{"e":"depthUpdate","E":1,"T":1,"s":"BTCUSDT","U":1,"u":2,"pu":0,"b":[["1.0"]],"a":[]}}',
  '1723161255000000000 {"stream":"btcusdt@trade","data":{"e":"trade","E":1,"T":1,"s":"BTCUSDT","t":1,"p":"60000.0","q":"0.002","X":"MARKET","m":"yes"}}',
];
/** Lines the run refuses for a price or quantity, each with the good line of the same shape: the run meets these when it reaches them. */
const valueBads: [bad: string, good: string][] = [
  ['6000x.0', '6000.0'],
  ['60000.05', '60000.0'],
  ['0.0025', '0.002'],
].map(([bad, good]) => {
  const line = (v: string) => (v.startsWith('6000') && v !== '60000.05' && v !== '60000.0'
    ? `1723161255000000000 {"stream":"btcusdt@depth@0ms","data":{"e":"depthUpdate","E":1723161255600,"T":1,"s":"BTCUSDT","U":1,"u":2,"pu":0,"b":[["${v}","1.000"]],"a":[]}}`
    : `1723161255000000000 {"stream":"btcusdt@trade","data":{"e":"trade","E":1723161255600,"T":1,"s":"BTCUSDT","t":1,"p":"${v.startsWith('0.') ? '60000.0' : v}","q":"${v.startsWith('0.') ? v : '0.002'}","X":"MARKET","m":true}}`);
  return [line(bad!), line(good!)];
});

describe('the span of a raw Binance capture from its lines\' headers', () => {
  it('equals the full-decode span pass (the oracle) and the whole road\'s span on generated captures (gaps, stale and buffered diffs, empty diffs, times stepping back, lines of other shapes)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(msg, { minLength: 1, maxLength: 60 }), fc.integer({ min: 0, max: 2 }), fc.array(fc.nat(variants.length - 1), { minLength: 1, maxLength: 60 }), async (msgs, market, shapes) => {
        const path = capture(inShapes(render(msgs), shapes));
        const oracle = await binanceRawSpanOracle(path, '0.1', '0.001', market);
        const light = await binanceRawSpan(path, '0.1', '0.001', market);
        expect(light).toEqual(oracle);
        expect(light).toEqual(await roadSpan(path, market));
      }),
      { numRuns: 300, seed: 1017 },
    );
  }, 60_000);

  it('fails, before the run, on a line the run refuses for its headers or shape, naming the same line and field', async () => {
    const good = render([{ kind: 'trade', dRecv: 1, dE: 1, price: 600_000, maker: false }, { kind: 'ticker', dRecv: 1, dE: 1 }]);
    for (const bad of headerBads) {
      for (const lines of [[good[0]!, bad, good[1]!], [...good, bad]]) {
        const path = capture(lines);
        const road = await roadSpan(path).catch((e: unknown) => e);
        const light = await binanceRawSpan(path, '0.1', '0.001', 0).catch((e: unknown) => e);
        expect(road).toBeInstanceOf(ReplayError);
        expect((light as ReplayError).message, bad).toBe((road as ReplayError).message);
      }
    }
  });

  it('leaves a bad price or quantity to the run, which fails on it with the error the span pass used to give, once the first price is known', async () => {
    const first = render([{ kind: 'trade', dRecv: 1, dE: 1, price: 600_000, maker: false }, { kind: 'ticker', dRecv: 1, dE: 1 }]);
    for (const [bad, good] of valueBads) {
      const path = capture([...first, bad]);
      const before = await binanceRawSpanOracle(path, '0.1', '0.001', 0).catch((e: unknown) => e);
      const road = await roadSpan(path).catch((e: unknown) => e);
      expect(road).toBeInstanceOf(ReplayError);
      expect((road as ReplayError).message).toBe((before as ReplayError).message);
      expect((road as ReplayError).message).toMatch(/:3 column data\.(b\[0\]\[0\]|p|q): /);
      // The span is what it is with the value right: only the value is unread.
      expect(await binanceRawSpan(path, '0.1', '0.001', 0)).toEqual(await binanceRawSpanOracle(capture([...first, good]), '0.1', '0.001', 0));
      // Before the first price is known, the price read for it is checked here.
      if (!bad.includes('"q":"0.0025"')) {
        const alone = capture([bad, ...first]);
        expect(((await binanceRawSpan(alone, '0.1', '0.001', 0).catch((e: unknown) => e)) as ReplayError).message).toBe(((await roadSpan(alone).catch((e: unknown) => e)) as ReplayError).message);
      }
    }
  });

  it.skipIf(binance.missing)('equals the full-decode span pass and the whole road\'s span on the real BTCUSDT capture', async () => {
    const road = await roadSpan(BTC_FILE);
    expect(road.events).toBeGreaterThan(20_000);
    expect(await binanceRawSpanOracle(BTC_FILE, '0.1', '0.001', 0)).toEqual(road);
    expect(await binanceRawSpan(BTC_FILE, '0.1', '0.001', 0)).toEqual(road);
  }, 60_000);
});
