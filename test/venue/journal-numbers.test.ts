import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { setFaultHook } from '../../src/venue/fault-points.ts';
import { U_AVERAGES } from '../../src/venue/undo.ts';
import type { VenueState } from '../../src/venue/venue-state.ts';
import { btcConfig, ethConfig, makeVenue } from './fixtures.ts';
import { type SeqCancel, type SeqPlace, SeqOrders, seqCancelArb, seqPlaceArb } from './seq-orders.ts';

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

/** A place in BTC or (`eth`) ETH, or a cancel. */
type Cmd = (SeqPlace & { eth: boolean }) | SeqCancel;

const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  { arbitrary: fc.tuple(fc.boolean(), seqPlaceArb(4, 8, 6)).map(([eth, p]) => ({ ...p, eth })), weight: 3 },
  { arbitrary: seqCancelArb(4, 20), weight: 1 },
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
        const orders = new SeqOrders(t.venue, users);
        for (const c of cmds) orders.apply(c, t.venue.markets[c.kind === 'place' && c.eth ? 1 : 0]!);
        trades += t.feeds.trades.length;
        expect(held).toEqual([]);
      }),
      { numRuns: 100, seed: 16 },
    );
    expect(looked).toBeGreaterThan(5000);
    expect(trades).toBeGreaterThan(300);
  });
});
