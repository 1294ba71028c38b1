import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { binanceLineDecoder, readBinanceRaw, type BinanceRawEvent } from '../../src/replay/binance-raw.ts';
import { receiptNs } from '../../src/replay/binance-chunk.ts';
import { binanceBatches } from '../../src/replay/binance-batches.ts';
import { batchRecords, type MarketRecord } from '../../src/replay/market-records.ts';
import type { ByteSource } from '../../src/replay/byte-source.ts';
import { DEPTH, FULL, LineHeaders, TICKER, TRADE } from '../../src/replay/binance-headers.ts';
import { lineChunks, textChunks } from '../../src/replay/line-chunks.ts';
import { ReplayError } from '../../src/replay/replay-error.ts';
import { msg, render, variants } from './binance-capture-gen.ts';

/** Lines that no decoder reads: each must fail with the same error, or be counted alike. */
const badLines = [
  'not a line',
  '12 {"stream":"btcusdt@markPrice","data":{"E":1,"T":1}}',
  '12 {"stream":"btcusdt@trade","data":{"e":"trade","E":1,',
  '12 {"stream":"btcusdt@depth@0ms","data":{"e":"depthUpdate","E":1,"T":1,"U":1,"u":2,"pu":0,"b":[["6000x.0","1.000"]],"a":[]}}',
  '12 {"stream":"btcusdt@depth@0ms","data":{"e":"depthUpdate","E":1,"T":1,"U":1,"u":2,"pu":0,"b":[],"a":[["60000.0","1.0001"]]}}',
  '12 {"stream":"btcusdt@trade","data":{"e":"trade","E":1,"T":1,"s":"BTCUSDT","t":1,"p":"60000.05","q":"0.002","X":"MARKET","m":true}}',
  '12 {"stream":"btcusdt@trade","data":{"e":"trade","E":1,"T":1,"s":"BTCUSDT","t":1,"p":"60000.0","q":"0.002","X":"MARKET","m":1}}',
  '12 {"stream":"btcusdt@depth@0ms","data":{"e":"depthUpdate","E":-1,"T":1,"U":1,"u":2,"pu":0,"b":[],"a":[]}}',
  '12 {"stream":"btcusdt@depth@0ms","data":{"e":"depthUpdate","E":1,"T":1,"U":1,"u":02,"pu":0,"b":[],"a":[]}}',
  '12 {"stream":"btcusdt@depth@0ms","data":{"e":"depthUpdate","E":1,"T":1,"U":1,"u":2,"pu":0,"b":[["1.0","2.0"],],"a":[]}}',
  '12 {"stream":"btcusdt@depth@0ms","data":{"e":"depthUpdate","E":1,"T":1,"U":1,"u":2,"pu":0,"b":[["1.0"]],"a":[]}}',
  '12 {"stream":"btcusdt@trade","data":{"e":"trade","E":1,"T":1,"t":1,"p":"60000.0","q":"0.002","m":true}} ',
  '12 {"stream":"btcusdt@bookTicker","data":{"e":"bookTicker","u":"x","s":"BTCUSDT","b":"1.0","B":"1.000","a":"1.1","A":"1.000","T":1,"E":1}}',
];

/** The file's bytes in chunks cut at the given places. */
function source(bytes: Buffer, cuts: number[]): ByteSource {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  return {
    name: 'capture.txt',
    async *open() {
      let from = 0;
      for (const c of [...at, bytes.length]) {
        if (c > from) yield bytes.subarray(from, c);
        from = c;
      }
    },
  };
}

/** The oracle: every line by the full line decoder (as the reader read lines until round 9). */
function lineByLine(text: string, tickerTimesOnly: boolean, tickSize: string): { events: BinanceRawEvent[]; errors: string[] } {
  const decode = binanceLineDecoder('capture.txt', tickSize, '0.001', tickerTimesOnly);
  const events: BinanceRawEvent[] = [];
  const errors: string[] = [];
  text.split('\n').forEach((raw, i, all) => {
    const line = i < all.length - 1 && raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.length === 0) return;
    try {
      events.push(decode(line, i + 1));
    } catch (e) {
      if (!(e instanceof ReplayError)) throw e;
      errors.push(e.message);
    }
  });
  return { events, errors };
}

