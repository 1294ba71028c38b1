import type { BinanceRawStream } from './binance-raw.ts';
import { BinanceDepthSync, type BinanceSyncedEvent } from './binance-depth-sync.ts';
import type { Level, PackedLevels } from './levels.ts';
import { MarketBatchArrays } from './market-batch.ts';
import { KIND_BOOK, KIND_QUOTE, KIND_TRADE, SIDE_BUY, SIDE_NONE, SIDE_SELL, type MarketBatch } from './market-records.ts';

/**
 * A Binance capture through Binance's depth rule (`BinanceDepthSync`) as normalized rows in
 * columns (`MarketBatch`, one batch per chunk the reader decodes, its arrays reused): a synced
 * snapshot → reset + levels, a diff → its levels, a gap → a reset row with no level (the book
 * is empty until the next snapshot), trade → trade, bookTicker → quote. Receive time is the
 * capture's; exchange time is every message's event time `E` (the one clock that depth diffs,
 * the snapshot, trades and tickers share), so a replay at exchange time keeps their order.
 * A replay of the capture reads these columns with no object per level (`L2ColumnBuilder.batch`);
 * `binanceRecords` (normalize.ts) is the same rows as record objects.
 */
export async function* binanceBatches(stream: BinanceRawStream, symbol: string, sync = new BinanceDepthSync()): AsyncGenerator<MarketBatch> {
  const out = new MarketBatchArrays();
  out.symbols = [symbol];
  // Trade ids as numbers, made text only when a reader asks (the replay never does; String() per trade was a fifth of this loop).
  const tradeIds: number[] = [];
  out.tradeId = (row) => {
    const id = tradeIds[row];
    return id === undefined ? undefined : String(id);
  };
  const synced: BinanceSyncedEvent[] = [];
  // The sync hands on book updates by line: each depth line's event time, until it is applied.
  const eventTs = new Map<number, bigint>();
  for await (const events of stream.chunks()) {
    for (const e of events) {
      if (e.kind === 'depth' || e.kind === 'depthSnapshot') eventTs.set(e.line, e.eventTsNs);
      sync.push(e, synced);
    }
    out.resize(rowCount(synced));
    out.symbol.fill(0);
    tradeIds.length = 0;
    let row = 0;
    for (const e of synced) {
      if (e.kind === 'book') {
        const exchNs = eventTs.get(e.line) ?? e.localTsNs;
        eventTs.delete(e.line);
        const first = row;
        if (e.packed !== undefined) row = packedLevels(out, row, e.packed, e.localTsNs, exchNs);
        else {
          row = levels(out, row, SIDE_BUY, e.bids, e.localTsNs, exchNs);
          row = levels(out, row, SIDE_SELL, e.asks, e.localTsNs, exchNs);
        }
        if (e.reset && row === first) row = noLevel(out, row, e.localTsNs, exchNs);
        else if (e.reset) out.reset[first] = 1;
      } else if (e.kind === 'gap') {
        // The gapped diff waits for the next snapshot: its time stays known.
        row = noLevel(out, row, e.localTsNs, eventTs.get(e.line) ?? e.localTsNs);
      } else if (e.kind === 'trade') {
        out.kind[row] = KIND_TRADE;
        out.recvNs[row] = e.localTsNs;
        out.exchNs[row] = e.eventTsNs;
        out.side[row] = e.takerSide === 'B' ? SIDE_BUY : SIDE_SELL;
        out.priceTicks[row] = e.priceTicks;
        out.qtyLots[row] = e.qtyLots;
        out.reset[row] = 0;
        tradeIds[row++] = e.tradeId;
      } else {
        out.kind[row] = KIND_QUOTE;
        out.recvNs[row] = e.localTsNs;
        out.exchNs[row] = e.eventTsNs;
        out.side[row] = SIDE_NONE;
        out.reset[row] = 0;
        out.bidTicks[row] = e.bidPriceTicks;
        out.bidQtyLots[row] = e.bidQtyLots;
        out.askTicks[row] = e.askPriceTicks;
        out.askQtyLots[row++] = e.askQtyLots;
      }
    }
    synced.length = 0;
    yield out;
  }
}

function rowCount(synced: readonly BinanceSyncedEvent[]): number {
  let n = 0;
  for (const e of synced) n += e.kind === 'book' ? Math.max(e.packed !== undefined ? e.packed.values.length / 2 : e.bids.length + e.asks.length, e.reset ? 1 : 0) : 1;
  return n;
}

/** Book rows of one side of an update, from `row`; returns the next row. */
function levels(out: MarketBatchArrays, row: number, side: number, list: readonly Level[], recvNs: bigint, exchNs: bigint): number {
  for (let i = 0; i < list.length; i++, row++) {
    out.kind[row] = KIND_BOOK;
    out.recvNs[row] = recvNs;
    out.exchNs[row] = exchNs;
    out.reset[row] = 0;
    out.side[row] = side;
    out.priceTicks[row] = list[i]!.priceTicks;
    out.qtyLots[row] = list[i]!.qtyLots;
  }
  return row;
}

/** Book rows of an update's packed levels (bids, then asks), from `row`; returns the next row. */
function packedLevels(out: MarketBatchArrays, row: number, packed: PackedLevels, recvNs: bigint, exchNs: bigint): number {
  const { values, bids } = packed;
  for (let i = 0; i < values.length; i += 2, row++) {
    out.kind[row] = KIND_BOOK;
    out.recvNs[row] = recvNs;
    out.exchNs[row] = exchNs;
    out.reset[row] = 0;
    out.side[row] = i < 2 * bids ? SIDE_BUY : SIDE_SELL;
    out.priceTicks[row] = values[i]!;
    out.qtyLots[row] = values[i + 1]!;
  }
  return row;
}

/** A reset row that carries no level (an empty snapshot, or a gap: the book is emptied). */
function noLevel(out: MarketBatchArrays, row: number, recvNs: bigint, exchNs: bigint): number {
  out.kind[row] = KIND_BOOK;
  out.recvNs[row] = recvNs;
  out.exchNs[row] = exchNs;
  out.reset[row] = 1;
  out.side[row] = SIDE_NONE;
  out.priceTicks[row] = 0;
  out.qtyLots[row] = 0;
  return row + 1;
}
