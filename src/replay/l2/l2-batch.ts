import type { Side } from '../../core/types.ts';
import type { ExternalLevelUpdate } from '../../venue/external-liquidity.ts';
import type { L2Event, L2TickerEvent } from './l2-event.ts';

/** `L2Batch.kind` codes. */
export const L2_BOOK = 0;
export const L2_TRADE = 1;
export const L2_TICKER = 2;

/** `L2Batch.side` / `levelSide` codes. */
export const L2_SIDE_NONE = 0;
export const L2_SIDE_BUY = 1;
export const L2_SIDE_SELL = 2;

/**
 * Replayed L2 events as columns: one row per event (`L2Event`), the book events' levels in
 * columns of their own (`levelStart`..`levelEnd` of each book row). What the replay consumes,
 * batch by batch, so a run holds a batch rather than the recording, and no object per event
 * or per level is made on the replay's thread. Tickers (rare) stay objects.
 */
export interface L2Batch {
  length: number;
  kind: Uint8Array;
  market: Int32Array;
  tsNs: BigInt64Array;
  feedDelayNs: BigInt64Array;
  /** Book rows: 1 when the external book is cleared first. */
  reset: Uint8Array;
  levelStart: Int32Array;
  levelEnd: Int32Array;
  /** Trade rows: taker side, price, lots. */
  side: Uint8Array;
  priceTicks: Float64Array;
  qtyLots: Float64Array;
  levelSide: Uint8Array;
  levelPrice: Float64Array;
  levelQty: Float64Array;
  /** Ticker rows' events by row. */
  tickers: Map<number, L2TickerEvent>;
}

/** Appends events to columns that grow as needed; `take()` hands them out and starts afresh. */
export class L2BatchBuilder {
  private rows = 0;
  private levels = 0;
  private b: L2Batch;

  constructor(private rowCapacity = 4096, private levelCapacity = 65_536) {
    this.b = emptyBatch(rowCapacity, levelCapacity);
  }

  get length(): number {
    return this.rows;
  }
  get levelCount(): number {
    return this.levels;
  }

  add(e: L2Event): void {
    if (e.kind === 'book') {
      this.beginBook(e.market, e.tsNs, e.feedDelayNs, e.reset);
      for (const u of e.updates) this.addLevel(sideCode(u.side), u.priceTicks, u.qtyLots);
    } else if (e.kind === 'trade') {
      this.addTrade(e.market, e.tsNs, e.feedDelayNs, sideCode(e.takerSide), e.priceTicks, e.qtyLots);
    } else {
      this.addTicker(e);
    }
  }

  /** Starts a book row with no levels yet: `addLevel` appends to it until the next row starts. */
  beginBook(market: number, tsNs: bigint, feedDelayNs: bigint, reset: boolean): void {
    const i = this.row(L2_BOOK, market, tsNs, feedDelayNs);
    this.b.reset[i] = reset ? 1 : 0;
  }

  /** One level of the book row begun last (`side` an `L2_SIDE_*` code). */
  addLevel(side: number, priceTicks: number, qtyLots: number): void {
    if (this.levels === this.levelCapacity) this.growLevels();
    const b = this.b;
    const at = this.levels++;
    b.levelSide[at] = side;
    b.levelPrice[at] = priceTicks;
    b.levelQty[at] = qtyLots;
    b.levelEnd[this.rows - 1] = this.levels;
  }

  addTrade(market: number, tsNs: bigint, feedDelayNs: bigint, takerSide: number, priceTicks: number, qtyLots: number): void {
    const i = this.row(L2_TRADE, market, tsNs, feedDelayNs);
    const b = this.b;
    b.side[i] = takerSide;
    b.priceTicks[i] = priceTicks;
    b.qtyLots[i] = qtyLots;
  }

  addTicker(e: L2TickerEvent): void {
    this.b.tickers.set(this.row(L2_TICKER, e.market, e.tsNs, e.feedDelayNs), e);
  }

  /** A new row with no levels (the columns are reused: never stale). */
  private row(kind: number, market: number, tsNs: bigint, feedDelayNs: bigint): number {
    if (this.rows === this.rowCapacity) this.growRows();
    const b = this.b;
    const i = this.rows++;
    b.kind[i] = kind;
    b.market[i] = market;
    b.tsNs[i] = tsNs;
    b.feedDelayNs[i] = feedDelayNs;
    b.levelStart[i] = b.levelEnd[i] = this.levels;
    return i;
  }

