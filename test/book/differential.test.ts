import { describe, it, expect, assert } from 'vitest';
import { OrderBook, type SelfTradePolicy } from '../../src/book/order-book.ts';
import type { BookEvent, L3LevelView, L3View, PlaceCommand } from '../../src/book/events.ts';
import type { Side } from '../../src/core/types.ts';
import { RandomStream } from '../../src/random/random-stream.ts';
import { ReferenceBook } from './reference-book.ts';

const COMMANDS_PER_RUN = 12_000;
const OWNERS = [1, 2, 3, 4] as const;

type Command =
  | { op: 'place'; cmd: PlaceCommand }
  | { op: 'cancel'; orderId: number }
  | { op: 'reduce'; orderId: number; byLots: number };

/** Totals computed from the events alone, never from either book. */
interface Tally {
  acceptedLots: number;
  tradedLots: number;
  expiredLots: number;
  canceledLots: number;
  reducedLots: number;
  kinds: Map<string, number>;
  selfTrades: number;
  selfTradeCancels: number;
  multiLevelSweeps: number;
  maxOrders: number;
}

/**
 * Seeded command generator. Prices straddle a slowly drifting mid so that buys and sells
 * overlap and cross often; a few orders go far away; ids increase so FIFO is checkable.
 */
class CommandSource {
  private readonly rng: RandomStream;
  private mid = 10_000;
  private nextId = 1;

  constructor(seed: string) {
    this.rng = new RandomStream(seed);
  }

  next(live: Map<number, number>): Command {
    const rng = this.rng;
    if (rng.chance(0.05)) this.mid += rng.int(-1, 1);
    const r = rng.next();
    if (r < 0.62) return { op: 'place', cmd: this.placeCommand(r) };
    if (r < 0.74) return { op: 'cancel', orderId: this.liveOrStale(live) };
    if (r < 0.79) return { op: 'cancel', orderId: this.staleOrUnknown() };
    if (r < 0.95) {
      const orderId = this.liveOrStale(live);
      return { op: 'reduce', orderId, byLots: rng.int(1, (live.get(orderId) ?? 3) + 2) };
    }
    return { op: 'reduce', orderId: this.staleOrUnknown(), byLots: rng.int(1, 5) };
  }

  private placeCommand(r: number): PlaceCommand {
    const rng = this.rng;
    const side: Side = rng.chance(0.5) ? 'B' : 'S';
    let priceTicks = side === 'B' ? this.mid + rng.int(-8, 3) : this.mid + rng.int(-3, 8);
    if (rng.chance(0.02)) priceTicks = this.mid + (side === 'B' ? -1_000 : 1_000) + rng.int(-5, 5);
    const qtyLots = rng.chance(0.08) ? rng.int(20, 60) : rng.int(1, 10);
    const postOnly = r >= 0.5;
    const tif = r >= 0.36 && r < 0.5 ? 'IOC' : postOnly && rng.chance(0.1) ? 'IOC' : 'GTC';
    return { orderId: this.nextId++, ownerId: rng.pick(OWNERS), side, priceTicks, qtyLots, tif, postOnly };
  }

  private liveOrStale(live: Map<number, number>): number {
    if (live.size === 0) return this.staleOrUnknown();
    const ids = Array.from(live.keys());
    return ids[this.rng.int(0, ids.length - 1)]!;
  }

  private staleOrUnknown(): number {
    // Either an id used before (filled, canceled, expired, rejected) or one never used.
    return this.rng.chance(0.7) && this.nextId > 1 ? this.rng.int(1, this.nextId - 1) : this.nextId + 1_000_000;
  }
}

function apply(book: OrderBook | ReferenceBook, c: Command): BookEvent[] {
  if (c.op === 'place') return book.place(c.cmd, []);
  if (c.op === 'cancel') return book.cancel(c.orderId, []);
  return book.reduce(c.orderId, c.byLots, []);
}

function sameJson(actual: unknown, expected: unknown, context: () => string): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) expect(actual, context()).toEqual(expected);
}

/** Updates the tally and the id → open lots map from one command's events. */
function record(c: Command, events: BookEvent[], live: Map<number, number>, t: Tally): void {
  if (c.op === 'place' && !events.some((e) => e.kind === 'rejected')) t.acceptedLots += c.cmd.qtyLots;
  const tradePrices = new Set<number>();
  for (const e of events) {
    t.kinds.set(e.kind, (t.kinds.get(e.kind) ?? 0) + 1);
    switch (e.kind) {
      case 'rested':
        live.set(e.orderId, e.qtyLots);
        break;
      case 'trade':
        t.tradedLots += e.qtyLots;
        tradePrices.add(e.priceTicks);
        if (e.makerOwnerId === e.takerOwnerId) t.selfTrades++;
        if (e.makerRemainingLots === 0) live.delete(e.makerId);
        else live.set(e.makerId, e.makerRemainingLots);
        break;
      case 'expired':
        t.expiredLots += e.qtyLots;
        break;
      case 'canceled':
        t.canceledLots += e.qtyLots;
        if (e.reason === 'SELF_TRADE') t.selfTradeCancels++;
        live.delete(e.orderId);
        break;
      case 'reduced':
        t.reducedLots += e.byLots;
        live.set(e.orderId, e.remainingLots);
        break;
      default:
        break;
    }
  }
  if (tradePrices.size > 1) t.multiLevelSweeps++;
}

