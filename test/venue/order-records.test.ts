import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonBytes, writeOrderEvent } from '../../src/api/ws/json-bytes.ts';
import { SimClock } from '../../src/clock/sim-clock.ts';
import type { Side, TimeInForce } from '../../src/core/types.ts';
import type { OrderFeed } from '../../src/wire/order.ts';
import type { OrderEvent } from '../../src/venue/order-events.ts';
import { NO_SLOT, OrderStore, SeqIndex } from '../../src/venue/order-store.ts';
import { toWsOrder } from '../../src/venue/wire-forms.ts';
import { Venue } from '../../src/venue/venue.ts';
import { btcConfig, makeVenue, money, place, T0_NS } from './fixtures.ts';

/** One step of a random session: place (by ticks) or cancel the n-th open order of a user. */
type Step = { kind: 'place'; user: number; side: Side; offset: number; lots: number; tif: TimeInForce } | { kind: 'cancel'; user: number; pick: number };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('place' as const),
    user: fc.integer({ min: 0, max: 3 }),
    side: fc.constantFrom<Side>('B', 'S'),
    offset: fc.integer({ min: -6, max: 6 }),
    lots: fc.integer({ min: 1, max: 6 }),
    tif: fc.constantFrom<TimeInForce>('GTC', 'GTC', 'IOC'),
  }),
  fc.record({ kind: fc.constant('cancel' as const), user: fc.integer({ min: 0, max: 3 }), pick: fc.integer({ min: 0, max: 20 }) }),
);

/**
 * Runs `steps` on a fresh venue (one BTC market, four users, self-trade prevention on so that
 * resting orders are also canceled by the book) with the given listener, placing and
 * canceling either by engine id or by wire id.
 */
function runSteps(steps: Step[], byEngineId: boolean, listener: Parameters<Venue['subscribe']>[0] | undefined): Venue {
  const venue = new Venue(new SimClock(T0_NS), { instruments: [btcConfig({ selfTradePrevention: true })] });
  if (listener !== undefined) venue.subscribe(listener);
  const users = ['a', 'b', 'c', 'd'].map((u) => venue.addUser(u, money('1000000')));
  const market = venue.markets[0]!;
  for (const step of steps) {
    venue.clock.runUntil(venue.clock.nowNs + 1_000_000n);
    const user = users[step.user]!;
    if (step.kind === 'place') {
      const priceTicks = market.markTicks + step.offset;
      if (byEngineId) venue.placeOrderSeq(user, market, step.side, priceTicks, step.lots, step.tif);
      else venue.placeOrderTicks(user, market, step.side, priceTicks, step.lots, step.tif);
      continue;
    }
    const open = venue.openOrders(user);
    const order = open[step.pick % Math.max(1, open.length)];
    // A cancel of nothing open names a made-up id (engine id 10^9): a rejected cancel.
    if (byEngineId) venue.cancelOrderSeq(user, order?.seq ?? 1e9);
    else venue.cancelOrder(user, order?.id ?? 'O-UNKNOWN');
  }
  return venue;
}

