import type { OwnOrders } from './own-orders.ts';

/**
 * Both sides of a market maker's ladder sorted in one pass over its own orders and one over
 * its in-flight inserts (`sort`), where the requote took five: each side's orders, each side's
 * inserts, then both again for the self-cross guard. What it does and sends is the same as
 * sorting the bids, then the asks, then finding the extremes (the test keeps that version as
 * its oracle): the bids' cancels go out as the pass meets them, the asks' are held and sent
 * after it, in the order the pass met them, as the second pass sent them; a cancel changes
 * only its order's `canceling` flag, which only that order's own step reads.
 *
 * Results are fields (valid until the next `sort`): no object per requote.
 */
export class QuoteLadder {
  /** Levels with no order (bit i set = level i needs one), per side. */
  bidGaps = 0;
  askGaps = 0;
  /** Highest own bid and lowest own ask still standing or in flight, after the cancels. */
  maxOwnBid = -Infinity;
  minOwnAsk = Infinity;
  /**
   * The asks to cancel, held while the pass runs: the first `askCancelCount` entries (a count,
   * not `length = 0`, a call into the runtime; entries are cleared as they go, keeping no order).
   */
  private readonly askCancels: (Parameters<OwnOrders['cancel']>[0] | undefined)[] = [];

  constructor(private readonly orders: OwnOrders) {}

  /**
   * Sorts the resting and in-flight orders of each side into level buckets around its level 0
   * (bucket i holds prices about i·spacing behind level 0) and cancels those more aggressive
   * than level 0, beyond the last level, or doubling a bucket; a side to clear (`clearBids`,
   * `clearAsks`: the inventory's hard limit) has every order canceled and no gaps.
   */
  sort(symbol: string, levels: number, bid0Ticks: number, ask0Ticks: number, spacing: number, clearBids: boolean, clearAsks: boolean): void {
    const orders = this.orders;
    const askCancels = this.askCancels;
    let askCancelCount = 0;
    let bids = 0;
    let asks = 0;
    let maxBid = -Infinity;
    let minAsk = Infinity;
    // Indexed loops, not `for…of`: V8 left these on the generic array iterator (a builtin call per
    // order, ~6 % of the simulation's agents); the length is read every step, as the iterator does.
    const open = orders.orders(symbol);
    for (let k = 0; k < open.length; k++) {
      const o = open[k]!;
      if (o.canceling) continue; // neither bucketed nor an extreme; clearing it again sends nothing
      const bid = o.side === 'B';
      if (bid ? clearBids : clearAsks) {
        if (bid) orders.cancel(o);
        else askCancels[askCancelCount++] = o;
        continue;
      }
      const depth = bid ? bid0Ticks - o.priceTicks : o.priceTicks - ask0Ticks;
      const b = depth < 0 ? -1 : Math.floor(depth / spacing + 0.5);
      const occupied = bid ? bids : asks;
      if (b < 0 || b >= levels || (occupied & (1 << b)) !== 0) {
        if (bid) orders.cancel(o);
        else askCancels[askCancelCount++] = o;
      } else if (bid) {
        bids |= 1 << b;
        if (o.priceTicks > maxBid) maxBid = o.priceTicks;
      } else {
        asks |= 1 << b;
        if (o.priceTicks < minAsk) minAsk = o.priceTicks;
      }
    }
    for (let i = 0; i < askCancelCount; i++) {
      orders.cancel(askCancels[i]!);
      askCancels[i] = undefined;
    }
    const inFlight = orders.inFlightOrders(symbol);
    for (let k = 0; k < inFlight.length; k++) {
      const f = inFlight[k]!;
      const bid = f.side === 'B';
      const depth = bid ? bid0Ticks - f.priceTicks : f.priceTicks - ask0Ticks;
      const b = depth < 0 ? -1 : Math.floor(depth / spacing + 0.5);
      if (bid) {
        if (b >= 0 && b < levels) bids |= 1 << b;
        if (f.priceTicks > maxBid) maxBid = f.priceTicks;
      } else {
        if (b >= 0 && b < levels) asks |= 1 << b;
        if (f.priceTicks < minAsk) minAsk = f.priceTicks;
      }
    }
    const all = (1 << levels) - 1;
    this.bidGaps = clearBids ? 0 : ~bids & all;
    this.askGaps = clearAsks ? 0 : ~asks & all;
    this.maxOwnBid = maxBid;
    this.minOwnAsk = minAsk;
  }
}
