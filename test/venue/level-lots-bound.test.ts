import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Side } from '../../src/core/types.ts';
import { makeVenue } from './fixtures.ts';
import { type SeqCancel, type SeqPlace, SeqOrders, seqCancelArb, seqPlaceArb } from './seq-orders.ts';

/**
 * `Market.levelLotsBound` lets order entry skip the level lookup of its overflow check
 * (quantity-bounds.ts): it must stay at or above every price level's total lots, whatever the
 * account orders (rests, fills, cancels), the recorded liquidity (levels raised, lowered, reset)
 * and failed commands do to the book.
 */

type Cmd = SeqPlace | SeqCancel | { kind: 'levels'; side: Side; offset: number; lots: number; reset: boolean };

const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  { arbitrary: seqPlaceArb(3, 8, 50), weight: 6 },
  { arbitrary: seqCancelArb(3, 20), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('levels' as const), side: fc.constantFrom<Side>('B', 'S'), offset: fc.integer({ min: -8, max: 8 }), lots: fc.nat(60), reset: fc.boolean() }), weight: 2 },
);

describe('the bound of a market\'s level totals', () => {
  it('is never below any level\'s total lots, after account orders, recorded levels and resets (100 streams)', () => {
    fc.assert(
      fc.property(fc.array(cmdArb, { minLength: 10, maxLength: 60 }), (cmds) => {
        const t = makeVenue();
        const m = t.btc;
        const users = [t.user('a', '100000000'), t.user('b', '100000000'), t.user('c', '100000000')];
        const orders = new SeqOrders(t.venue, users);
        for (const c of cmds) {
          const v = t.venue;
          if (c.kind !== 'levels') orders.apply(c, m);
          else v.exclusive(() => v.external.applyLevels(m, [{ side: c.side, priceTicks: m.markTicks + c.offset, qtyLots: c.lots }], c.reset));
          const { bids, asks } = m.book.l2();
          for (const level of [...bids, ...asks]) expect(level.qtyLots).toBeLessThanOrEqual(m.levelLotsBound);
        }
      }),
      { numRuns: 100, seed: 14 },
    );
  });
});
