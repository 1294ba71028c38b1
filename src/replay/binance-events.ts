import type { Side } from '../core/types.ts';
import type { Level, PackedLevels } from './levels.ts';

/** The events a Binance raw capture's lines decode to (`binance-raw.ts`), by `kind`. */

interface Common {
  /** Receipt time (first column), exact ns. */
  localTsNs: bigint;
  /** `E`: event (push) time, ms → ns. */
  eventTsNs: bigint;
  /** `T`: matching-engine time, ms → ns. */
  transactTsNs: bigint;
  /** 1-based line in the (decompressed) file. */
  line: number;
}

/** A diff-depth message: absolute new quantities (0 removes the level) for update ids U..u. */
export interface BinanceDepthDiff extends Common {
  kind: 'depth';
  firstUpdateId: number;
  finalUpdateId: number;
  /** `pu`: the final update id of the previous diff; the chain check. */
  prevFinalUpdateId: number;
  bids: Level[];
  asks: Level[];
  /** With `packedLevels`: the levels, and `bids` / `asks` are empty. */
  packed?: PackedLevels | undefined;
}

/** One trade; `takerSide` is 'S' when the buyer was the maker (`m`). */
export interface BinanceTrade extends Common {
  kind: 'trade';
  tradeId: number;
  priceTicks: number;
  qtyLots: number;
  takerSide: Side;
}

/** Best bid and ask after update `updateId`. */
export interface BinanceBookTicker extends Common {
  kind: 'bookTicker';
  updateId: number;
  bidPriceTicks: number;
  bidQtyLots: number;
  askPriceTicks: number;
  askQtyLots: number;
}

/** The REST depth snapshot, complete up to `lastUpdateId`. */
export interface BinanceDepthSnapshot extends Common {
  kind: 'depthSnapshot';
  lastUpdateId: number;
  bids: Level[];
  asks: Level[];
}

/** Any line of a capture, by `kind`. */
export type BinanceRawEvent = BinanceDepthDiff | BinanceTrade | BinanceBookTicker | BinanceDepthSnapshot;
