import type { RecordBatch } from 'apache-arrow';
import { STATE_NAMES } from '../../venue/order-store.ts';
import { ORDER_ID_BYTES } from '../../venue/venue-state.ts';
import type { DictionaryColumn } from './dictionary-column.ts';
import { EXTERNAL_USER, NO_TEXT, OP_CELLS, OP_NAMED, type RowTapeData } from './row-tape.ts';
import { EVENT_KINDS, EventColumns, K_BOOK, K_FEED, K_FUNDING, K_INDEX, K_MARK, K_TRADE, splitTimestamp } from './schema.ts';

/** What a `RowBuilder` needs besides the tapes: the same for the recorder and the writer thread. */
export interface RowBuilderSetup {
  /** Rows per batch. */
  capacity: number;
  /** The schema's metadata, in order. */
  metadata: [string, string][];
  /** Symbols and usernames the dictionaries start with (the venue's when the recorder started). */
  seedSymbols: string[];
  seedUsers: string[];
  /** The name of a user with no account (replayed liquidity). */
  externalName: string;
  /** Reuse the column arrays for the next batch (a batch is valid until `recycle`). */
  reuse: boolean;
}

/** A wire object's cells, by column: `[name, value, name, value, …]` (see `RowTapeData`). */
export type RowCells = (string | number | boolean)[];

/**
 * Builds the event log's Arrow batches from row tapes (`row-tape.ts`), as the recorder once
 * built them from the venue's events: the same cells in the same order, dictionary codes taken
 * at a value's first row, so the bytes are the same wherever it runs.
 */
export class RowBuilder {
  readonly cols: EventColumns;
  /** Rows built so far (the `seq` column). */
  private row = 0;
  private lastSec = NaN;
  private lastNanos = NaN;
  private readonly ts: [hi: number, lo: number] = [0, 0];
  private readonly userNames: string[] = [];
  private readonly symbolNames: string[] = [];
  private readonly kindCodes: Int32Array;
  /** Dictionary codes cached by user id, market index, feed character, state code, side and tif index. */
  private readonly userCodes: number[] = [];
  private readonly makerCodes: number[] = [];
  private readonly symbolCodes: number[] = [];
  private readonly feedCodes: number[] = [];
  private readonly stateCodes: number[] = [];
  private readonly sideCodes: number[];
  private readonly tifCodes: number[];
  private readonly externalName: string;

  constructor(setup: RowBuilderSetup) {
    const c = (this.cols = new EventColumns(setup.capacity, new Map(setup.metadata), setup.reuse));
    this.externalName = setup.externalName;
    this.kindCodes = Int32Array.from(EVENT_KINDS, (k) => c.kind.code(k));
    c.symbol.seed(setup.seedSymbols);
    c.user.seed(setup.seedUsers);
    c.maker_user.seed(setup.seedUsers);
    this.sideCodes = [c.side.code('B'), c.side.code('S')];
    this.tifCodes = [c.tif.code('GTC'), c.tif.code('IOC')];
  }

  /**
   * The tape's rows as a record batch (`order_id` holes filled when `fillIds`; else read
   * `cols.orderIdHoles` before `done`).
   */
  build(tape: RowTapeData, fillIds: boolean): RecordBatch {
    for (const [id, name] of tape.users) this.userNames[id] = name;
    for (const [index, symbol] of tape.symbols) this.symbolNames[index] = symbol;
    const n = tape.nums;
    let i = 0;
    for (let r = 0; r < tape.rows; r++) {
      const op = n[i]!;
      const kind = op >= OP_CELLS ? op - OP_CELLS : op === OP_NAMED ? K_FEED : op;
      this.begin(r, kind, n[i + 1]!, n[i + 2]!);
      i += 3;
      if (op >= OP_CELLS) i = this.cellsRow(r, tape, i);
      else if (op === K_FEED) i = this.feedRow(r, tape, i);
      else if (op === OP_NAMED) i = this.namedRow(r, tape, i);
      else if (op === K_TRADE) i = this.tradeRow(r, tape, i);
      else if (op === K_BOOK) i = this.bookRow(r, n, i);
      else i = this.marketRow(r, op, tape, i);
    }
    return this.cols.finish(tape.rows, fillIds);
  }

  /** The batch built last is handed over: forget its holes, clear the arrays for the next. */
  done(): void {
    this.cols.clearHoles();
    this.cols.recycle();
  }

  private begin(r: number, kind: number, sec: number, nanos: number): void {
    if (sec !== this.lastSec || nanos !== this.lastNanos) {
      this.lastSec = sec;
      this.lastNanos = nanos;
      splitTimestamp(sec, nanos, this.ts);
    }
    const c = this.cols;
    c.seq.set(r, this.row++);
    c.ts_ns.setHalves(r, this.ts[0], this.ts[1]);
    c.kind.setCode(r, this.kindCodes[kind]!);
  }

  private feedRow(r: number, tape: RowTapeData, i: number): number {
    const n = tape.nums;
    const c = this.cols;
    const t = n[i]!;
    c.feed.setCode(r, (this.feedCodes[t] ??= c.feed.code(String.fromCharCode(t))));
    c.user.setCode(r, this.userCode(this.userCodes, c.user, n[i + 1]!));
    c.orderIdHoles.add(c.order_id.reserveCell(r, ORDER_ID_BYTES), n[i + 2]!, n[i + 3]!, n[i + 4]!);
    c.symbol.setCode(r, this.symbolCode(n[i + 5]!));
    const state = n[i + 6]!;
    c.state.setCode(r, (this.stateCodes[state] ??= c.state.code(STATE_NAMES[state]!)));
    c.side.setCode(r, this.sideCodes[n[i + 7]!]!);
    c.tif.setCode(r, this.tifCodes[n[i + 8]!]!);
    c.liquidation.set(r, n[i + 9] === 1);
    c.price_ticks.setNumber(r, n[i + 10]!);
    const qty = n[i + 11]!;
    if (Number.isSafeInteger(qty)) c.qty.setNumber(r, qty);
    c.filled.setNumber(r, n[i + 12]!);
    const reason = n[i + 13]!;
    if (reason !== NO_TEXT) c.reason.set(r, tape.texts[reason] as string);
    const tid = n[i + 14]!;
    if (!Number.isNaN(tid)) c.trade_id.setNumber(r, tid);
    return i + 15;
  }

