import type { Side } from '../../core/types.ts';
import type { Market } from '../../venue/market.ts';
import type { LevelColumns } from '../../venue/external-liquidity.ts';
import { L2_SIDE_BUY } from '../l2/l2-batch.ts';

/**
 * The recorded touch of each replayed market in an L1 replay, for the queue tracker: a level
 * worse than the touch is not shown by the recording — unknown, not empty — so an order resting
 * there keeps its queue estimate (an order accepted there waits, `Infinity` ahead, until its
 * level becomes the touch and joins behind what is shown then). A level at or better than the
 * touch is shown (better: empty). A side without a recorded touch shows nothing.
 */
export class RecordedTouch {
  private readonly bid = new Map<Market, number>();
  private readonly ask = new Map<Market, number>();

  /** A quote was applied to `market` (an L1 book event: a reset to at most one level a side). */
  observe(market: Market, levels: LevelColumns): void {
    this.bid.delete(market);
    this.ask.delete(market);
    for (let i = levels.from; i < levels.to; i++) (levels.side[i] === L2_SIDE_BUY ? this.bid : this.ask).set(market, levels.priceTicks[i]!);
  }

  /** Whether the recording does not show the level (side, priceTicks) of `market`. */
  readonly hidden = (market: Market, side: Side, priceTicks: number): boolean => {
    const touch = (side === 'B' ? this.bid : this.ask).get(market);
    if (touch === undefined) return true;
    return side === 'B' ? priceTicks < touch : priceTicks > touch;
  };
}
