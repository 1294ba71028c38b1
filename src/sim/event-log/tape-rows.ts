import { EXTERNAL_USERNAME } from '../../venue/external-owner.ts';
import type { Venue } from '../../venue/venue.ts';
import type { RowBuilderSetup, RowCells } from './row-builder.ts';
import { EXTERNAL_USER, OP_CELLS, RowTape } from './row-tape.ts';
import { EVENT_KINDS, EVENT_LOG_VERSION, type EventKind } from './kinds.ts';
import { DEFAULT_BATCH_ROWS, type EventLogRecorderOptions } from './recorder-options.ts';

/**
 * The event log's rows on their tape, and the tapes handed over: each row begun at the clock's
 * instant (`begin`), its fields written by the recorder (`TapeRecorder`, which knows what each
 * announcement writes), ended (`end`), and every `batchRows` rows the tape handed over as
 * numbers (`onRows`: see `row-tape.ts`) or built in-process (`EventLogRecorder`'s `onBatch`),
 * with the names of the accounts and markets the builder has not seen yet.
 */
export class TapeRows {
  private readonly capacity: number;
  private readonly onRows: EventLogRecorderOptions['onRows'];
  /** What a `RowBuilder` of this log needs (the writer thread's, or `EventLogRecorder`'s). */
  readonly setup: RowBuilderSetup;
  protected tape: RowTape;
  private row = -1;
  private rowsInBatch = 0;
  private batches = 0;
  /** Accounts and markets whose names went with a tape already. */
  private usersSent = 0;
  private symbolsSent = 0;
  /** Rows written so far, by `EVENT_KINDS` index (a number, not a property named at run time, per row). */
  private readonly kindRows = new Float64Array(EVENT_KINDS.length);

  constructor(
    protected readonly venue: Venue,
    options: EventLogRecorderOptions,
  ) {
    this.capacity = options.batchRows ?? DEFAULT_BATCH_ROWS;
    if (!Number.isSafeInteger(this.capacity) || this.capacity < 1) throw new RangeError(`batchRows must be a positive integer, got ${this.capacity}`);
    if ((options.onBatch === undefined) === (options.onRows === undefined)) throw new TypeError('give the event log recorder one of onBatch and onRows');
    this.onRows = options.onRows;
    const tickSizes = Object.fromEntries(venue.markets.map((m) => [m.symbol, m.instrument.tick.text]));
    this.setup = {
      capacity: this.capacity,
      metadata: [['perpsim.event_log', EVENT_LOG_VERSION], ['perpsim.tick_sizes', JSON.stringify(tickSizes)], ...Object.entries(options.metadata ?? {})],
      seedSymbols: venue.markets.map((m) => m.symbol),
      seedUsers: venue.accounts.map((a) => a.username),
      externalName: EXTERNAL_USERNAME,
      reuse: options.reuseBuffers === true,
    };
    this.tape = new RowTape(this.capacity);
  }

  /** Rows written so far, by kind. */
  get counts(): Record<EventKind, number> {
    return Object.fromEntries(EVENT_KINDS.map((k, i) => [k, this.kindRows[i]!])) as Record<EventKind, number>;
  }

  /** Rows written so far. */
  get rows(): number {
    return this.row + 1;
  }

  /**
   * Hands over the rows not yet in a batch. Call once the run is over. A log that never had a
   * row still gets one (empty) batch, so a file always carries the schema.
   */
  flush(): void {
    if (this.rowsInBatch === 0 && this.batches > 0) return;
    const tape = this.tape;
    tape.rows = this.rowsInBatch;
    this.rowsInBatch = 0;
    this.batches++;
    this.addNames(tape);
    if (this.onRows !== undefined) {
      // The tape travels (its arrays are the thread's now): the next one fills arrays handed back, if any.
      this.tape = new RowTape(this.capacity, this.onRows(tape, this.setup) ?? undefined);
      return;
    }
    this.buildBatch(tape);
    tape.clear();
  }

  /** Builds the batch of `tape` and hands it over in-process (`EventLogRecorder`'s `onBatch`). */
  protected buildBatch(_tape: RowTape): void {
    throw new TypeError('onBatch builds the columns in-process: use an EventLogRecorder');
  }

  /** The names of the accounts and markets added since the last tape, for the builder. */
  private addNames(tape: RowTape): void {
    const { accounts, markets } = this.venue;
    for (; this.usersSent < accounts.length; this.usersSent++) {
      const account = accounts[this.usersSent];
      if (account !== undefined) tape.users.push([this.usersSent, account.username]);
    }
    for (; this.symbolsSent < markets.length; this.symbolsSent++) tape.symbols.push([markets[this.symbolsSent]!.index, markets[this.symbolsSent]!.symbol]);
  }

  /** A user id as the tape holds it: the id, or `EXTERNAL_USER` when no account has it (replayed liquidity). */
  protected userOf(userId: number): number {
    return this.venue.accounts[userId] === undefined ? EXTERNAL_USER : userId;
  }

  /** A row of kind `kind` read from a wire object: its user (NaN: none) and cells (`RowCells`). */
  protected cellsRow(kind: number, user: number, cells: RowCells): void {
    const n = this.tape.nums;
    let i = this.begin(kind, OP_CELLS + kind);
    n[i++] = user;
    n[i++] = this.tape.text(cells);
    this.end(i);
  }

  /** Starts a row of kind `EVENT_KINDS[kind]` at the clock's instant; returns where its fields go in the tape. */
  protected begin(kind: number, op = kind): number {
    this.row++;
    this.kindRows[kind]! += 1;
    const clock = this.venue.clock;
    const n = this.tape.nums;
    const i = this.tape.used;
    n[i] = op;
    n[i + 1] = clock.nowSec;
    n[i + 2] = clock.nowNanos;
    return i + 3;
  }

  /** Ends the row begun last (its fields end at `i`); hands over a full batch. */
  protected end(i: number): void {
    this.tape.used = i;
    if (++this.rowsInBatch === this.capacity) this.flush();
  }
}
