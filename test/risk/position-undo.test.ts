import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Side } from '../../src/core/types.ts';
import { POSITION_SAVED_NUMBERS, Position } from '../../src/risk/position.ts';
import { BigintPosition } from '../venue/bigint-position.ts';

/** The undo journal as `Position.saveTo` sees it: references and the running command's number. */
class Journal {
  epoch = 0;
  refs: unknown[] = [];
  ref(value: unknown): void {
    this.refs.push(value);
  }
}

type Fill = [Side, number, number];

/** A command: its fills, whether it saves the position first (the venue always does), whether it fails after them. */
interface Command {
  fills: Fill[];
  saved: boolean;
  fails: boolean;
}

// Few prices and small sizes: positions go flat, flip and pile up lots often, so the storage
// is rewound, reclaimed and replaced many times within a run.
const fillArb = fc.tuple(fc.constantFrom<Side>('B', 'S'), fc.integer({ min: 90, max: 110 }), fc.integer({ min: 1, max: 6 }));
const commandArb = fc.record({ fills: fc.array(fillArb, { minLength: 1, maxLength: 8 }), saved: fc.boolean(), fails: fc.boolean() });

function expectSame(p: Position, oracle: BigintPosition): void {
  expect([BigInt(p.netLots), p.buyNotionalTicks, p.sellNotionalTicks, p.realizedTicks, p.openCostTicks, p.openLotCount]).toEqual([
    oracle.net, oracle.buy, oracle.sell, oracle.realized, oracle.openCost, oracle.lotCount,
  ]);
}

describe("a position's FIFO lots under the venue's undo", () => {
  it('a failed command puts the position back exactly, and later fills close the same lots as a position that never saw it (fast-check against a bigint FIFO)', () => {
    fc.assert(
      fc.property(fc.array(commandArb, { minLength: 1, maxLength: 40 }), (commands: Command[]) => {
        const p = new Position();
        const oracle = new BigintPosition();
        const journal = new Journal();
        const nums = new Float64Array(POSITION_SAVED_NUMBERS);
        for (const c of commands) {
          journal.epoch++;
          journal.refs = [];
          const fails = c.saved && c.fails;
          const lotsBefore = p.openLots();
          if (c.saved) p.saveTo(nums, 0, journal);
          const realized: bigint[] = [];
          for (const [side, price, lots] of c.fills) realized.push(p.applyFill(side, price, lots));
          if (fails) {
            p.restoreFrom(nums, 0, journal.refs, 0);
            expect(p.openLots()).toEqual(lotsBefore);
          } else {
            // Fill by fill, the oracle realizes what the position did: the same lots closed in the same order.
            expect(realized).toEqual(c.fills.map(([side, price, lots]) => oracle.fill(side, price, lots)));
          }
          expectSame(p, oracle);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a command that goes flat and reopens, then fails, gives back the lots it closed (the storage was not rewritten under the save)', () => {
    const p = new Position();
    p.applyFill('B', 100, 2);
    p.applyFill('B', 101, 3);
    const journal = new Journal();
    journal.epoch = 1;
    const nums = new Float64Array(POSITION_SAVED_NUMBERS);
    p.saveTo(nums, 0, journal);
    p.applyFill('S', 105, 5); // flat
    p.applyFill('B', 90, 4); // reopens where the old lots were
    p.restoreFrom(nums, 0, journal.refs, 0);
    expect([p.netLots, p.openLots(), p.openCostTicks]).toEqual([5, [[100, 2], [101, 3]], 503n]);
    // Closing them realizes against the original entries, oldest first: (110 − 100) × 2 + (110 − 101) × 3.
    expect(p.applyFill('S', 110, 5)).toBe(47n);
  });
});
