import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { Side, TimeInForce } from '../../src/core/types.ts';
import { setFaultHook } from '../../src/venue/fault-points.ts';
import { U_AVERAGES } from '../../src/venue/undo.ts';
import type { VenueState } from '../../src/venue/venue-state.ts';
import { btcConfig, ethConfig, makeVenue } from './fixtures.ts';

/**
 * The undo journal names accounts, markets and books by their index in the venue's state
 * (undo.ts): the common commands (a rest, an IOC that misses, a cancel, a cross whose fills are
 * usual) write numbers only, so recording their entries stores no reference (no write barrier,
 * nothing for the collector to trace; a fill is usual once the account's position exists). The journal is looked at from the fault hook at each
 * command's fault points, while its entries are still there; the one kind of reference left is a
 * bigint of the funding averages (`TimeWeightedPrice.saveTo`), saved when a command moves the
 * mark, with the market's state (by its index, its state by number). That a rollback finds the right
 * account, market and book by those indexes is the fault loops' business (fast-lane, close-undo,
 * fill-undo: each fails when an entry names the wrong index).
 */

afterEach(() => setFaultHook(undefined));

type Cmd = { kind: 'place'; eth: boolean; user: number; side: Side; offset: number; lots: number; tif: TimeInForce } | { kind: 'cancel'; user: number; which: number };

const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('place' as const),
      eth: fc.boolean(),
      user: fc.nat(3),
      side: fc.constantFrom<Side>('B', 'S'),
      offset: fc.integer({ min: -8, max: 8 }),
      lots: fc.integer({ min: 1, max: 6 }),
      tif: fc.constantFrom<TimeInForce>('GTC', 'GTC', 'IOC'),
    }),
    weight: 3,
  },
  { arbitrary: fc.record({ kind: fc.constant('cancel' as const), user: fc.nat(3), which: fc.nat(20) }), weight: 1 },
);

describe('the undo journal of the common commands', () => {
  it('holds no account, market, book or text while a rest, an IOC, a cancel or a cross with usual fills runs, in two markets and four accounts (100 streams)', () => {
    let looked = 0;
    let trades = 0;
    fc.assert(
      fc.property(fc.array(cmdArb, { minLength: 10, maxLength: 60 }), (cmds) => {
        const t = makeVenue({ instruments: [btcConfig(), ethConfig({ minimumTradeQuantity: 1 })] });
        const users = [t.user('a', '100000000'), t.user('b', '100000000'), t.user('c', '100000000'), t.user('d', '100000000')];
        // Every account trades once in each market first: a fill is usual (its undo numbers only,
        // fill-undo.ts) once the account's position in the market exists.
        for (const m of t.venue.markets) {
          for (const [i, a] of users.entries()) {
            const b = users[(i + 1) % users.length]!;
            t.venue.placeOrderSeq(a, m, 'B', m.markTicks, 1, 'GTC');
            t.venue.placeOrderSeq(b, m, 'S', m.markTicks, 1, 'IOC');
          }
        }
        const journal = (t.venue as unknown as { s: VenueState }).s.log.journal;
        const held: string[] = [];
        setFaultHook((point) => {
          looked++;
          // Entry by entry: only the funding averages' entry (saved when a command moves the mark)
          // may hold references, and those only its bigint times and sums: values, not objects of the venue.
          const j = journal as unknown as { ops: Int32Array; refAt: Int32Array; count: number; r: number; refs: readonly unknown[] };
          for (let i = 0; i < j.count; i++) {
            const end = i + 1 < j.count ? j.refAt[i + 1]! : j.r;
            for (let k = j.refAt[i]!; k < end; k++) {
              const ref = j.refs[k];
              if (ref !== undefined && (j.ops[i] !== U_AVERAGES || typeof ref !== 'bigint')) held.push(`${point}: entry ${j.ops[i]} holds a ${typeof ref}`);
            }
          }
        });
        const seqs: number[][] = users.map(() => []);
        for (const c of cmds) {
          const v = t.venue;
          if (c.kind === 'place') {
            const m = v.markets[c.eth ? 1 : 0]!;
            seqs[c.user]!.push(v.placeOrderSeq(users[c.user]!, m, c.side, m.markTicks + c.offset, c.lots, c.tif));
          } else {
            const mine = seqs[c.user]!;
            if (mine.length > 0) v.cancelOrderSeq(users[c.user]!, mine[c.which % mine.length]!);
          }
        }
        trades += t.feeds.trades.length;
        expect(held).toEqual([]);
      }),
      { numRuns: 100, seed: 16 },
    );
    expect(looked).toBeGreaterThan(5000);
    expect(trades).toBeGreaterThan(300);
  });
});