  /** The rows added since the last `take` (arrays trimmed to them), and a fresh builder state. */
  take(): L2Batch {
    const b = this.b;
    const n = this.rows;
    const m = this.levels;
    const out: L2Batch = {
      length: n,
      kind: b.kind.slice(0, n),
      market: b.market.slice(0, n),
      tsNs: b.tsNs.slice(0, n),
      feedDelayNs: b.feedDelayNs.slice(0, n),
      reset: b.reset.slice(0, n),
      levelStart: b.levelStart.slice(0, n),
      levelEnd: b.levelEnd.slice(0, n),
      side: b.side.slice(0, n),
      priceTicks: b.priceTicks.slice(0, n),
      qtyLots: b.qtyLots.slice(0, n),
      levelSide: b.levelSide.slice(0, m),
      levelPrice: b.levelPrice.slice(0, m),
      levelQty: b.levelQty.slice(0, m),
      tickers: b.tickers,
    };
    this.rows = 0;
    this.levels = 0;
    b.tickers = new Map();
    return out;
  }

  private growRows(): void {
    this.rowCapacity *= 2;
    const old = this.b;
    const grown = emptyBatch(this.rowCapacity, 0);
    for (const key of ROW_KEYS) (grown[key] as { set(a: ArrayLike<number | bigint>): void }).set(old[key] as never);
    this.b = { ...grown, levelSide: old.levelSide, levelPrice: old.levelPrice, levelQty: old.levelQty, tickers: old.tickers };
  }

  private growLevels(): void {
    this.levelCapacity *= 2;
    const old = this.b;
    const grown = emptyBatch(0, this.levelCapacity);
    grown.levelSide.set(old.levelSide);
    grown.levelPrice.set(old.levelPrice);
    grown.levelQty.set(old.levelQty);
    this.b = { ...old, levelSide: grown.levelSide, levelPrice: grown.levelPrice, levelQty: grown.levelQty };
  }
}

const ROW_KEYS = ['kind', 'market', 'tsNs', 'feedDelayNs', 'reset', 'levelStart', 'levelEnd', 'side', 'priceTicks', 'qtyLots'] as const;

function emptyBatch(rows: number, levels: number): L2Batch {
  return {
    length: 0,
    kind: new Uint8Array(rows),
    market: new Int32Array(rows),
    tsNs: new BigInt64Array(rows),
    feedDelayNs: new BigInt64Array(rows),
    reset: new Uint8Array(rows),
    levelStart: new Int32Array(rows),
    levelEnd: new Int32Array(rows),
    side: new Uint8Array(rows),
    priceTicks: new Float64Array(rows),
    qtyLots: new Float64Array(rows),
    levelSide: new Uint8Array(levels),
    levelPrice: new Float64Array(levels),
    levelQty: new Float64Array(levels),
    tickers: new Map(),
  };
}

export function sideCode(side: Side | undefined): number {
  return side === 'B' ? L2_SIDE_BUY : side === 'S' ? L2_SIDE_SELL : L2_SIDE_NONE;
}

export function sideOfCode(code: number): Side | undefined {
  return code === L2_SIDE_BUY ? 'B' : code === L2_SIDE_SELL ? 'S' : undefined;
}

/** The ArrayBuffers of a batch (to transfer it between threads). */
export function batchBuffers(b: L2Batch): ArrayBuffer[] {
  return [b.kind, b.market, b.tsNs, b.feedDelayNs, b.reset, b.levelStart, b.levelEnd, b.side, b.priceTicks, b.qtyLots, b.levelSide, b.levelPrice, b.levelQty].map((a) => a.buffer as ArrayBuffer);
}

/** Events already in memory as batches of `rows` events (a preloaded recording, tests). */
export function* batchesOf(events: readonly L2Event[], rows = 4096): Generator<L2Batch> {
  const builder = new L2BatchBuilder(rows);
  for (const e of events) {
    builder.add(e);
    if (builder.length >= rows) yield builder.take();
  }
  if (builder.length > 0) yield builder.take();
}

/** The rows of a batch as events (for consumers of whole events: tests, a loaded recording). */
export function eventsOf(b: L2Batch): L2Event[] {
  const out: L2Event[] = new Array(b.length);
  for (let i = 0; i < b.length; i++) {
    const common = { tsNs: b.tsNs[i]!, feedDelayNs: b.feedDelayNs[i]!, market: b.market[i]! };
    const kind = b.kind[i];
    if (kind === L2_BOOK) {
      const updates: ExternalLevelUpdate[] = [];
      for (let j = b.levelStart[i]!; j < b.levelEnd[i]!; j++) updates.push({ side: sideOfCode(b.levelSide[j]!)!, priceTicks: b.levelPrice[j]!, qtyLots: b.levelQty[j]! });
      out[i] = { kind: 'book', ...common, reset: b.reset[i] === 1, updates };
    } else if (kind === L2_TRADE) {
      out[i] = { kind: 'trade', ...common, priceTicks: b.priceTicks[i]!, qtyLots: b.qtyLots[i]!, takerSide: sideOfCode(b.side[i]!) };
    } else {
      out[i] = b.tickers.get(i)!;
    }
  }
  return out;
}
