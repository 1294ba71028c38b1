import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { TickSize } from '../../src/core/price.ts';
import { readBinanceRaw, type BinanceRawEvent } from '../../src/replay/binance-raw.ts';
import { lastPlainIntField, plainIntField, scanStreamMessage } from '../../src/replay/binance-scan.ts';

const tmp = mkdtempSync(join(tmpdir(), 'perpsim-binance-scan-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const tick = new TickSize('0.1');
const lot = new TickSize('0.001');

/** The oracle: what a depth or trade line means, from JSON.parse of the whole line. */
function expected(line: string, n: number): BinanceRawEvent {
  const sp = line.indexOf(' ');
  const { stream, data: d } = JSON.parse(line.slice(sp + 1));
  const common = { localTsNs: BigInt(line.slice(0, sp)), eventTsNs: BigInt(d.E) * 1_000_000n, transactTsNs: BigInt(d.T) * 1_000_000n, line: n };
  const levels = (pairs: string[][]) => pairs.map(([p, q]) => ({ priceTicks: tick.toTicks(p!)!, qtyLots: lot.toTicks(q!)! }));
  if (String(stream).endsWith('@trade')) return { kind: 'trade', ...common, tradeId: d.t, priceTicks: tick.toTicks(d.p)!, qtyLots: lot.toTicks(d.q)!, takerSide: d.m ? 'S' : 'B' };
  return { kind: 'depth', ...common, firstUpdateId: d.U, finalUpdateId: d.u, prevFinalUpdateId: d.pu, bids: levels(d.b), asks: levels(d.a) };
}

const price = fc.integer({ min: 1, max: 10_000_000 }).map((t) => tick.toPrice(t));
const qty = fc.integer({ min: 0, max: 10_000_000 }).map((l) => lot.toPrice(l));
const id = fc.integer({ min: 0, max: 2 ** 50 });
const trade = fc.record({ E: id, T: id, t: id, p: price, q: qty, m: fc.boolean() }).map((d) => ({ stream: 'btcusdt@trade', data: { e: 'trade', E: d.E, T: d.T, s: 'BTCUSDT', t: d.t, p: d.p, q: d.q, X: 'MARKET', m: d.m } }));
const pairs = fc.array(fc.tuple(price, qty), { maxLength: 8 });
const depth = fc.record({ E: id, T: id, U: id, u: id, pu: id, b: pairs, a: pairs }).map((d) => ({ stream: 'btcusdt@depth@0ms', data: { e: 'depthUpdate', E: d.E, T: d.T, s: 'BTCUSDT', U: d.U, u: d.u, pu: d.pu, b: d.b, a: d.a } }));

/** Valid JSON the scanner does not take (it must then go to JSON.parse, with the same meaning). */
const variants: ((json: string) => string)[] = [
  (j) => j,
  (j) => j.replace(/":/g, '": ').replace(/,"/g, ', "'), // whitespace
  (j) => j.replace('"BTCUSDT"', '"\\u0042TCUSDT"'), // an escape
  (j) => j.replace(/"E":(\d+)/, (_, v) => `"E":${v}.0`), // a fraction
  (j) => j.replace('{"e":', '{"x":1,"x":2,"e":'), // a repeated key
  (j) => j.replace(/^\{"stream":("[^"]*"),"data":(.*)\}$/, '{"data":$2,"stream":$1}'), // other key order
];

describe('the Binance line scanner', () => {
  it('reads every depth and trade line as JSON.parse does, whether it takes the line or leaves it to JSON.parse', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.oneof(trade, depth), fc.nat(variants.length - 1)), { minLength: 1, maxLength: 30 }), async (messages) => {
        const lines = messages.map(([m, v], i) => `${1_000 + i} ${variants[v]!(JSON.stringify(m))}`);
        const path = join(tmp, 'capture.txt');
        writeFileSync(path, `${lines.join('\n')}\n`);
        const got: BinanceRawEvent[] = [];
        for await (const chunk of readBinanceRaw(path, { tickSize: tick, lotSize: lot }).chunks()) got.push(...chunk);
        expect(got).toEqual(lines.map((l, i) => expected(l, i + 1)));
      }),
      { numRuns: 150 },
    );
  });

  it('takes the plain shape only: anything else is left to JSON.parse', () => {
    const plain = '{"stream":"btcusdt@trade","data":{"E":1,"T":2,"t":3,"p":"1.5","q":"0.001","m":false}}';
    const all = () => true;
    expect(scanStreamMessage(plain, 0, all)?.ints.get('t')).toBe(3);
    expect(scanStreamMessage(plain, 0, (s) => s.endsWith('@depth'))).toBeUndefined();
    for (const other of [plain.replace('"E":1', '"E":-1'), plain.replace('"E":1', '"E":01'), `${plain} `, plain.replace('}}', '}'), plain.replace('"p":"1.5"', '"p":1.5'), plain.replace('"E":1', `"E":${2 ** 60}`)]) {
      expect(scanStreamMessage(other, 0, all), other).toBeUndefined();
    }
  });

  it('finds a plain integer field searching forward or, for the fields that close a line, backward, as JSON.parse reads it', () => {
    const ticker = '{"stream":"btcusdt@bookTicker","data":{"e":"bookTicker","u":7,"s":"BTCUSDT","b":"1.0","B":"2.5","a":"1.1","A":"3","T":1723161256313,"E":1723161256314}}';
    const data = ticker.indexOf('"data"');
    for (const key of ['"u":', '"T":', '"E":']) {
      const json = JSON.parse(ticker).data[key.slice(1, 2)];
      expect(plainIntField(ticker, key, data)).toBe(json);
      expect(lastPlainIntField(ticker, key, data)).toBe(json);
    }
    // A repeated key: JSON.parse keeps the last value, and so does the backward search.
    const twice = ticker.replace('"u":7', '"E":5,"u":7');
    expect(lastPlainIntField(twice, '"E":', data)).toBe(JSON.parse(twice).data.E);
    // Not after `from`, absent, or not a plain integer: NaN.
    expect(lastPlainIntField(ticker, '"E":', ticker.length - 5)).toBeNaN();
    expect(lastPlainIntField(ticker, '"X":', 0)).toBeNaN();
    expect(lastPlainIntField(ticker.replace('"E":1723161256314', '"E":-1'), '"E":', data)).toBeNaN();
    expect(lastPlainIntField(ticker.replace('"E":1723161256314', '"E":1.5'), '"E":', data)).toBeNaN();
  });

  it('names the line and field of a bad value as before', async () => {
    const path = join(tmp, 'bad.txt');
    writeFileSync(path, '5 {"stream":"btcusdt@trade","data":{"E":1,"T":2,"t":3,"p":"1.55","q":"0.001","m":false}}\n');
    await expect(async () => {
      for await (const _ of readBinanceRaw(path, { tickSize: tick, lotSize: lot })) void _;
    }).rejects.toThrow(/bad\.txt:1 column data\.p: "1\.55" is not a decimal string on the step 0\.1/);
  });
});