/** Like assert, but builds its message only on failure: it runs millions of times. */
function check(condition: boolean, message: () => string): void {
  if (!condition) assert.fail(message());
}

function checkSide(levels: L3LevelView[], descending: boolean, seen: Map<number, number>, where: () => string): number {
  let lots = 0;
  let prevPrice: number | undefined;
  for (const level of levels) {
    if (prevPrice !== undefined) {
      check(descending ? level.priceTicks < prevPrice : level.priceTicks > prevPrice, () => `${where()}: levels out of order`);
    }
    prevPrice = level.priceTicks;
    check(level.orders.length > 0, () => `${where()}: empty level ${level.priceTicks}`);
    let sum = 0;
    let prevId = 0;
    for (const o of level.orders) {
      check(o.qtyLots > 0, () => `${where()}: order ${o.orderId} rests with ${o.qtyLots} lots`);
      check(o.orderId > prevId, () => `${where()}: FIFO broken at level ${level.priceTicks}`);
      prevId = o.orderId;
      sum += o.qtyLots;
      seen.set(o.orderId, o.qtyLots);
    }
    check(sum === level.qtyLots, () => `${where()}: level ${level.priceTicks} says ${level.qtyLots}, orders sum to ${sum}`);
    lots += sum;
  }
  return lots;
}

function checkInvariants(book: OrderBook, view: L3View, live: Map<number, number>, t: Tally, where: () => string): void {
  const bid = book.bestBidTicks();
  const ask = book.bestAskTicks();
  if (bid !== undefined && ask !== undefined) check(bid < ask, () => `${where()}: crossed book ${bid} >= ${ask}`);
  check(bid === view.bids[0]?.priceTicks && ask === view.asks[0]?.priceTicks, () => `${where()}: best prices disagree with L3`);
  const seen = new Map<number, number>();
  const lots = checkSide(view.bids, true, seen, where) + checkSide(view.asks, false, seen, where);
  check(lots === book.restingLots(), () => `${where()}: restingLots ${book.restingLots()} but L3 holds ${lots}`);
  check(seen.size === live.size && [...live].every(([id, q]) => seen.get(id) === q), () => `${where()}: L3 disagrees with events`);
  const outflow = lots + 2 * t.tradedLots + t.expiredLots + t.canceledLots + t.reducedLots;
  check(t.acceptedLots === outflow, () => `${where()}: accepted ${t.acceptedLots} lots but accounted for ${outflow}`);
}

function run(seed: string, selfTrade: SelfTradePolicy): Tally {
  const real = new OrderBook({ selfTrade });
  const ref = new ReferenceBook({ selfTrade });
  const source = new CommandSource(seed);
  const live = new Map<number, number>();
  const t: Tally = {
    acceptedLots: 0, tradedLots: 0, expiredLots: 0, canceledLots: 0, reducedLots: 0,
    kinds: new Map(), selfTrades: 0, selfTradeCancels: 0, multiLevelSweeps: 0, maxOrders: 0,
  };
  for (let step = 0; step < COMMANDS_PER_RUN; step++) {
    const c = source.next(live);
    const where = () => `${seed}/${selfTrade} step ${step} ${JSON.stringify(c)}`;
    const actual = apply(real, c);
    const expected = apply(ref, c);
    sameJson(actual, expected, () => `${where()}: events`);
    const view = real.l3();
    sameJson(view, ref.l3(), () => `${where()}: L3`);
    record(c, actual, live, t);
    checkInvariants(real, view, live, t, where);
    t.maxOrders = Math.max(t.maxOrders, real.orderCount);
  }
  return t;
}

describe('OrderBook against the reference book', () => {
  const runs: [string, SelfTradePolicy][] = [
    ['diff-seed-1', 'allow'],
    ['diff-seed-1', 'cancel-resting'],
    ['diff-seed-2', 'allow'],
    ['diff-seed-2', 'cancel-resting'],
  ];

  it.each(runs)('produces the same events and L3 views for seed %s under self-trade %s', (seed, selfTrade) => {
    const t = run(seed, selfTrade);
    // The generator must actually exercise every rule, or agreement proves little.
    for (const kind of ['rested', 'trade', 'expired', 'rejected', 'canceled', 'reduced', 'cancel-rejected']) {
      expect(t.kinds.get(kind) ?? 0, kind).toBeGreaterThan(100);
    }
    expect(t.multiLevelSweeps).toBeGreaterThan(50);
    if (selfTrade === 'allow') {
      expect(t.selfTrades).toBeGreaterThan(100);
      expect(t.selfTradeCancels).toBe(0);
    } else {
      expect(t.selfTrades).toBe(0);
      expect(t.selfTradeCancels).toBeGreaterThan(100);
    }
    expect(t.maxOrders).toBeGreaterThan(10);
  }, 60_000);
});
