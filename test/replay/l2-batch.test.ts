import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { L2BatchBuilder, batchesOf, eventsOf } from '../../src/replay/l2/l2-batch.ts';
import type { L2Event } from '../../src/replay/l2/l2-event.ts';

const side = fc.constantFrom('B' as const, 'S' as const);
const common = { tsNs: fc.bigInt({ min: 0n, max: 2n ** 62n }), feedDelayNs: fc.bigInt({ min: -(2n ** 40n), max: 2n ** 40n }), market: fc.nat(3) };
const event: fc.Arbitrary<L2Event> = fc.oneof(
  fc.record({ kind: fc.constant('book' as const), ...common, reset: fc.boolean(), updates: fc.array(fc.record({ side, priceTicks: fc.nat(1e6), qtyLots: fc.nat(1e6) }), { maxLength: 30 }) }),
  fc.record({ kind: fc.constant('trade' as const), ...common, priceTicks: fc.nat(1e6), qtyLots: fc.nat(1e6), takerSide: fc.option(side, { nil: undefined }) }),
  fc.record({ kind: fc.constant('ticker' as const), ...common, markPrice: fc.constant('1.5'), indexPrice: fc.constant(undefined), fundingRate: fc.constant('0.0001'), fundingTsNs: fc.constant(undefined) }),
);

describe('L2 event batches (the columns a replay pulls)', () => {
  it('give back every event exactly, in order, whatever the batch size and however far the columns grow', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 60 }), fc.integer({ min: 1, max: 9 }), (events, rows) => {
        const back = [...batchesOf(events, rows)].flatMap(eventsOf);
        expect(back).toEqual(events);
      }),
      { numRuns: 200 },
    );
  });

  it('grow from tiny capacities without losing a level (a builder reused across takes)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(event, { maxLength: 20 }), { maxLength: 5 }), (groups) => {
        const builder = new L2BatchBuilder(1, 1);
        for (const g of groups) {
          for (const e of g) builder.add(e);
          expect(eventsOf(builder.take())).toEqual(g);
        }
      }),
      { numRuns: 200 },
    );
  });
});
