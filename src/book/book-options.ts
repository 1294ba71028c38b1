import type { OrderIndex } from './id-index.ts';

/** How the book treats a taker meeting a resting order of the same owner. */
export type SelfTradePolicy = 'allow' | 'cancel-resting';

export interface OrderBookOptions {
  /** Default `allow`: the venue does not document self-trade prevention (decisions.md). */
  selfTrade?: SelfTradePolicy;
  /** The owner recorded (external) quantity shows (default -1); no account's: it never self-trades. */
  externalOwner?: number;
  /**
   * Order id → record, kept by the caller (default: the book's own `IdIndex`). A venue passes an
   * index over its own order records, so that one table, not two, is probed per cancel and per
   * filled maker. It must hold exactly what the book adds and takes.
   */
  ids?: OrderIndex;
}
