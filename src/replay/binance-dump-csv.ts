import { TickSize } from '../core/price.ts';
import type { Side } from '../core/types.ts';
import type { ByteSource } from './byte-source.ts';
import { ChunkedStream } from './chunked-stream.ts';
import type { FieldReader } from './fields.ts';
import { decodeHeaderCsv } from './header-csv.ts';
import type { BookRecord, MarketRecord, SymbolUnits } from './market-records.ts';
import { mergeByTime } from './merge.ts';
import { RowErrors } from './replay-error.ts';

/**
 * Binance's public data dumps (data.binance.vision) of USD-M futures, as normalized records:
 * - bookTicker CSV (`update_id,best_bid_price,best_bid_qty,best_ask_price,best_ask_qty,
 *   transaction_time,event_time`): one `quote` per row, exchange time `transaction_time`,
 *   receive time `event_time` (the push time: the dump has no receipt time);
 * - the historical order book ("T_DEPTH") snapshot and update CSVs (`symbol,timestamp,
 *   first_update_id,last_update_id,side,update_type,price,qty,pu`), read together and kept in
 *   sync by Binance's update-id rule (`DumpDepthSync`).
 * Times are milliseconds in the files, exact ns here.
 */

const MS = 1_000_000n;

/** Options of the dump readers: the symbol's units, and what to do with a bad row. */
export interface DumpReadOptions extends SymbolUnits {
  skipBadRows?: boolean;
}

/** A reader's records plus its bad-row counts. */
export interface CountedStream extends ChunkedStream<MarketRecord> {
  readonly errors: RowErrors;
}

/** A bookTicker dump (`symbol`: the file does not name it). */
export function readBinanceBookTicker(source: ByteSource, symbol: string, options: DumpReadOptions): CountedStream {
  const errors = new RowErrors(options.skipBadRows ?? false);
  const tick = new TickSize(options.tickSize);
  const lot = new TickSize(options.lotSize);
  const stream = new ChunkedStream<MarketRecord>(() =>
    decodeHeaderCsv(source, 7, errors, (row): MarketRecord => ({
      kind: 'quote',
      exchNs: BigInt(row.integer(5, 'transaction_time')) * MS,
      recvNs: BigInt(row.integer(6, 'event_time')) * MS,
      symbol,
      bidTicks: row.steps(1, tick, 'price'),
      bidQtyLots: row.steps(2, lot, 'quantity'),
      askTicks: row.steps(3, tick, 'price'),
      askQtyLots: row.steps(4, lot, 'quantity'),
    })),
  );
  return Object.assign(stream, { errors });
}

/** One depth message of a dump: the rows sharing a `last_update_id` (a snapshot or one update). */
export interface DepthMessage {
  symbol: string;
  tsNs: bigint;
  snapshot: boolean;
  firstUpdateId: number;
  lastUpdateId: number;
  /** `pu`: the previous update's `last_update_id` (−1 in a snapshot). */
  previousUpdateId: number;
  levels: { side: Side; priceTicks: number; qtyLots: number }[];
  line: number;
}

/**
 * Depth snapshot and update files of one symbol as records: their messages merged by time
 * (a snapshot before updates of the same millisecond), then `DumpDepthSync`.
 */
export function readBinanceDepth(sources: readonly ByteSource[], options: DumpReadOptions): CountedStream & { readonly sync: DumpDepthSync } {
  const errors = new RowErrors(options.skipBadRows ?? false);
  const units = { tick: new TickSize(options.tickSize), lot: new TickSize(options.lotSize) };
  const sync = new DumpDepthSync();
  const stream = new ChunkedStream<MarketRecord>(async function* () {
    const inputs = sources.map((s, i) => ({ items: depthMessages(s, units, errors), priority: 0, name: s.name, i }));
    // Snapshots first at equal times: a file of snapshot rows gets the lower priority.
    let out: MarketRecord[] = [];
    for await (const m of mergeByTime(inputs, (x) => x.tsNs - (x.snapshot ? 1n : 0n))) {
      sync.push(m.item, out);
      if (out.length >= 4096) {
        yield out;
        out = [];
      }
    }
    yield out;
  });
  return Object.assign(stream, { errors, sync });
}

