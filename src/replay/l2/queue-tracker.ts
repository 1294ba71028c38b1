import type { Side } from '../../core/types.ts';
import type { VenueTrade } from '../../venue/feeds.ts';
import type { OrderFeed } from '../../wire/order.ts';
import { EXTERNAL_OWNER } from '../../venue/external-owner.ts';
import type { LevelColumns } from '../../venue/external-liquidity.ts';
import type { Market } from '../../venue/market.ts';
import type { Venue } from '../../venue/venue.ts';
import { takeFillable, type QueueModel, type QueueState } from './queue-model.ts';

/** An account order resting in a replayed market, with its queue estimate. */
export interface TrackedOrder extends QueueState {
  orderId: string;
  side: Side;
  priceTicks: number;
  /** Arrival order, for deterministic priority among own orders at one price. */
  seq: number;
  /** L1 replay: its level is behind the recorded touch, not shown (the estimate is kept). */
  unseen?: boolean;
}

/** Whether the recording does not show a level (an L1 replay's levels behind the touch). */
export type LevelHidden = (market: Market, side: Side, priceTicks: number) => boolean;

/** A fill the replay owes an account order because a recorded trade reached it. */
export interface OwedFill {
  orderId: string;
  lots: number;
  priceTicks: number;
}

/** What `displayedBefore` returns when no order is tracked (never written to). */
const NOTHING_WATCHED: Map<number, number> = new Map();

const TERMINAL = new Set(['f', 'c', 'x', 'd', 'j']);

/**
 * Where every account order resting in a replayed market stands in its recorded level. It
 * learns about orders from the venue's order feeds (an order joins behind the external lots
 * displayed at its price when it is accepted) and about taker trades against recorded
 * liquidity from the trade feed; the replayer tells it about recorded trades and level
 * changes. Reads the venue, never calls into it: fills it decides are returned, for the
 * replayer to execute.
 */
export class QueueTracker {
  private readonly byMarket = new Map<Market, TrackedOrder[]>();
  private seq = 0;

  constructor(
    private readonly venue: Venue,
    readonly model: QueueModel,
    private readonly markets: ReadonlySet<Market>,
    /** Levels the recording does not show (L1): unknown, not empty; default every level is shown. */
    private readonly hidden?: LevelHidden,
  ) {
    venue.subscribe({
      orderFeed: (_userId, feed) => this.onFeed(feed),
      trade: (t, market) => this.onVenueTrade(t, market),
    });
  }

  /** Tracked orders of `market` (for tests and reports). */
  orders(market: Market): readonly TrackedOrder[] {
    return this.byMarket.get(market) ?? [];
  }

  /**
   * A recorded trade: orders priced through it are owed a fill outright (they were better
   * than the printed price), orders at its price when the queue ahead is used up; the trade's
   * quantity is shared out best price first, so fills never exceed it. Returns the fills and
   * the lots left for the recorded participants.
   */
  recordedTrade(market: Market, priceTicks: number, lots: number, takerSide: Side): { fills: OwedFill[]; restLots: number } {
    const fills: OwedFill[] = [];
    const makerSide: Side = takerSide === 'B' ? 'S' : 'B';
    const reached = this.orders(market)
      .filter((o) => o.side === makerSide && (makerSide === 'B' ? o.priceTicks >= priceTicks : o.priceTicks <= priceTicks))
      .sort((a, b) => (a.priceTicks === b.priceTicks ? a.seq - b.seq : makerSide === 'B' ? b.priceTicks - a.priceTicks : a.priceTicks - b.priceTicks));
    let rest = lots;
    for (const o of reached) {
      const order = this.venue.openOrder(o.orderId);
      if (order === undefined) continue;
      const open = order.qtyLots - order.filledLots;
      let fill: number;
      if (o.priceTicks !== priceTicks) fill = Math.min(rest, open);
      else {
        this.model.trade(o, rest);
        fill = Math.min(takeFillable(o), open, rest);
      }
      if (fill > 0) {
        fills.push({ orderId: o.orderId, lots: fill, priceTicks: o.priceTicks });
        rest -= fill;
      }
    }
    return { fills, restLots: rest };
  }

