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
import { msg, render } from './binance-capture-gen.ts';

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

describe('the span of a raw Binance capture from its decoded lines alone', () => {
  it('equals the whole road\'s span on generated captures (gaps, stale and buffered diffs, empty diffs, times stepping back)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(msg, { minLength: 1, maxLength: 60 }), fc.integer({ min: 0, max: 2 }), async (msgs, market) => {
        const path = capture(render(msgs));
        const road = await roadSpan(path, market);
        const light = await binanceRawSpan(path, '0.1', '0.001', market);
        expect(light).toEqual(road);
      }),
      { numRuns: 300, seed: 1017 },
    );
  }, 60_000);

  it('fails, before the run, on every line the run would refuse, naming the same line and field (bad levels and trade prices too)', async () => {
    const good = render([{ kind: 'trade', dRecv: 1, dE: 1, price: 600_000, maker: false }, { kind: 'ticker', dRecv: 1, dE: 1 }]);
    const bads = [
      '123 {"stream":"btcusdt@markPrice","data":{"E":1,"T":1}}',
      '1723161255000000000 {"stream":"btcusdt@trade","data":{"E":1,',
      'not a line',
      '1723161255000000000 {"stream":"btcusdt@depth@0ms","data":{"e":"depthUpdate","E":1,"T":1,"s":"BTCUSDT","U":1,"u":2,"pu":0,"b":[["6000x.0","1.000"]],"a":[]}}',
      '1723161255000000000 {"stream":"btcusdt@trade","data":{"e":"trade","E":1,"T":1,"s":"BTCUSDT","t":1,"p":"60000.05","q":"0.002","X":"MARKET","m":true}}',
      '1723161255000000000 {"stream":"btcusdt@bookTicker","data":{"e":"bookTicker","u":"x","s":"BTCUSDT","b":"1.0","B":"1.000","a":"1.1","A":"1.000","T":1,"E":1}}',
    ];
    for (const bad of bads) {
      for (const lines of [[good[0]!, bad, good[1]!], [...good, bad]]) {
        const path = capture(lines);
        const road = await roadSpan(path).catch((e: unknown) => e);
        const light = await binanceRawSpan(path, '0.1', '0.001', 0).catch((e: unknown) => e);
        expect(road).toBeInstanceOf(ReplayError);
        expect((light as ReplayError).message).toBe((road as ReplayError).message);
      }
    }
  });

  it.skipIf(binance.missing)('equals the whole road\'s span on the real BTCUSDT capture', async () => {
    const road = await roadSpan(BTC_FILE);
    expect(road.events).toBeGreaterThan(20_000);
    expect(await binanceRawSpan(BTC_FILE, '0.1', '0.001', 0)).toEqual(road);
  }, 60_000);
});