async function* depthMessages(source: ByteSource, units: { tick: TickSize; lot: TickSize }, errors: RowErrors): AsyncGenerator<DepthMessage> {
  let open: DepthMessage | undefined;
  for await (const rows of decodeHeaderCsv(source, 9, errors, (row) => depthRow(row, units))) {
    for (const row of rows) {
      if (open !== undefined && open.lastUpdateId === row.lastUpdateId && open.snapshot === row.snapshot && open.symbol === row.symbol) {
        open.levels.push(row.level);
        continue;
      }
      if (open !== undefined) yield open;
      const { level, ...head } = row;
      open = { ...head, levels: [level] };
    }
  }
  if (open !== undefined) yield open;
}

/** One row of a depth dump: its message's fields, its level and its line. */
function depthRow(reader: FieldReader, units: { tick: TickSize; lot: TickSize }) {
  const snapshot = reader.is(5, 'snap');
  if (!snapshot && !reader.is(5, 'set')) throw reader.error(5, `update_type ${JSON.stringify(reader.field(5))} is neither snap nor set`);
  const side: Side = reader.is(4, 'b') ? 'B' : reader.is(4, 'a') ? 'S' : badSide(reader);
  return {
    symbol: reader.field(0),
    tsNs: BigInt(reader.integer(1, 'timestamp')) * MS,
    firstUpdateId: reader.integer(2, 'first_update_id'),
    lastUpdateId: reader.integer(3, 'last_update_id'),
    snapshot,
    level: { side, priceTicks: reader.steps(6, units.tick, 'price'), qtyLots: reader.steps(7, units.lot, 'quantity') },
    previousUpdateId: reader.integer(8, 'pu'),
    line: reader.line,
  };
}

function badSide(reader: FieldReader): never {
  throw reader.error(4, `side ${JSON.stringify(reader.field(4))} is neither b nor a`);
}

/**
 * Binance's update-id rule over dump messages: a snapshot resets the book; the first update
 * after it must cover the snapshot (`first_update_id` ≤ snapshot id ≤ `last_update_id`; older
 * updates are dropped as stale), each later one must follow on (`pu` = the previous
 * `last_update_id`). A broken chain empties the book (a reset row with no level) and updates
 * are dropped until the next snapshot; so are updates before the first snapshot.
 */
export class DumpDepthSync {
  readonly stats = { snapshots: 0, updates: 0, staleUpdates: 0, unsyncedUpdates: 0, gaps: 0 };
  /** The `last_update_id` the book is complete to, or undefined when out of sync. */
  private bookId: number | undefined;
  /** True until the first update after a snapshot is applied. */
  private fresh = false;

  push(m: DepthMessage, out: MarketRecord[]): void {
    if (m.snapshot) {
      this.stats.snapshots++;
      this.bookId = m.lastUpdateId;
      this.fresh = true;
      this.rows(m, true, out);
      return;
    }
    const id = this.bookId;
    if (id === undefined) {
      this.stats.unsyncedUpdates++;
      return;
    }
    if (this.fresh && m.lastUpdateId < id) {
      this.stats.staleUpdates++;
      return;
    }
    const follows = this.fresh ? m.firstUpdateId <= id && id <= m.lastUpdateId : m.previousUpdateId === id;
    if (!follows) {
      this.stats.gaps++;
      this.bookId = undefined;
      out.push({ kind: 'book', recvNs: m.tsNs, exchNs: m.tsNs, symbol: m.symbol, reset: true, side: undefined, priceTicks: 0, qtyLots: 0 });
      return;
    }
    this.stats.updates++;
    this.bookId = m.lastUpdateId;
    this.fresh = false;
    this.rows(m, false, out);
  }

  private rows(m: DepthMessage, reset: boolean, out: MarketRecord[]): void {
    m.levels.forEach((l, i) => {
      const r: BookRecord = { kind: 'book', recvNs: m.tsNs, exchNs: m.tsNs, symbol: m.symbol, reset: reset && i === 0, side: l.side, priceTicks: l.priceTicks, qtyLots: l.qtyLots };
      out.push(r);
    });
  }
}