describe('orders kept as records', () => {
  it('gives an order object that still reads its final state after its record was reused by later orders', () => {
    const { venue, user } = makeVenue();
    const alice = user('alice');
    const bob = user('bob');
    const bid = place(venue, alice, 'B', '49990', 3);
    expect(bid.state).toBe('NEW');
    place(venue, bob, 'S', '49990', 3, { tif: 'IOC' });
    // Many later orders take the freed records; the held object keeps its own order.
    for (let i = 0; i < 50; i++) place(venue, bob, 'S', String(50_100 + i), 1);
    expect([bid.state, bid.filledLots, bid.priceText, bid.reservedIm, bid.username]).toEqual(['FILLED', 3, '49990', 0n, 'alice']);
    expect(toWsOrder(bid).rq).toBe(0);
    expect(venue.openOrders(bob)).toHaveLength(50);
    expect(venue.openOrders(bob).every((o) => o.userId === bob.id)).toBe(true);
  });

  it('reads a live order through its object as it changes (partial fill, then cancel)', () => {
    const { venue, user } = makeVenue();
    const alice = user('alice');
    const bid = place(venue, alice, 'B', '49990', 5);
    place(venue, user('bob'), 'S', '49990', 2, { tif: 'IOC' });
    expect([bid.state, bid.filledLots, bid.filledNotionalTicks]).toEqual(['PARTIALLY_FILLED', 2, 2n * 99_980n]);
    expect(venue.cancelOrder(alice, bid.id)).toBe(true);
    expect([bid.state, toWsOrder(bid).rq, bid.reservedIm]).toEqual(['CANCELED', 0, 0n]);
    expect(venue.openOrder(bid.id)).toBeUndefined();
  });

  it('hands every order-event listener the same feed object an order-feed listener receives', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 80 }), (steps) => {
        const viaEvents: OrderFeed[] = [];
        const viaFeeds: OrderFeed[] = [];
        const types: string[] = [];
        runSteps(steps, false, {
          orderEvent: (e: OrderEvent) => {
            types.push(e.t);
            viaEvents.push(e.feed());
          },
          orderFeed: (_u, feed) => viaFeeds.push(feed),
        });
        expect(viaEvents).toHaveLength(viaFeeds.length);
        viaEvents.forEach((f, i) => expect(f).toBe(viaFeeds[i]));
        expect(types).toEqual(viaFeeds.map((f) => f.t));
      }),
      { numRuns: 60 },
    );
  });

  it('ends in the same state with or without listeners, and by engine ids or by wire ids', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 120 }), (steps) => {
        const withFeeds = runSteps(steps, false, { orderFeed: () => undefined, trade: () => undefined });
        const silent = runSteps(steps, false, undefined);
        const byEngineId = runSteps(steps, true, { orderEvent: () => undefined });
        expect(silent.stateHash()).toBe(withFeeds.stateHash());
        expect(byEngineId.stateHash()).toBe(withFeeds.stateHash());
      }),
      { numRuns: 60 },
    );
  });

  it('reports a cancel by an engine id that is not open with an e feed naming that id', () => {
    const { venue, user, feeds } = makeVenue();
    const alice = user('alice');
    expect(venue.cancelOrderSeq(alice, 12345)).toBe(false);
    expect(feeds.of(alice).map((f) => [f.t, f.oid, f.r])).toEqual([['e', '12345', 'UNKNOWN_ORDER']]);
    const seq = venue.placeOrderSeq(alice, venue.markets[0]!, 'B', 99_000, 1);
    expect(venue.orderIdOf(seq)).toBe(feeds.of(alice)[1]!.o!.oid);
    expect(venue.cancelOrderSeq(user('bob'), seq)).toBe(false); // not bob's
    expect(venue.cancelOrderSeq(alice, seq)).toBe(true);
  });

  it('names a missed engine id by the same decimal text to every order listener, read first from the event, from the wire writer or from the feed', () => {
    // The text is made when a listener first reads `oid` (a counting listener reads only `t`):
    // whichever reader comes first, all see the same text, and a later `e` naming a wire id or
    // another engine id is not given the text made for an earlier one (one event cursor serves all).
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer({ min: -(2 ** 40), max: 2 ** 40 }), fc.constantFrom('O-NOSUCHORDER', 'O-1')), { minLength: 1, maxLength: 8 }), fc.nat(2), (misses, firstReader) => {
        const venue = new Venue(new SimClock(T0_NS), { instruments: [btcConfig()] });
        const byType: string[] = [];
        const fromEvent: string[] = [];
        const fromWire: string[] = [];
        const fromFeed: string[] = [];
        const w = new JsonBytes(64);
        const readers = [
          (e: OrderEvent) => fromEvent.push(e.oid),
          (e: OrderEvent) => {
            w.reset();
            writeOrderEvent(w, e);
            fromWire.push(w.buf.subarray(0, w.end).toString('utf8'));
          },
          (e: OrderEvent) => fromFeed.push((e.feed() as { oid: string }).oid),
        ];
        venue.subscribe({ orderEvent: (e) => byType.push(e.t) });
        for (const i of [firstReader, ...[0, 1, 2].filter((i) => i !== firstReader)]) venue.subscribe({ orderEvent: readers[i]! });
        const alice = venue.addUser('alice', money('1000000'));
        for (const m of misses) {
          const canceled = typeof m === 'string' ? venue.cancelOrder(alice, m) : venue.cancelOrderSeq(alice, m);
          expect(canceled).toBe(false); // the fresh venue has no open order
        }
        const named = misses.map(String);
        expect(byType).toEqual(named.map(() => 'e'));
        expect(fromEvent).toEqual(named);
        expect(fromFeed).toEqual(named);
        expect(fromWire).toEqual(named.map((oid) => JSON.stringify({ t: 'e', ts: Number(T0_NS / 1_000_000_000n), tn: 0, oid, r: 'UNKNOWN_ORDER', txt: 'no open order with this id' })));
      }),
      { numRuns: 100 },
    );
  });
});

