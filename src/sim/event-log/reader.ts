import type { Data, RecordBatch } from 'apache-arrow';
import { TickSize } from '../../core/price.ts';
import type { EventKind } from './schema.ts';

/**
 * One row of the event log as a plain object: column values by their TypeScript names, `null`
 * where the row leaves a column empty (see `schema.ts` for which kind sets what). Integers
 * are numbers (every value the venue writes is a safe integer) except `tsNs`.
 */
export interface EventRecord {
  seq: number;
  /** Sim time, integer nanoseconds since the Unix epoch. */
  tsNs: bigint;
  kind: EventKind;
  symbol: string | null;
  user: string | null;
  orderId: string | null;
  feed: string | null;
  state: string | null;
  side: string | null;
  tif: string | null;
  liquidation: boolean | null;
  priceTicks: number | null;
  price: string | null;
  qty: number | null;
  filled: number | null;
  reason: string | null;
  tradeId: number | null;
  makerOrderId: string | null;
  makerUser: string | null;
  bidTicks: number | null;
  bidQty: number | null;
  askTicks: number | null;
  askQty: number | null;
  bidDepth5: number | null;
  askDepth5: number | null;
  markTicks: number | null;
  indexTicks: number | null;
  fundingRate: string | null;
}

type Getter<T> = (row: number) => T | null;

const decoder = new TextDecoder();

/** The rows of one record batch of an event log, in order. */
export function* batchRecords(batch: RecordBatch): Generator<EventRecord> {
  const data = (name: string): Data | undefined => batch.getChild(name)?.data[0];
  const int = (name: string) => intGetter(data(name));
  const text = (name: string) => utf8Getter(data(name));
  const dict = (name: string) => dictGetter(data(name));
  const g = {
    seq: int('seq'), symbol: dict('symbol'), user: dict('user'), orderId: text('order_id'), feed: dict('feed'),
    state: dict('state'), side: dict('side'), tif: dict('tif'), priceTicks: int('price_ticks'), price: text('price'),
    qty: int('qty'), filled: int('filled'), reason: dict('reason'), tradeId: int('trade_id'),
    makerOrderId: text('maker_order_id'), makerUser: dict('maker_user'), bidTicks: int('bid_ticks'), bidQty: int('bid_qty'),
    askTicks: int('ask_ticks'), askQty: int('ask_qty'), bidDepth5: int('bid_depth5'), askDepth5: int('ask_depth5'),
    markTicks: int('mark_ticks'), indexTicks: int('index_ticks'), fundingRate: text('funding_rate'),
  };
  const kind = dict('kind') as Getter<EventKind>;
  const liquidation = boolGetter(data('liquidation'));
  const price = priceGetter(batch, g.symbol, g.priceTicks, g.price);
  const ts = data('ts_ns');
  const tsValues = ts?.values as BigInt64Array | undefined;
  if (tsValues === undefined) throw new RangeError('not an event log: no ts_ns column');
  for (let i = 0; i < batch.numRows; i++) {
    yield {
      seq: g.seq(i)!, tsNs: tsValues[ts!.offset + i]!, kind: kind(i)!, symbol: g.symbol(i), user: g.user(i),
      orderId: g.orderId(i), feed: g.feed(i), state: g.state(i), side: g.side(i), tif: g.tif(i), liquidation: liquidation(i),
      priceTicks: g.priceTicks(i), price: price(i), qty: g.qty(i), filled: g.filled(i), reason: g.reason(i),
      tradeId: g.tradeId(i), makerOrderId: g.makerOrderId(i), makerUser: g.makerUser(i), bidTicks: g.bidTicks(i),
      bidQty: g.bidQty(i), askTicks: g.askTicks(i), askQty: g.askQty(i), bidDepth5: g.bidDepth5(i), askDepth5: g.askDepth5(i),
      markTicks: g.markTicks(i), indexTicks: g.indexTicks(i), fundingRate: g.fundingRate(i),
    };
  }
}

/** Every row of a sequence of record batches (e.g. a table's `batches`). */
export function* readEventRecords(batches: Iterable<RecordBatch>): Generator<EventRecord> {
  for (const batch of batches) yield* batchRecords(batch);
}

/** Every row of record batches that arrive asynchronously (a file read batch by batch). */
export async function* readEventRecordsAsync(batches: AsyncIterable<RecordBatch>): AsyncGenerator<EventRecord> {
  for await (const batch of batches) yield* batchRecords(batch);
}

/**
 * The price text of a row: the `price` column where written, else (logs since version 2) the
 * row's ticks times its symbol's tick size, from the `perpsim.tick_sizes` metadata.
 */
function priceGetter(batch: RecordBatch, symbol: Getter<string>, ticks: Getter<number>, text: Getter<string>): Getter<string> {
  let sizes: Record<string, string> = {};
  try {
    sizes = JSON.parse(batch.schema.metadata.get('perpsim.tick_sizes') ?? '{}') as Record<string, string>;
  } catch {
    // no usable tick sizes: only the written texts
  }
  const tickSizes = new Map(Object.entries(sizes).map(([s, tick]) => [s, new TickSize(tick)]));
  return (row) => {
    const written = text(row);
    if (written !== null) return written;
    const t = ticks(row);
    const tick = tickSizes.get(symbol(row) ?? '');
    return t === null || tick === undefined ? null : tick.toPrice(t);
  };
}

function validity(data: Data): (row: number) => boolean {
  const bitmap = data.nullBitmap;
  if (data.nullCount === 0 || bitmap === undefined || bitmap.length === 0) return () => true;
  const offset = data.offset;
  return (row) => ((bitmap[(offset + row) >> 3]! >> ((offset + row) & 7)) & 1) === 1;
}

/** Int64 as a number (exact for safe integers), or any 8/16/32-bit integer column. */
function intGetter(data: Data | undefined): Getter<number> {
  if (data === undefined) return () => null;
  const valid = validity(data);
  const values = data.values as ArrayLike<number> | BigInt64Array;
  const offset = data.offset;
  if (values instanceof BigInt64Array) {
    const halves = new Int32Array(values.buffer, values.byteOffset, values.length * 2);
    return (row) => (valid(row) ? halves[(offset + row) * 2 + 1]! * 2 ** 32 + (halves[(offset + row) * 2]! >>> 0) : null);
  }
  return (row) => (valid(row) ? values[offset + row]! : null);
}

function utf8Getter(data: Data | undefined): Getter<string> {
  if (data === undefined) return () => null;
  const valid = validity(data);
  const offsets = data.valueOffsets as Int32Array;
  const bytes = data.values as Uint8Array;
  const offset = data.offset;
  return (row) => (valid(row) ? decoder.decode(bytes.subarray(offsets[offset + row]!, offsets[offset + row + 1]!)) : null);
}

function dictGetter(data: Data | undefined): Getter<string> {
  if (data === undefined) return () => null;
  const valid = validity(data);
  const words: (string | null)[] = data.dictionary === undefined ? [] : [...data.dictionary];
  const indices = data.values as ArrayLike<number>;
  const offset = data.offset;
  return (row) => (valid(row) ? (words[indices[offset + row]!] ?? null) : null);
}

function boolGetter(data: Data | undefined): Getter<boolean> {
  if (data === undefined) return () => null;
  const valid = validity(data);
  const bits = data.values as Uint8Array;
  const offset = data.offset;
  return (row) => (valid(row) ? ((bits[(offset + row) >> 3]! >> ((offset + row) & 7)) & 1) === 1 : null);
}
