import type { Side } from '../../core/types.ts';
import type { ExternalLevelUpdate } from '../../venue/external-liquidity.ts';

/**
 * One replayed L2 event in venue terms, whatever the source format. `tsNs` is the exchange
 * time (when it happened at the venue); `feedDelayNs` is how much later the recorder received
 * it (receipt − exchange time, as recorded; may be negative when the recorder's clock ran
 * behind, see `feed-delay.ts`). Prices are ticks and sizes lots of the replayed instrument.
 */
export type L2Event = L2BookEvent | L2TradeEvent | L2TickerEvent;

interface Common {
  tsNs: bigint;
  feedDelayNs: bigint;
  /** Index of the replayed market (into the replay's market list). */
  market: number;
}

/** Recorded levels changed; with `reset` the external book is cleared first (a snapshot or a gap). */
export interface L2BookEvent extends Common {
  kind: 'book';
  reset: boolean;
  updates: ExternalLevelUpdate[];
}

/** A recorded trade; `takerSide` undefined when the source does not say. */
export interface L2TradeEvent extends Common {
  kind: 'trade';
  priceTicks: number;
  qtyLots: number;
  takerSide: Side | undefined;
}

/** Recorded reference prices and funding (derivative ticker); decimals as exact text. */
export interface L2TickerEvent extends Common {
  kind: 'ticker';
  markPrice: string | undefined;
  indexPrice: string | undefined;
  fundingRate: string | undefined;
  fundingTsNs: bigint | undefined;
}
