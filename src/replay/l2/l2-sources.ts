import { basename } from 'node:path';
import type { Side } from '../../core/types.ts';
import type { ExternalLevelUpdate } from '../../venue/external-liquidity.ts';
import { readBinanceRaw } from '../binance-raw.ts';
import { syncBinanceDepth } from '../binance-depth-sync.ts';
import type { Level } from '../levels.ts';
import { mergeByTime } from '../merge.ts';
import { ReplayError } from '../replay-error.ts';
import { readTardisCsv, type TardisAnyBatch } from '../tardis-csv.ts';
import type { L2Event } from './l2-event.ts';

/** Recording formats an L2 replay reads. */
export const L2_FORMATS = ['tardis', 'binance'] as const;
export type L2Format = (typeof L2_FORMATS)[number];

/** One recorded file and the replayed market it feeds. */
export interface L2FileSpec {
  path: string;
  format: L2Format;
  /** Index of the replayed market. */
  market: number;
  /** The market's tick size and the recording's quantity step (= one venue lot), decimal text. */
  tickSize: string;
  lotSize: string;
}

/**
 * Reads every file into one time-ordered list of L2 events (exchange time; at equal times
 * tickers, then trades, then book changes, then file order). Reads are streaming; the result
 * is held in memory, so a replay can run synchronously on the sim clock.
 */
export async function loadL2Events(files: readonly L2FileSpec[], options: { skipBadRows?: boolean } = {}): Promise<L2Event[]> {
  const sources = files.map((f) => ({ items: monotonic(eventsOf(f, options.skipBadRows ?? false)), priority: priorityOf(f), name: f.path }));
  const out: L2Event[] = [];
  for await (const m of mergeByTime(sources, (e) => e.tsNs)) out.push(m.item);
  return out;
}

function eventsOf(f: L2FileSpec, skipBadRows: boolean): AsyncIterable<L2Event> {
  return f.format === 'tardis' ? tardisEvents(f, skipBadRows) : binanceEvents(f, skipBadRows);
}

/** Tardis names its files by data type; the type decides the order at equal times. */
function priorityOf(f: L2FileSpec): number {
  const name = basename(f.path);
  if (/derivative_ticker/.test(name)) return 0;
  if (/trades/.test(name)) return 1;
  return 2;
}

/** A source's exchange times can step back a little (batches, buffered diffs): hold them level. */
async function* monotonic(events: AsyncIterable<L2Event>): AsyncGenerator<L2Event> {
  let last = -1n;
  for await (const e of events) {
    if (e.tsNs < last) e.tsNs = last;
    last = e.tsNs;
    yield e;
  }
}

async function* tardisEvents(f: L2FileSpec, skipBadRows: boolean): AsyncGenerator<L2Event> {
  const stream = readTardisCsv(f.path, { tickSize: f.tickSize, lotSize: f.lotSize, skipBadRows });
  for await (const batch of stream) yield* tardisBatchEvents(batch, f.market);
}

/** One tardis batch (rows with one receipt time) as L2 events. */
function* tardisBatchEvents(batch: TardisAnyBatch, market: number): Generator<L2Event> {
  const local = batch.localTsNs;
  switch (batch.kind) {
    case 'incremental_book_L2': {
      let ts = 0n;
      const updates: ExternalLevelUpdate[] = [];
      for (const r of batch.rows) {
        if (r.exchangeTsNs > ts) ts = r.exchangeTsNs;
        updates.push({ side: r.side, priceTicks: r.priceTicks, qtyLots: r.qtyLots });
      }
      yield { kind: 'book', tsNs: ts, feedDelayNs: local - ts, market, reset: batch.reset, updates };
      return;
    }
    case 'book_snapshot':
      for (const r of batch.rows) {
        yield { kind: 'book', tsNs: r.exchangeTsNs, feedDelayNs: local - r.exchangeTsNs, market, reset: true, updates: [...levels('B', r.bids), ...levels('S', r.asks)] };
      }
      return;
    case 'quotes':
      // Top of book only: each quote restates the whole (one-level) recorded book.
      for (const r of batch.rows) {
        const updates: ExternalLevelUpdate[] = [];
        if (r.bidPriceTicks !== undefined && r.bidQtyLots !== undefined) updates.push({ side: 'B', priceTicks: r.bidPriceTicks, qtyLots: r.bidQtyLots });
        if (r.askPriceTicks !== undefined && r.askQtyLots !== undefined) updates.push({ side: 'S', priceTicks: r.askPriceTicks, qtyLots: r.askQtyLots });
        yield { kind: 'book', tsNs: r.exchangeTsNs, feedDelayNs: local - r.exchangeTsNs, market, reset: true, updates };
      }
      return;
    case 'trades':
      for (const r of batch.rows) {
        yield { kind: 'trade', tsNs: r.exchangeTsNs, feedDelayNs: local - r.exchangeTsNs, market, priceTicks: r.priceTicks, qtyLots: r.qtyLots, takerSide: r.takerSide };
      }
      return;
    case 'derivative_ticker':
      for (const r of batch.rows) {
        yield { kind: 'ticker', tsNs: r.exchangeTsNs, feedDelayNs: local - r.exchangeTsNs, market, markPrice: r.markPrice, indexPrice: r.indexPrice, fundingRate: r.fundingRate, fundingTsNs: r.fundingTsNs };
      }
  }
}

/**
 * A Binance raw capture: depth diffs synced onto the REST snapshot (a chain gap clears the
 * recorded book until the next snapshot) and trades. Book tickers are not used: the synced
 * depth is the book. Exchange time is the message's event time `E`.
 */
async function* binanceEvents(f: L2FileSpec, skipBadRows: boolean): AsyncGenerator<L2Event> {
  const raw = readBinanceRaw(f.path, { tickSize: f.tickSize, lotSize: f.lotSize, skipBadRows });
  // The sync hands on book updates by line; remember each depth line's event time.
  const eventTs = new Map<number, bigint>();
  async function* noted() {
    for await (const e of raw) {
      if (e.kind === 'depth' || e.kind === 'depthSnapshot') eventTs.set(e.line, e.eventTsNs);
      yield e;
    }
  }
  for await (const e of syncBinanceDepth(noted())) {
    if (e.kind === 'trade') {
      yield { kind: 'trade', tsNs: e.eventTsNs, feedDelayNs: e.localTsNs - e.eventTsNs, market: f.market, priceTicks: e.priceTicks, qtyLots: e.qtyLots, takerSide: e.takerSide };
    } else if (e.kind === 'book' || e.kind === 'gap') {
      const ts = eventTs.get(e.line);
      if (ts === undefined) throw new ReplayError(f.path, e.line, undefined, 'book update without a depth message');
      eventTs.delete(e.line);
      const updates = e.kind === 'book' ? [...levels('B', e.bids), ...levels('S', e.asks)] : [];
      yield { kind: 'book', tsNs: ts, feedDelayNs: e.localTsNs - ts, market: f.market, reset: e.kind === 'gap' || e.reset, updates };
    }
  }
}

function levels(side: Side, list: readonly Level[]): ExternalLevelUpdate[] {
  return list.map((l) => ({ side, priceTicks: l.priceTicks, qtyLots: l.qtyLots }));
}
