import type { Side } from '../../src/core/types.ts';
import type { BookEvent, L3LevelView, L3View, PlaceCommand } from '../../src/book/events.ts';
import type { SelfTradePolicy } from '../../src/book/order-book.ts';

/** A resting order in the reference book. */
interface RefOrder {
  orderId: number;
  ownerId: number;
  side: Side;
  priceTicks: number;
  qtyLots: number;
}

/**
 * A deliberately naive order book used as the oracle for differential tests.
 *
 * Each side is a plain array of orders in arrival order; every question is answered by a
 * linear scan. Time priority therefore falls out of array order (an order is appended when it
 * rests and never moves afterwards, so a reduce keeps its place). Nothing here is fast, and
 * nothing here may be clever: its value is being obviously right.
 */
export class ReferenceBook {
  private readonly bids: RefOrder[] = [];
  private readonly asks: RefOrder[] = [];
  private readonly selfTrade: SelfTradePolicy;

  constructor(options: { selfTrade?: SelfTradePolicy } = {}) {
    this.selfTrade = options.selfTrade ?? 'allow';
  }

  bestBidTicks(): number | undefined {
    let best: number | undefined;
    for (const o of this.bids) if (best === undefined || o.priceTicks > best) best = o.priceTicks;
    return best;
  }

  bestAskTicks(): number | undefined {
    let best: number | undefined;
    for (const o of this.asks) if (best === undefined || o.priceTicks < best) best = o.priceTicks;
    return best;
  }

  place(cmd: PlaceCommand, out: BookEvent[] = []): BookEvent[] {
    if (!Number.isSafeInteger(cmd.priceTicks)) throw new RangeError('price must be an integer');
    if (!Number.isSafeInteger(cmd.qtyLots) || cmd.qtyLots <= 0) throw new RangeError('qty must be a positive integer');
    if (this.find(cmd.orderId) !== undefined) throw new RangeError('duplicate order id');

    const isBuy = cmd.side === 'B';
    if (cmd.postOnly) {
      const ask = this.bestAskTicks();
      const bid = this.bestBidTicks();
      const crosses = isBuy ? ask !== undefined && ask <= cmd.priceTicks : bid !== undefined && bid >= cmd.priceTicks;
      if (crosses) {
        out.push({ kind: 'rejected', orderId: cmd.orderId, reason: 'POST_ONLY_WOULD_CROSS' });
        return out;
      }
    }

    const opposite = isBuy ? this.asks : this.bids;
    let remaining = cmd.qtyLots;
    while (remaining > 0) {
      const index = this.bestMakerIndex(opposite, isBuy);
      if (index === -1) break;
      const maker = opposite[index]!;
      const acceptable = isBuy ? maker.priceTicks <= cmd.priceTicks : maker.priceTicks >= cmd.priceTicks;
      if (!acceptable) break;

      if (this.selfTrade === 'cancel-resting' && maker.ownerId === cmd.ownerId) {
        opposite.splice(index, 1);
        out.push({ kind: 'canceled', orderId: maker.orderId, qtyLots: maker.qtyLots, reason: 'SELF_TRADE' });
        continue;
      }

      const traded = Math.min(maker.qtyLots, remaining);
      maker.qtyLots -= traded;
      remaining -= traded;
      out.push({
        kind: 'trade',
        makerId: maker.orderId,
        makerOwnerId: maker.ownerId,
        takerId: cmd.orderId,
        takerOwnerId: cmd.ownerId,
        takerSide: cmd.side,
        priceTicks: maker.priceTicks,
        qtyLots: traded,
        makerRemainingLots: maker.qtyLots,
        takerRemainingLots: remaining,
      });
      if (maker.qtyLots === 0) opposite.splice(index, 1);
    }

    if (remaining === 0) return out;
    if (cmd.tif === 'IOC') {
      out.push({ kind: 'expired', orderId: cmd.orderId, qtyLots: remaining });
      return out;
    }
    (isBuy ? this.bids : this.asks).push({
      orderId: cmd.orderId,
      ownerId: cmd.ownerId,
      side: cmd.side,
      priceTicks: cmd.priceTicks,
      qtyLots: remaining,
    });
    out.push({ kind: 'rested', orderId: cmd.orderId, side: cmd.side, priceTicks: cmd.priceTicks, qtyLots: remaining });
    return out;
  }

  cancel(orderId: number, out: BookEvent[] = []): BookEvent[] {
    const found = this.find(orderId);
    if (found === undefined) {
      out.push({ kind: 'cancel-rejected', orderId, reason: 'UNKNOWN_ORDER' });
      return out;
    }
    const [orders, index] = found;
    const order = orders[index]!;
    orders.splice(index, 1);
    out.push({ kind: 'canceled', orderId, qtyLots: order.qtyLots, reason: 'REQUESTED' });
    return out;
  }

  reduce(orderId: number, byLots: number, out: BookEvent[] = []): BookEvent[] {
    if (!Number.isSafeInteger(byLots) || byLots <= 0) throw new RangeError('reduce must be a positive integer');
    const found = this.find(orderId);
    if (found === undefined) {
      out.push({ kind: 'cancel-rejected', orderId, reason: 'UNKNOWN_ORDER' });
      return out;
    }
    const [orders, index] = found;
    const order = orders[index]!;
    if (byLots >= order.qtyLots) return this.cancel(orderId, out);
    order.qtyLots -= byLots;
    out.push({ kind: 'reduced', orderId, byLots, remainingLots: order.qtyLots });
    return out;
  }

  l3(): L3View {
    return { bids: this.sideL3(this.bids, true), asks: this.sideL3(this.asks, false) };
  }

  /** Index of the best-priced, earliest order on a side, or -1 when the side is empty. */
  private bestMakerIndex(orders: RefOrder[], takerIsBuy: boolean): number {
    let best = -1;
    for (let i = 0; i < orders.length; i++) {
      const price = orders[i]!.priceTicks;
      if (best === -1) {
        best = i;
        continue;
      }
      const bestPrice = orders[best]!.priceTicks;
      // Strictly better only: on equal price the earlier order (lower index) keeps priority.
      if (takerIsBuy ? price < bestPrice : price > bestPrice) best = i;
    }
    return best;
  }

  private find(orderId: number): [RefOrder[], number] | undefined {
    for (const orders of [this.bids, this.asks]) {
      for (let i = 0; i < orders.length; i++) if (orders[i]!.orderId === orderId) return [orders, i];
    }
    return undefined;
  }

  private sideL3(orders: RefOrder[], descending: boolean): L3LevelView[] {
    const prices: number[] = [];
    for (const o of orders) if (!prices.includes(o.priceTicks)) prices.push(o.priceTicks);
    prices.sort((a, b) => (descending ? b - a : a - b));
    return prices.map((priceTicks) => {
      const atPrice = orders.filter((o) => o.priceTicks === priceTicks);
      let qtyLots = 0;
      for (const o of atPrice) qtyLots += o.qtyLots;
      return { priceTicks, qtyLots, orders: atPrice.map((o) => ({ orderId: o.orderId, qtyLots: o.qtyLots })) };
    });
  }
}
