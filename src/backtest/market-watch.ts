import type { SimClock } from '../clock/sim-clock.ts';
import type { TimeNs } from '../core/types.ts';
import type { OrderEvent } from '../venue/order-events.ts';
import type { Market } from '../venue/market.ts';

/** The touch of a book: best bid and ask in ticks, null for an empty side. */
export interface Touch {
  bidTicks: number | null;
  askTicks: number | null;
}

/** The book's touch now. */
export function touchOf(market: Market): Touch {
  return { bidTicks: market.book.bestBidTicks() ?? null, askTicks: market.book.bestAskTicks() ?? null };
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
  /** Engine id → price in ticks of each resting order per side, so a cancel or fill can remove it. */
  private readonly restingBids = new Map<number, number>();
  private readonly restingAsks = new Map<number, number>();
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

  /**
   * One of the account's own order events for this market, read as numbers (no price text
   * parsed, no id text hashed); the clock is asked the time only when the account moved onto or
   * off the touch.
   */
  onOrder(e: OrderEvent, clock: SimClock): void {
    if (e.slot < 0) return; // a rejected cancel names no order
    const remainingLots = e.remainingLots();
    if (e.t === 'n' && remainingLots > 0) {
      const priceTicks = e.priceTicks();
      const bid = e.side() === 'B';
      (bid ? this.restingBids : this.restingAsks).set(e.engineId(), priceTicks);
      bump(bid ? this.bids : this.asks, priceTicks, 1);
    } else if (remainingLots === 0) {
      const bid = e.side() === 'B';
      const resting = bid ? this.restingBids : this.restingAsks;
      const id = e.engineId();
      const priceTicks = resting.get(id);
      if (priceTicks !== undefined) {
        resting.delete(id);
        bump(bid ? this.bids : this.asks, priceTicks, -1);
      }
    }
    this.check(clock);
  }

  /**
   * Re-checks the touch after an own order event (a book change goes to `checkTouch`, the touch
   * read once). The clock is asked the time only when the account moved onto or off the touch: the check runs on every book change of the
   * run, most of which change nothing here (no bigint time made for those). The clock itself,
   * not a closure reading it: a closure is made anew by every run's recorder, and V8, having
   * inlined the last run's, threw this method's compiled code away at the next run's first call.
   */
  check(clock: SimClock): void {
    const book = this.market.book;
    this.checkTouch(this.bids.size === 0 ? undefined : book.bestBidTicks(), this.asks.size === 0 ? undefined : book.bestAskTicks(), clock);
  }

  /** Whether `checkTouch` reads the best bid: the account rests a bid (else the best bid is not its). */
  get wantsBid(): boolean {
    return this.bids.size > 0;
  }

  get wantsAsk(): boolean {
    return this.asks.size > 0;
  }

  /**
   * `check` given the touch, read by the caller (the recorder reads it once for this and the
   * markouts): `bid` must be the best bid when `wantsBid`, and likewise the ask (else anything).
   */
  checkTouch(bid: number | undefined, ask: number | undefined, clock: SimClock): void {
    const atBid = bid !== undefined && this.bids.size > 0 && this.bids.has(bid);
    const atAsk = ask !== undefined && this.asks.size > 0 && this.asks.has(ask);
    if (atBid === this.atBid && atAsk === this.atAsk) return;
    this.close(clock.nowNs);
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