const capture = fc.record({
  msgs: fc.array(fc.tuple(msg, fc.nat(variants.length - 1)), { minLength: 1, maxLength: 40 }),
  bad: fc.array(fc.tuple(fc.nat(), fc.nat(badLines.length - 1)), { maxLength: 3 }),
  breaks: fc.array(fc.constantFrom('\n', '\n', '\n', '\r\n', '\n\n'), { minLength: 40, maxLength: 40 }),
  last: fc.boolean(),
  cuts: fc.array(fc.nat(20_000), { maxLength: 12 }),
  tickerTimesOnly: fc.boolean(),
  // Steps of 10^-d (trailing zeros dropped, one multiply) and others (the general path); 0.5 refuses half the prices.
  tickSize: fc.constantFrom('0.1', '0.1', '0.01', '1', '0.5', '0.05'),
});

type Capture = typeof capture extends fc.Arbitrary<infer T> ? T : never;

function text(c: Capture): string {
  const lines = render(c.msgs.map(([m]) => m)).map((l, i) => {
    const sp = l.indexOf(' ');
    return `${l.slice(0, sp)} ${variants[c.msgs[i]![1]]!(l.slice(sp + 1))}`;
  });
  for (const [at, k] of c.bad) lines.splice(at % (lines.length + 1), 0, badLines[k]!);
  return lines.map((l, i) => l + (i < lines.length - 1 || c.last ? c.breaks[i % 40]! : '')).join('');
}