/**
 * Runs (add?, seq) steps on a `SeqIndex` and on a `Map` model side by side (an add of a seq
 * already held is skipped; the slot is the step's number), calling `afterStep` after each.
 */
function applyIndexOps(
  ops: [boolean, number][],
  afterStep?: (index: SeqIndex, model: Map<number, number>, seq: number) => void,
): { index: SeqIndex; model: Map<number, number> } {
  const index = new SeqIndex();
  const model = new Map<number, number>();
  ops.forEach(([add, seq], i) => {
    if (add && !model.has(seq)) {
      index.add(seq, i);
      model.set(seq, i);
    } else if (!add) {
      index.take(seq);
      model.delete(seq);
    }
    afterStep?.(index, model, seq);
  });
  return { index, model };
}

describe('SeqIndex', () => {
  it('agrees with a Map under random adds and takes of consecutive and negative engine ids', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: -3000, max: 3000 })), { maxLength: 2000 }), (ops) => {
        const { index, model } = applyIndexOps(ops);
        for (let seq = -3000; seq <= 3000; seq += 7) expect(index.get(seq)).toBe(model.get(seq) ?? NO_SLOT);
        for (const [seq, slot] of model) expect(index.get(seq)).toBe(slot);
      }),
      { numRuns: 25 },
    );
  });

  it('agrees with a Map for ids off its pages (0, fractions, past 2^31, far ahead) mixed with page-crossing counters', () => {
    const odd = fc.constantFrom(0, 0.5, -0.5, 2 ** 31, -(2 ** 31), 2 ** 40 + 3, -(2 ** 45), 1024 * 70_000, 1024 * 70_000 + 1, Number.MAX_SAFE_INTEGER);
    const seqArb = fc.oneof(fc.integer({ min: -5000, max: 5000 }), odd);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), seqArb), { maxLength: 1500 }), (ops) => {
        // Every answer, after every step: a page dropped or made must not lose an id.
        const { index, model } = applyIndexOps(ops, (index, model, seq) => expect(index.get(seq)).toBe(model.get(seq) ?? NO_SLOT));
        for (const [seq, slot] of model) expect(index.get(seq)).toBe(slot);
        for (let seq = -5000; seq <= 5000; seq += 13) expect(index.get(seq)).toBe(model.get(seq) ?? NO_SLOT);
      }),
      { numRuns: 40 },
    );
  });

  it('keeps a block of consecutive ids found while most of them are taken out of order', () => {
    // The shape that made the hash table's deletion scan the whole block (bench/README, round 12).
    const index = new SeqIndex();
    const n = 20_000;
    for (let seq = 1; seq <= n; seq++) index.add(seq, seq * 3);
    for (let seq = 1; seq <= n; seq += 2) index.take(seq);
    for (let seq = 1; seq <= n; seq++) expect(index.get(seq)).toBe(seq % 2 === 1 ? NO_SLOT : seq * 3);
    for (let seq = 2; seq <= n; seq += 2) index.take(seq);
    for (let seq = 1; seq <= n; seq += 97) expect(index.get(seq)).toBe(NO_SLOT);
    index.add(n + 1, 7);
    expect(index.get(n + 1)).toBe(7);
  });
});

/** The clock an order is stamped with, at time 0. */
const AT_ZERO = { nowSec: 0, nowNanos: 0 };

describe('OrderStore', () => {
  it('keeps a filled notional exact past 2^53 (it moves off the records into a bigint)', () => {
    const store = new OrderStore();
    const slot = store.allocate(1, 0, 0, 0, 1, 1, AT_ZERO);
    const price = 2 ** 40;
    const lots = 3000;
    for (let i = 0; i < 5; i++) store.addFilledNotional(slot, price, lots);
    expect(store.filledNotionalTicks(slot)).toBe(5n * BigInt(price) * BigInt(lots));
    store.free(slot);
    const again = store.allocate(2, 0, 0, 0, 1, 1, AT_ZERO);
    expect(again).toBe(slot);
    expect(store.filledNotionalTicks(again)).toBe(0n);
  });
});
