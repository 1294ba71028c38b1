/**
 * The event log's rows as numbers: what the recorder copies out of the venue's events on the
 * simulation's thread, and `RowBuilder` turns into Arrow columns — on the writer thread in
 * `perpsim run` (which is idle most of the run), or in-process for a recorder that hands over
 * batches. The texts, the dictionaries and the columns are the builder's; a row here is a few
 * stores into one `Float64Array`.
 *
 * A row is `[op, sec, nanos, ...fields]` (the clock's instant as the recorder saw it); `op` is
 * the row's kind index (`K_FEED`…, with the fields `row-builder.ts` reads for it) or
 * `OP_CELLS + kind` for the rare rows read from a wire object (cells named by column, in
 * `texts`), or `OP_NAMED` for a feed that names an id rather than an order (an `e`). Texts a row needs (reasons, funding rates, the cells) go to `texts` and the row holds
 * their index; a trade's order ids go as bytes to `ids` (the venue writes them from its
 * numbers, as the recorder wrote them into the column before). A user is its id, or
 * `EXTERNAL_USER` for an id with no account (replayed liquidity); a symbol is its market's
 * index. Names of the accounts and markets added since the previous tape travel with it.
 */
export interface RowTapeData {
  nums: Float64Array<ArrayBuffer>;
  /** Numbers written to `nums`. */
  used: number;
  rows: number;
  texts: unknown[];
  ids: Uint8Array<ArrayBuffer>;
  /** Bytes written to `ids`. */
  idBytes: number;
  /** (user id, username) of the accounts added since the previous tape. */
  users: [number, string][];
  /** (market index, symbol) of the markets added since the previous tape. */
  symbols: [number, string][];
}

/**
 * A tape's arrays handed back once its batch is built (by the writer thread): new tapes fill
 * them again, so a run does not allocate (and page in, and collect) ~10 MB a batch.
 */
export interface SpareTape {
  nums: Float64Array<ArrayBuffer>;
  ids: Uint8Array<ArrayBuffer>;
}

/** Numbers a row takes at most (a plain feed row: header 3, fields 15). */
export const MAX_ROW_NUMS = 18;

/** Rare rows: `OP_CELLS + kind`, their cells in `texts` (see `RowTapeData`). */
export const OP_CELLS = 16;

/**
 * A `feed` row of an `e` (a cancel that named no open order): `[op, sec, nanos, user, feed
 * character, order id text, reason text]`, the cells `feedCells` gives such a feed (one a day's
 * 2 % of rows: a feed object and a cells array each, before).
 */
export const OP_NAMED = 8;

/** A user id with no account: the external (replayed) owner's name. */
export const EXTERNAL_USER = -1;

/** A text absent (no reason, no funding rate). */
export const NO_TEXT = -1;

/** Room a trade's two order ids take at most in `ids`. */
const TRADE_ID_BYTES = 64;

/** A tape of `capacity` rows at most (`RowTapeData`). */
export class RowTape implements RowTapeData {
  nums: Float64Array<ArrayBuffer>;
  used = 0;
  rows = 0;
  texts: unknown[] = [];
  ids: Uint8Array<ArrayBuffer>;
  idBytes = 0;
  users: [number, string][] = [];
  symbols: [number, string][] = [];

  /**
   * @param spare arrays of a tape handed over earlier and handed back (the writer thread's),
   * to fill again instead of new ones: every number and byte a row holds is written before
   * the builder reads it, so they need no clearing. Used only when they fit `capacity`.
   */
  constructor(capacity: number, spare?: SpareTape) {
    const fits = spare !== undefined && spare.nums.length === capacity * MAX_ROW_NUMS && spare.ids.length >= TRADE_ID_BYTES;
    this.nums = fits ? spare.nums : new Float64Array(capacity * MAX_ROW_NUMS);
    this.ids = fits ? spare.ids : new Uint8Array(Math.min(capacity, 4096) * TRADE_ID_BYTES);
  }

  /** The reason kept last (`reasonText`) and its index in `texts`; reset with the texts. */
  private lastReason: string | undefined = undefined;
  private lastReasonAt = NO_TEXT;

  /** Keeps `text` for the current tape; its index. */
  text(text: unknown): number {
    return this.texts.push(text) - 1;
  }

  /**
   * `text` for a feed row's reason: rows with the reason of the row before share its index (the
   * builder only reads `texts`), so a tape holds a few reasons instead of one per canceled order
   * (~1 row in 6 of a day's: copied into the writer thread's message otherwise).
   */
  reasonText(reason: string): number {
    if (reason === this.lastReason) return this.lastReasonAt;
    this.lastReason = reason;
    return (this.lastReasonAt = this.texts.push(reason) - 1);
  }

  /** `ids` with room for a trade's two ids at `idBytes`. */
  idRoom(): Uint8Array {
    if (this.idBytes + TRADE_ID_BYTES > this.ids.length) {
      const next = new Uint8Array(this.ids.length * 2);
      next.set(this.ids.subarray(0, this.idBytes));
      this.ids = next;
    }
    return this.ids;
  }

  /** Empties the tape for the next batch (its arrays kept: a tape decoded in-process). */
  clear(): void {
    this.used = 0;
    this.rows = 0;
    this.texts = [];
    this.lastReason = undefined;
    this.lastReasonAt = NO_TEXT;
    this.idBytes = 0;
    this.users = [];
    this.symbols = [];
  }
}