describe('the chunk decoder of Binance captures', () => {
  it('reads every line as the full line decoder does, whatever the chunk cuts, line breaks and line shapes (bad lines counted alike)', async () => {
    await fc.assert(
      fc.asyncProperty(capture, async (c) => {
        const t = text(c);
        const want = lineByLine(t, c.tickerTimesOnly, c.tickSize);
        const stream = readBinanceRaw(source(Buffer.from(t, 'utf8'), c.cuts), { tickSize: c.tickSize, lotSize: '0.001', tickerTimesOnly: c.tickerTimesOnly, skipBadRows: true });
        const got: BinanceRawEvent[] = [];
        for await (const chunk of stream.chunks()) got.push(...chunk);
        expect(got).toEqual(want.events);
        expect(stream.errors.skippedRows).toBe(want.errors.length);
        expect(stream.errors.firstSkipped?.message).toBe(want.errors[0]);
      }),
      { numRuns: 300, seed: 9017 },
    );
  }, 60_000);

  it('throws the first bad line\'s error, naming its line and field, without skipBadRows', async () => {
    await fc.assert(
      fc.asyncProperty(capture, async (c) => {
        const t = text(c);
        const want = lineByLine(t, c.tickerTimesOnly, c.tickSize);
        const read = async () => {
          for await (const _ of readBinanceRaw(source(Buffer.from(t, 'utf8'), c.cuts), { tickSize: c.tickSize, lotSize: '0.001', tickerTimesOnly: c.tickerTimesOnly }).chunks()) void _;
        };
        if (want.errors.length === 0) await expect(read()).resolves.toBeUndefined();
        else await expect(read()).rejects.toThrow(want.errors[0]);
      }),
      { numRuns: 100, seed: 9018 },
    );
  }, 60_000);

  it('reads the plain shape from its headers, and leaves every other shape to the full decoder', () => {
    const h = new LineHeaders();
    const kind = (line: string) => h.scan(Buffer.from(`x\n${line}\ny`, 'utf8'), 2, 2 + Buffer.byteLength(line), !line.includes('\\'));
    const lines = render([
      { kind: 'snapshot', dRecv: 0, dE: 0, idJump: 1, levels: 2 },
      { kind: 'depth', dRecv: 1, dE: 1, idJump: 2, chain: 'follow', bids: 2, asks: 1 },
      { kind: 'trade', dRecv: 1, dE: 1, price: 600_000, maker: true },
      { kind: 'ticker', dRecv: 1, dE: 1 },
    ]);
    expect(lines.map(kind)).toEqual([FULL, DEPTH, TRADE, TICKER]);
    expect([h.eMs, h.tMs, h.updateId]).toEqual([1_723_161_255_503, 1_723_161_255_503, 5_000_003]);
    expect(kind(lines[1]!)).toBe(DEPTH);
    expect([h.firstUpdateId, h.finalUpdateId, h.prevFinalUpdateId, h.bCount, h.aCount]).toEqual([5_000_001, 5_000_003, 5_000_000, 2, 1]);
    expect(kind(lines[2]!)).toBe(TRADE);
    expect([h.tradeId, h.maker, lines[2]!.slice(h.priceStart - 2, h.priceEnd - 2)]).toEqual([2, true, '60000.0']);
    // Whitespace, an escape, a fraction, a read key twice, `data` before `stream`: full; bids after asks, a two-byte character: plain.
    const full = [3, 4, 6, 7, 8];
    for (const v of [...full, 5, 9]) {
      for (const line of lines.slice(1, 3)) {
        const sp = line.indexOf(' ');
        const other = `${line.slice(0, sp)} ${variants[v]!(line.slice(sp + 1))}`;
        if (other !== line) expect(kind(other), other).toBe(full.includes(v) ? FULL : line.includes('depth') ? DEPTH : TRADE);
      }
    }
    // Of the bad lines only bad prices and quantities are of the plain shape: the decoder finds those.
    for (const bad of badLines) expect(kind(bad), bad).toBe(/6000x\.0|1\.0001|60000\.05/.test(bad) ? (bad.includes('@trade') ? TRADE : DEPTH) : FULL);
  });

  it('gives the same normalized rows with levels packed as numbers as with level objects', async () => {
    await fc.assert(
      fc.asyncProperty(capture, async (c) => {
        const t = text(c);
        const rows = async (packedLevels: boolean) => {
          const stream = readBinanceRaw(source(Buffer.from(t, 'utf8'), c.cuts), { tickSize: c.tickSize, lotSize: '0.001', tickerTimesOnly: c.tickerTimesOnly, skipBadRows: true, packedLevels });
          const out: MarketRecord[] = [];
          for await (const b of binanceBatches(stream, 'BTCUSDT')) out.push(...batchRecords(b));
          return out;
        };
        const packed = await rows(true);
        expect(packed).toEqual(await rows(false));
        if (!c.tickerTimesOnly) expect(packed.filter((r) => r.kind === 'quote').length).toBe(t.split('\n').filter((l) => l.includes('@bookTicker') && !l.includes('"u":"x"')).length);
      }),
      { numRuns: 150, seed: 9021 },
    );
  }, 60_000);

  it('reads a receipt time of 1 to 19 digits exactly', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 19n - 1n }), fc.nat(3), (ns, pad) => {
        const digits = String(ns);
        const b = Buffer.from(`${'x'.repeat(pad)}${digits} {`, 'latin1');
        expect(receiptNs(b, pad, pad + digits.length)).toBe(ns);
      }),
      { numRuns: 500, seed: 9020 },
    );
  });

  it('cuts chunks into the lines lineChunks cuts, a line break at the end or not', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom('a', 'é', ' ', '\n', '\r', '\r\n', '{"E":1}'), { maxLength: 60 }), fc.array(fc.nat(200), { maxLength: 8 }), async (parts, cuts) => {
        const bytes = Buffer.from(parts.join(''), 'utf8');
        const want: string[] = [];
        for await (const { texts } of lineChunks(source(bytes, cuts))) want.push(...texts);
        const got: string[] = [];
        for await (const b of textChunks(source(bytes, cuts))) {
          for (let start = 0; start < b.length; ) {
            const nl = b.indexOf(10, start);
            const end = nl < 0 ? b.length : nl > start && b[nl - 1] === 13 ? nl - 1 : nl;
            got.push(b.toString('utf8', start, end));
            start = nl < 0 ? b.length : nl + 1;
          }
        }
        expect(got).toEqual(want);
      }),
      { numRuns: 300, seed: 9019 },
    );
  });
});
