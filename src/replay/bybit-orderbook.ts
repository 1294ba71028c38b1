import { TickSize } from '../core/price.ts';
import type { Side } from '../core/types.ts';
import type { ByteSource } from './byte-source.ts';
import type { CountedStream, DumpReadOptions } from './binance-dump-csv.ts';
import { ChunkedStream } from './chunked-stream.ts';
import { decimalSteps } from './fields.ts';
import type { MarketRecord } from './market-records.ts';
import { ReplayError, RowErrors } from './replay-error.ts';

/**
 * Bybit's public order-book dumps (`<date>_<SYMBOL>_ob500.data`, one JSON message a line, as
 * the websocket sent them): `{"topic":"orderbook.500.XRPUSDT","type":"snapshot"|"delta",
 * "ts":ms,"data":{"s","b":[[price,size]…],"a":[…],"u","seq"},"cts":ms}`. A snapshot resets the
 * book, a delta sets levels (size 0 removes one). Receive time is `ts` (Bybit's system time),
 * exchange time `cts` (the matching engine's). Deltas must follow on (`u` one more than the
 * previous message's); a break empties the book (a reset row with no level) and deltas are
 * dropped until the next snapshot, as Bybit asks clients to resubscribe.
 */
export function readBybitOrderbook(source: ByteSource, options: DumpReadOptions): CountedStream & { readonly gaps: () => number } {
  const errors = new RowErrors(options.skipBadRows ?? false);
  const tick = new TickSize(options.tickSize);
  const lot = new TickSize(options.lotSize);
  let gaps = 0;
  const stream = new ChunkedStream<MarketRecord>(async function* () {
    let lastU: number | undefined;
    let line = 0;
    let rest = '';
    const decode = (text: string, out: MarketRecord[]): void => {
      line++;
      if (text.trim().length === 0) return;
      try {
        const m = parseMessage(source.name, line, text, tick, lot);
        if (m.snapshot) lastU = m.u;
        else if (lastU === undefined) return; // before the first snapshot: nothing to apply to
        else if (m.u !== lastU + 1) {
          gaps++;
          lastU = undefined;
          out.push({ kind: 'book', recvNs: m.recvNs, exchNs: m.exchNs, symbol: m.symbol, reset: true, side: undefined, priceTicks: 0, qtyLots: 0 });
          return;
        } else lastU = m.u;
        m.levels.forEach((l, i) => out.push({ kind: 'book', recvNs: m.recvNs, exchNs: m.exchNs, symbol: m.symbol, reset: m.snapshot && i === 0, ...l }));
        if (m.snapshot && m.levels.length === 0) out.push({ kind: 'book', recvNs: m.recvNs, exchNs: m.exchNs, symbol: m.symbol, reset: true, side: undefined, priceTicks: 0, qtyLots: 0 });
      } catch (e) {
        if (!(e instanceof ReplayError)) throw e;
        errors.handle(e);
      }
    };
    for await (const chunk of source.open()) {
      const lines = (rest + chunk.toString('utf8')).split('\n');
      rest = lines.pop()!;
      const out: MarketRecord[] = [];
      for (const text of lines) decode(text, out);
      yield out;
    }
    const out: MarketRecord[] = [];
    if (rest.length > 0) decode(rest, out);
    yield out;
  });
  return Object.assign(stream, { errors, gaps: () => gaps });
}

interface BybitMessage {
  snapshot: boolean;
  symbol: string;
  recvNs: bigint;
  exchNs: bigint;
  u: number;
  levels: { side: Side; priceTicks: number; qtyLots: number }[];
}

const MS = 1_000_000n;

function parseMessage(file: string, line: number, text: string, tick: TickSize, lot: TickSize): BybitMessage {
  const fail = (field: string, reason: string) => new ReplayError(file, line, field, reason);
  let raw: { type?: unknown; ts?: unknown; cts?: unknown; data?: { s?: unknown; b?: unknown; a?: unknown; u?: unknown } };
  try {
    raw = JSON.parse(text) as typeof raw;
  } catch {
    throw new ReplayError(file, line, undefined, 'not a JSON message');
  }
  const type = raw.type;
  if (type !== 'snapshot' && type !== 'delta') throw fail('type', `${JSON.stringify(type)} is neither snapshot nor delta`);
  const time = (field: 'ts' | 'cts'): bigint => {
    const v = raw[field];
    if (!Number.isSafeInteger(v) || (v as number) < 0) throw fail(field, `${JSON.stringify(v)} is not a time in ms`);
    return BigInt(v as number) * MS;
  };
  const data = raw.data;
  if (data === undefined || typeof data.s !== 'string') throw fail('data.s', 'no symbol');
  if (!Number.isSafeInteger(data.u)) throw fail('data.u', `${JSON.stringify(data.u)} is not an update id`);
  const levels: BybitMessage['levels'] = [];
  for (const [key, side] of [['b', 'B'], ['a', 'S']] as const) {
    const list = data[key];
    if (!Array.isArray(list)) throw fail(`data.${key}`, 'not a list of [price, size]');
    for (const pair of list as unknown[]) {
      const [price, size] = Array.isArray(pair) ? (pair as unknown[]) : [];
      const priceTicks = typeof price === 'string' ? decimalSteps(price, tick) : undefined;
      const qtyLots = typeof size === 'string' ? decimalSteps(size, lot) : undefined;
      if (priceTicks === undefined) throw fail(`data.${key}`, `price ${JSON.stringify(price)} is not a whole number of ${tick.text}`);
      if (qtyLots === undefined) throw fail(`data.${key}`, `size ${JSON.stringify(size)} is not a whole number of ${lot.text}`);
      levels.push({ side, priceTicks, qtyLots });
    }
  }
  // Without cts (older dumps) the system time is the only time.
  const recvNs = time('ts');
  return { snapshot: type === 'snapshot', symbol: data.s, recvNs, exchNs: raw.cts === undefined ? recvNs : time('cts'), u: data.u as number, levels };
}