  /** An `e` (`OP_NAMED`): what `cellsRow` sets for its cells (`feed`, `order_id`, `reason`), in that order. */
  private namedRow(r: number, tape: RowTapeData, i: number): number {
    const n = tape.nums;
    const c = this.cols;
    c.user.setCode(r, this.userCode(this.userCodes, c.user, n[i]!));
    const t = n[i + 1]!;
    c.feed.setCode(r, (this.feedCodes[t] ??= c.feed.code(String.fromCharCode(t))));
    c.order_id.set(r, tape.texts[n[i + 2]!] as string);
    const reason = n[i + 3]!;
    if (reason !== NO_TEXT) c.reason.set(r, tape.texts[reason] as string);
    return i + 4;
  }

  private tradeRow(r: number, tape: RowTapeData, i: number): number {
    const n = tape.nums;
    const c = this.cols;
    c.symbol.setCode(r, this.symbolCode(n[i]!));
    const tid = n[i + 1]!;
    if (!Number.isNaN(tid)) c.trade_id.setNumber(r, tid);
    c.price_ticks.setNumber(r, n[i + 2]!);
    c.qty.setNumber(r, n[i + 3]!);
    c.side.setCode(r, this.sideCodes[n[i + 4]!]!);
    c.user.setCode(r, this.userCode(this.userCodes, c.user, n[i + 5]!));
    const takerStart = n[i + 7]!;
    if (takerStart >= 0) {
      copyCell(c.order_id, r, tape.ids, takerStart, n[i + 8]!);
      copyCell(c.maker_order_id, r, tape.ids, n[i + 9]!, n[i + 10]!);
    } else {
      c.order_id.set(r, tape.texts[-takerStart - 1] as string);
      c.maker_order_id.set(r, tape.texts[-n[i + 9]! - 1] as string);
    }
    c.maker_user.setCode(r, this.userCode(this.makerCodes, c.maker_user, n[i + 6]!));
    return i + 11;
  }

  private bookRow(r: number, n: Float64Array, i: number): number {
    const c = this.cols;
    c.symbol.setCode(r, this.symbolCode(n[i]!));
    const bid = n[i + 1]!;
    if (!Number.isNaN(bid)) {
      c.bid_ticks.setNumber(r, bid);
      c.bid_qty.setNumber(r, n[i + 2]!);
    }
    const ask = n[i + 3]!;
    if (!Number.isNaN(ask)) {
      c.ask_ticks.setNumber(r, ask);
      c.ask_qty.setNumber(r, n[i + 4]!);
    }
    c.bid_depth5.setNumber(r, n[i + 5]!);
    c.ask_depth5.setNumber(r, n[i + 6]!);
    return i + 7;
  }

  /** `mark`, `index` and `funding` rows: symbol, mark and index (and the funding rate). */
  private marketRow(r: number, op: number, tape: RowTapeData, i: number): number {
    if (op !== K_MARK && op !== K_INDEX && op !== K_FUNDING) throw new Error(`event log tape: unknown row op ${op}`);
    const n = tape.nums;
    const c = this.cols;
    c.symbol.set(r, this.symbolNames[n[i]!]!);
    c.mark_ticks.setNumber(r, n[i + 1]!);
    c.index_ticks.setNumber(r, n[i + 2]!);
    const rate = n[i + 3]!;
    if (rate !== NO_TEXT) c.funding_rate.set(r, tape.texts[rate] as string);
    return i + 4;
  }

  /** A row read from a wire object: its user, then its cells by column name. */
  private cellsRow(r: number, tape: RowTapeData, i: number): number {
    const n = tape.nums;
    const c = this.cols;
    const user = n[i]!;
    if (!Number.isNaN(user)) c.user.setCode(r, this.userCode(this.userCodes, c.user, user));
    const cells = tape.texts[n[i + 1]!] as RowCells;
    for (let k = 0; k < cells.length; k += 2) {
      const column = c[cells[k] as keyof EventColumns] as unknown as { set(r: number, v: unknown): void; setNumber(r: number, v: number): void };
      const value = cells[k + 1]!;
      if (typeof value === 'number') column.setNumber(r, value);
      else column.set(r, value);
    }
    return i + 2;
  }

  private userCode(codes: number[], column: DictionaryColumn, user: number): number {
    if (user === EXTERNAL_USER) return column.code(this.externalName);
    return (codes[user] ??= column.code(this.userNames[user]!));
  }

  private symbolCode(index: number): number {
    return (this.symbolCodes[index] ??= this.cols.symbol.code(this.symbolNames[index]!));
  }
}

/** Copies bytes `[start, end)` of `ids` into cell `r` of `column`. */
function copyCell(column: EventColumns['order_id'], r: number, ids: Uint8Array, start: number, end: number): void {
  const out = column.openCell(r, end - start);
  const at = column.cellStart;
  out.set(ids.subarray(start, end), at);
  column.closeCell(r, at + end - start);
}
