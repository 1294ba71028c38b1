import type { TimeNs } from '../core/types.ts';
import type { OrderFeed } from '../wire/order.ts';
import type { Market } from '../venue/market.ts';

export { MARKOUT_HORIZONS_S } from './markouts.ts';

/** The touch of a book: best bid and ask in ticks, null for an empty side. */
export interface Touch {
  bidTicks: number | null;
  askTicks: number | null;
}

/** The book's touch now. */
export function touchOf(market: Market): Touch {
  return { bidTicks: market.book.bestBidTicks() ?? null, askTicks: market.book.bestAskTicks() ?? null };
}

/** Mid price × 2 in ticks (stays an integer), null when a side is empty. */
export function midX2(t: Touch): number | null {
  return t.bidTicks === null || t.askTicks === null ? null : t.bidTicks + t.askTicks;
}

/** Time one account spent with a resting order at the best bid and at the best ask, per symbol. */
export interface TouchTime {
  /** Ns with one of the account's orders at the best bid. */
  bidNs: TimeNs;
  askNs: TimeNs;
  /** Ns with orders at both the best bid and the best ask at once. */
  bothNs: TimeNs;
}

/**
 * Per market, what the maker statistics need that the fills alone do not tell: where the
 * account's resting orders are (price → count per side, from its own feeds) and, re-checked at
 * every book change and every own feed, whether one of them sits at the touch; the time spent
 * there accumulates exactly on the sim clock. Reads only.
 */
export class TouchTracker {
  private readonly bids = new Map<number, number>();
  private readonly asks = new Map<number, number>();
  /** Order id → where it rests, so a cancel or fill can remove it. */
  private readonly resting = new Map<string, { side: 'B' | 'S'; priceTicks: number }>();
  private atBid = false;
  private atAsk = false;
  private sinceNs: TimeNs;
  readonly time: TouchTime = { bidNs: 0n, askNs: 0n, bothNs: 0n };

  constructor(
    private readonly market: Market,
    startNs: TimeNs,
  ) {
    this.sinceNs = startNs;
  }

  /** One of the account's own feeds for this market; `nowNs` is asked only when the account moved onto or off the touch. */
  onFeed(feed: OrderFeed, nowNs: () => TimeNs): void {
    const o = feed.o;
    if (o === undefined) return;
    if (feed.t === 'n' && o.rq > 0) {
      const priceTicks = this.market.instrument.tick.toTicks(o.p);
      if (priceTicks !== undefined) {
        this.resting.set(o.oid, { side: o.d, priceTicks });
        bump(o.d === 'B' ? this.bids : this.asks, priceTicks, 1);
      }
    } else if (o.rq === 0) {
      const r = this.resting.get(o.oid);
      if (r !== undefined) {
        this.resting.delete(o.oid);
        bump(r.side === 'B' ? this.bids : this.asks, r.priceTicks, -1);
      }
    }
    this.check(nowNs);
  }

  /**
   * Re-checks the touch (after a book change or an own feed). `nowNs` is asked only when the
   * account moved onto or off the touch: the check runs on every book change of the run, most
   * of which change nothing here (no bigint time made for those).
   */
  check(nowNs: () => TimeNs): void {
    const book = this.market.book;
    const bid = this.bids.size === 0 ? undefined : book.bestBidTicks();
    const ask = this.asks.size === 0 ? undefined : book.bestAskTicks();
    const atBid = bid !== undefined && this.bids.has(bid);
    const atAsk = ask !== undefined && this.asks.has(ask);
    if (atBid === this.atBid && atAsk === this.atAsk) return;
    this.close(nowNs());
    this.atBid = atBid;
    this.atAsk = atAsk;
  }

  /** Adds the time since the last change up to `nowNs` (call at the end of the run). */
  close(nowNs: TimeNs): void {
    const dt = nowNs - this.sinceNs;
    if (this.atBid) this.time.bidNs += dt;
    if (this.atAsk) this.time.askNs += dt;
    if (this.atBid && this.atAsk) this.time.bothNs += dt;
    this.sinceNs = nowNs;
  }
}

function bump(levels: Map<number, number>, priceTicks: number, by: number): void {
  const n = (levels.get(priceTicks) ?? 0) + by;
  if (n <= 0) levels.delete(priceTicks);
  else levels.set(priceTicks, n);
}
