import type { Data, RecordBatch } from 'apache-arrow';
import { StylizedFacts, type Facts } from '../stylized-facts.ts';

/**
 * Feeds the stylized-facts calculator from event-log batches: `book` rows as tops of book
 * (best bid, best ask, lots on the best five levels of both sides), `trade` rows as trades,
 * `mark` rows as mark records with their index, `funding` rows as funding rates. Both
 * `perpsim run` (on each batch as it is written) and `perpsim report` (on each batch as it is
 * read) go through here, so the two always agree. Reads the columns directly, skipping every
 * other kind of row.
 */
export function observeEventBatch(facts: StylizedFacts, batch: RecordBatch): void {
  const kind = column(batch, 'kind');
  const words = kind.dictionary === undefined ? [] : [...kind.dictionary];
  const code = (k: string) => words.indexOf(k);
  const [book, trade, mark, funding] = [code('book'), code('trade'), code('mark'), code('funding')];
  const kinds = kind.values as Int8Array;
  const ts = column(batch, 'ts_ns').values as BigInt64Array;
  const symbolData = column(batch, 'symbol');
  const symbols = symbolData.dictionary === undefined ? [] : ([...symbolData.dictionary] as string[]);
  const symbolCodes = symbolData.values as Int32Array;
  const int = (name: string) => intColumn(column(batch, name));
  const [bid, ask, bidDepth, askDepth] = [int('bid_ticks'), int('ask_ticks'), int('bid_depth5'), int('ask_depth5')];
  const [price, qty, markTicks, indexTicks] = [int('price_ticks'), int('qty'), int('mark_ticks'), int('index_ticks')];
  const rate = column(batch, 'funding_rate');
  const rateOffsets = rate.valueOffsets as Int32Array;
  const rateBytes = rate.values as Uint8Array;
  for (let i = 0; i < batch.numRows; i++) {
    const k = kinds[i]!;
    if (k !== book && k !== trade && k !== mark && k !== funding) continue;
    const symbol = symbols[symbolCodes[i]!]!;
    if (k === book) {
      facts.observeTop(ts[i]!, symbol, bid(i), ask(i), (bidDepth(i) ?? 0) + (askDepth(i) ?? 0));
    } else if (k === trade) {
      facts.observeTrade(ts[i]!, symbol, price(i)!, qty(i)!);
    } else if (k === mark) {
      facts.observeMark(ts[i]!, symbol, markTicks(i)!, indexTicks(i)!);
    } else {
      facts.observeFunding(symbol, Number(decoder.decode(rateBytes.subarray(rateOffsets[i]!, rateOffsets[i + 1]!))), ts[i]!);
    }
  }
}

/** The facts of every symbol pooled (`all`) and of each symbol, symbols in name order. */
export function factsBySymbol(facts: StylizedFacts): { all: Facts; by_symbol: Record<string, Facts> } {
  const symbols = [...facts.symbols].sort();
  return { all: facts.facts(), by_symbol: Object.fromEntries(symbols.map((s) => [s, facts.facts(s)])) };
}

const decoder = new TextDecoder();

function column(batch: RecordBatch, name: string): Data {
  const data = batch.getChild(name)?.data[0];
  if (data === undefined) throw new RangeError(`not an event log: no ${name} column`);
  if (data.offset !== 0) throw new RangeError(`event log column ${name} is a slice; read whole batches`);
  return data;
}

/** An int64 column read as numbers, undefined where null. */
function intColumn(data: Data): (row: number) => number | undefined {
  const values = data.values as BigInt64Array;
  const halves = new Int32Array(values.buffer, values.byteOffset, values.length * 2);
  const bitmap = data.nullBitmap;
  const all = data.nullCount === 0 || bitmap === undefined || bitmap.length === 0;
  return (row) =>
    all || ((bitmap[row >> 3]! >> (row & 7)) & 1) === 1 ? halves[row * 2 + 1]! * 2 ** 32 + (halves[row * 2]! >>> 0) : undefined;
}