  /** External lots displayed now at the levels of tracked orders that the updates touch (call before applying them). */
  displayedBefore(market: Market, updates: LevelColumns, reset: boolean): Map<number, number> {
    const orders = this.orders(market);
    if (orders.length === 0) return NOTHING_WATCHED; // the common case: nothing to estimate
    const prev = new Map<number, number>();
    const watched = new Set<number>();
    for (const o of orders) watched.add(levelKey(o.side, o.priceTicks));
    const note = (side: Side, priceTicks: number) => prev.set(levelKey(side, priceTicks), this.venue.external.displayedLots(market, side, priceTicks));
    if (reset) for (const o of orders) note(o.side, o.priceTicks);
    else {
      for (let i = updates.from; i < updates.to; i++) {
        const side: Side = updates.side[i] === 1 ? 'B' : 'S';
        const priceTicks = updates.priceTicks[i]!;
        if (watched.has(levelKey(side, priceTicks))) note(side, priceTicks);
      }
    }
    return prev;
  }

  /**
   * After recorded levels changed: every order at a changed level updates its estimate. Any
   * other order is capped at what its level displays (a level the recording crossed away).
   */
  levelsChanged(market: Market, prev: Map<number, number>): void {
    for (const o of this.orders(market)) {
      const after = this.venue.external.displayedLots(market, o.side, o.priceTicks);
      if (this.hidden !== undefined && this.unseenLevel(market, o, after)) continue;
      const before = prev.get(levelKey(o.side, o.priceTicks));
      if (before === undefined) o.ahead = Math.min(o.ahead, after);
      else if (after !== before) this.model.levelChanged(o, before, after);
    }
  }

  /**
   * L1: an order whose level is not shown keeps its estimate (true: skip it); one whose level
   * shows again after being unseen joins behind at most what is shown.
   */
  private unseenLevel(market: Market, o: TrackedOrder, shownLots: number): boolean {
    if (this.hidden!(market, o.side, o.priceTicks)) return (o.unseen = true);
    if (o.unseen !== true) return false;
    o.unseen = false;
    o.ahead = Math.min(o.ahead, shownLots);
    o.tradedSinceChange = 0;
    return true;
  }

  private onFeed(feed: OrderFeed): void {
    const wire = feed.o;
    if (wire === undefined) return;
    const market = this.venue.market(wire.s);
    if (market === undefined || !this.markets.has(market)) return;
    const list = this.byMarket.get(market) ?? [];
    this.byMarket.set(market, list);
    if (feed.t === 'n') {
      const priceTicks = market.instrument.tick.toTicks(wire.p)!;
      // Joins behind what the recording displays at its price now (L1, a level not shown: unknown).
      const unseen = this.hidden?.(market, wire.d, priceTicks) === true;
      const ahead = unseen ? Infinity : this.venue.external.displayedLots(market, wire.d, priceTicks);
      list.push({ orderId: wire.oid, side: wire.d, priceTicks, seq: this.seq++, ahead, tradedSinceChange: 0, ...(unseen ? { unseen } : {}) });
    } else if (TERMINAL.has(feed.t)) {
      const i = list.findIndex((o) => o.orderId === wire.oid);
      if (i >= 0) list.splice(i, 1);
    }
  }

  /** An account took recorded liquidity at a price: that part of the queue is gone. */
  private onVenueTrade(t: VenueTrade, market: Market): void {
    if (t.makerUserId !== EXTERNAL_OWNER || t.takerUserId === EXTERNAL_OWNER) return;
    const makerSide: Side = t.takerSide === 'B' ? 'S' : 'B';
    for (const o of this.orders(market)) {
      if (o.side === makerSide && o.priceTicks === t.priceTicks) o.ahead = Math.max(0, o.ahead - t.qtyLots);
    }
  }
}

/** A level as one number: price for bids, −price for asks. */
function levelKey(side: Side, priceTicks: number): number {
  return side === 'B' ? priceTicks : -priceTicks;
}
