import type { Side } from '../core/types.ts';
import type { BinanceRawStream } from './binance-raw.ts';
import { binanceBatches } from './binance-batches.ts';
import { BinanceDepthSync } from './binance-depth-sync.ts';
import { ChunkedStream } from './chunked-stream.ts';
import type { Level } from './levels.ts';
import type { LobsterStream } from './lobster-reader.ts';
import { batchRecords, bookRows, levelDiff, type MarketRecord } from './market-records.ts';
import type { TardisAnyBatch, TardisStream } from './tardis-csv.ts';

/**
 * The readers' own row types as normalized market records (`market-records.ts`), chunk by
 * chunk as the readers decode them: what `perpsim convert` writes and what a replay that
 * wants one shape for every source consumes.
 */

/**
 * tardis batches: incremental_book_L2 → book rows (reset at a snapshot start), trades → trade,
 * quotes → quote, book_snapshot_N → a reset plus its levels per row, derivative_ticker → stats.
 * `recvNs` is the batch's `local_timestamp`, `exchNs` the row's `timestamp`.
 */
export function tardisRecords(stream: TardisStream<TardisAnyBatch>): ChunkedStream<MarketRecord> {
  return new ChunkedStream(async function* () {
    for await (const chunk of stream.chunks()) {
      const out: MarketRecord[] = [];
      for (const batch of chunk) appendTardis(batch, out);
      yield out;
    }
  });
}

function appendTardis(batch: TardisAnyBatch, out: MarketRecord[]): void {
  const { symbol, localTsNs: recvNs } = batch;
  switch (batch.kind) {
    case 'incremental_book_L2':
      batch.rows.forEach((r, i) => {
        out.push({ kind: 'book', recvNs, exchNs: r.exchangeTsNs, symbol, reset: batch.reset && i === 0, side: r.side, priceTicks: r.priceTicks, qtyLots: r.qtyLots });
      });
      return;
    case 'trades':
      for (const r of batch.rows) {
        out.push({ kind: 'trade', recvNs, exchNs: r.exchangeTsNs, symbol, side: r.takerSide, priceTicks: r.priceTicks, qtyLots: r.qtyLots, tradeId: r.tradeId });
      }
      return;
    case 'quotes':
      for (const r of batch.rows) {
        out.push({ kind: 'quote', recvNs, exchNs: r.exchangeTsNs, symbol, bidTicks: r.bidPriceTicks, bidQtyLots: r.bidQtyLots, askTicks: r.askPriceTicks, askQtyLots: r.askQtyLots });
      }
      return;
    case 'book_snapshot':
      for (const r of batch.rows) out.push(...bookRows(symbol, recvNs, r.exchangeTsNs, true, r.bids, r.asks));
      return;
    case 'derivative_ticker':
      for (const r of batch.rows) {
        const { exchangeTsNs, ...fields } = r;
        const stats: MarketRecord = { kind: 'stats', recvNs, exchNs: exchangeTsNs, symbol };
        for (const [key, value] of Object.entries(fields)) if (value !== undefined) Object.assign(stats, { [key]: value });
        out.push(stats);
      }
      return;
  }
}

/**
 * LOBSTER rows: executions (types 4 and 5) → trade (the taker is the other side of the
 * executed order; type 6 cross trades have no side), and the orderbook row → the book rows
 * that turn the previous row's top levels into this one's (the first row a reset snapshot).
 * The book is the file's top N levels only: a level leaving the top N reads as removed.
 */
export function lobsterRecords(stream: LobsterStream): ChunkedStream<MarketRecord> {
  const symbol = stream.files.ticker;
  return new ChunkedStream(async function* () {
    let bids: Level[] | undefined;
    let asks: Level[] = [];
    for await (const rows of stream.chunks()) {
      const out: MarketRecord[] = [];
      for (const r of rows) {
        const t = r.tsNs;
        if (r.type === 4 || r.type === 5 || r.type === 6) {
          const side: Side | undefined = r.type === 6 ? undefined : r.side === 'B' ? 'S' : 'B';
          out.push({ kind: 'trade', recvNs: t, exchNs: t, symbol, side, priceTicks: r.priceTicks, qtyLots: r.size, tradeId: undefined });
        }
        if (bids === undefined) {
          out.push(...bookRows(symbol, t, t, true, r.bids, r.asks));
        } else {
          const row = (side: Side, priceTicks: number, qtyLots: number): void => {
            out.push({ kind: 'book', recvNs: t, exchNs: t, symbol, reset: false, side, priceTicks, qtyLots });
          };
          levelDiff('B', bids, r.bids, row);
          levelDiff('S', asks, r.asks, row);
        }
        bids = r.bids;
        asks = r.asks;
      }
      yield out;
    }
  });
}

/** A Binance capture's normalized rows (`binanceBatches`, columns) as record objects. */
export function binanceRecords(stream: BinanceRawStream, symbol: string, sync = new BinanceDepthSync()): ChunkedStream<MarketRecord> {
  return new ChunkedStream(async function* () {
    for await (const b of binanceBatches(stream, symbol, sync)) yield batchRecords(b);
  });
}
