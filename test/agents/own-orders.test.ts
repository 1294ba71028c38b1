import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OwnOrders } from '../../src/agents/own-orders.ts';
import { TickSize } from '../../src/core/price.ts';
import type { Side } from '../../src/core/types.ts';
import type { OwnOrderNote } from '../../src/strategy/tick-feeds.ts';

type T = OwnOrderNote['t'];
const SYMBOLS = ['AAA', 'BBB'];

/** A step: place an order, or a note about order number `order` (accepted or later). */
const steps = fc.array(
  fc.oneof(
    fc.record({ kind: fc.constant('place' as const), symbol: fc.constantFrom(...SYMBOLS), side: fc.constantFrom<Side>('B', 'S'), priceTicks: fc.integer({ min: 1, max: 6 }) }),
    fc.record({
      kind: fc.constant('note' as const),
      t: fc.constantFrom<T>('n', 'n', 'p', 'f', 'c', 'x', 'd', 'j', 'e'),
      order: fc.integer({ min: 0, max: 12 }),
      symbol: fc.constantFrom(...SYMBOLS),
      side: fc.constantFrom<Side>('B', 'S'),
      priceTicks: fc.integer({ min: 1, max: 6 }),
      remainingLots: fc.integer({ min: 0, max: 3 }),
      fillLots: fc.integer({ min: 1, max: 3 }),
    }),
  ),
  { maxLength: 80 },
);

type Script = typeof steps extends fc.Arbitrary<infer U> ? U : never;
const tick = new TickSize('1');
const noop = () => {};

/**
 * The bookkeeping as it was with a map keyed by wire id (the oracle): open orders per symbol in
 * acceptance order, in-flight inserts, positions.
 */
class MapModel {
  open = new Map<string, Map<string, { id: string; side: Side; priceTicks: number; remainingLots: number }>>();
  inFlight = new Map<string, { side: Side; priceTicks: number }[]>();
  position = new Map<string, number>();
  book(s: string) {
    if (!this.open.has(s)) this.open.set(s, new Map());
    return this.open.get(s)!;
  }
  settle(s: string, side: Side, priceTicks: number) {
    const list = this.inFlight.get(s) ?? [];
    const at = list.findIndex((f) => f.side === side && f.priceTicks === priceTicks);
    if (at >= 0) list.splice(at, 1);
  }
  apply(n: OwnOrderNote): string {
    if (n.oid === '') return 'other';
    const b = this.book(n.symbol);
    switch (n.t) {
      case 'n':
        this.settle(n.symbol, n.side, n.priceTicks);
        if (n.remainingLots > 0) b.set(n.oid, { id: n.oid, side: n.side, priceTicks: n.priceTicks, remainingLots: n.remainingLots });
        return `accepted ${n.oid}`;
      case 'j':
        this.settle(n.symbol, n.side, n.priceTicks);
        return `rejected ${n.symbol} ${n.reason ?? 'UNKNOWN'}`;
      case 'p':
      case 'f': {
        this.position.set(n.symbol, (this.position.get(n.symbol) ?? 0) + (n.side === 'B' ? n.fillLots : -n.fillLots));
        const o = b.get(n.oid);
        if (n.t === 'f' || n.remainingLots === 0) b.delete(n.oid);
        else if (o !== undefined) o.remainingLots = n.remainingLots;
        return `fill ${n.symbol} ${n.side} ${n.fillPriceTicks} ${n.fillLots} ${n.t === 'f'}`;
      }
      case 'c':
      case 'x':
      case 'd':
        b.delete(n.oid);
        return `ended ${n.symbol} ${n.t === 'c' ? 'canceled' : n.t === 'x' ? 'expired' : 'done-for-day'}`;
      default:
        return 'other';
    }
  }
}

function run(script: Script, bySeq: boolean) {
  const port = { oneWay: { placeTicks: noop, cancel: noop, cancelSeq: noop, subscribe: noop, unsubscribe: noop } };
  const own = new OwnOrders(port as never, () => tick);
  const model = new MapModel();
  for (const step of script) {
    if (step.kind === 'place') {
      own.place(step.symbol, step.side, step.priceTicks, 1, 'GTC');
      const list = model.inFlight.get(step.symbol) ?? [];
      list.push({ side: step.side, priceTicks: step.priceTicks });
      model.inFlight.set(step.symbol, list);
      continue;
    }
    const note: OwnOrderNote = {
      t: step.t,
      oid: step.t === 'e' ? '' : `O-${String(step.order).padStart(4, '0')}`,
      seq: bySeq ? step.order + 1 : Number.NaN,
      insertSec: Number.NaN,
      insertNanos: Number.NaN,
      symbol: step.symbol,
      side: step.side,
      priceTicks: step.priceTicks,
      tif: 'GTC',
      remainingLots: step.t === 'f' ? 0 : step.remainingLots,
      reason: step.t === 'j' ? 'EXCHANGE_CLOSED' : undefined,
      fillLots: step.fillLots,
      fillPriceTicks: step.priceTicks,
    };
    const out = own.applyNote(note);
    const said =
      out.kind === 'accepted' ? `accepted ${out.order.id}`
      : out.kind === 'rejected' ? `rejected ${out.symbol} ${out.reason}`
      : out.kind === 'fill' ? `fill ${out.symbol} ${out.side} ${out.priceTicks} ${out.qtyLots} ${out.done}`
      : out.kind === 'ended' ? `ended ${out.symbol} ${out.reason}`
      : 'other';
    expect(said).toBe(model.apply(note));
  }
  for (const s of SYMBOLS) {
    expect(own.orders(s).map((o) => `${o.id} ${o.side} ${o.priceTicks} ${o.remainingLots}`)).toEqual(
      [...model.book(s).values()].map((o) => `${o.id} ${o.side} ${o.priceTicks} ${o.remainingLots}`),
    );
    expect(own.inFlightOrders(s).map((f) => `${f.side} ${f.priceTicks}`)).toEqual((model.inFlight.get(s) ?? []).map((f) => `${f.side} ${f.priceTicks}`));
    expect(own.position(s)).toBe(model.position.get(s) ?? 0);
  }
  expect(own.openCount).toBe(SYMBOLS.reduce((n, s) => n + model.book(s).size, 0));
}

/**
 * A script as a venue's notes run: acceptances in rising engine-id order (the ids a venue
 * hands out), every other note about an order accepted before or a later one.
 */
const venueOrdered = steps.map((script) => {
  let accepted = 0;
  return script.map((step) => {
    if (step.kind !== 'note') return step;
    if (step.t === 'n') return { ...step, order: accepted++ };
    return { ...step, order: accepted === 0 ? step.order : step.order % (accepted + 1) };
  });
});

describe("an agent's own orders", () => {
  it('find orders by engine id as the map does when the venue accepts them in rising engine-id order (the appended and bisected path)', () => {
    fc.assert(
      fc.property(venueOrdered, (script) => run(script, true)),
      { numRuns: 300, seed: 0x5e9 },
    );
  });

  it('keep the same open orders, in-flight inserts, positions and outcomes as a map keyed by wire id, by engine id or by wire id', () => {
    fc.assert(
      fc.property(steps, fc.boolean(), (script, bySeq) => run(script, bySeq)),
      { numRuns: 300, seed: 0x0dd5 },
    );
  });
});
