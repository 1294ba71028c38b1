import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HeldOutput } from '../../src/api/journal/held-output.ts';

/**
 * The durability gate's queue: output held for a write leaves exactly when that write is synced,
 * in the order it was produced, and never after the journal failed. Oracle: a plain list scanned
 * whole on every sync.
 */
describe('held output', () => {
  it('releases each held output once, in production order, as soon as the write it waits for is synced', () => {
    fc.assert(
      fc.property(
        // steps: hold for write (synced + d), or sync up to (synced + d)
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 3 })), { maxLength: 12_000 }),
        (steps) => {
          const held = new HeldOutput();
          const released: number[] = [];
          const oracle: { upTo: number; id: number }[] = [];
          const expected: number[] = [];
          let synced = 0;
          let writes = 0;
          let next = 0;
          for (const [isHold, d] of steps) {
            if (isHold) {
              writes += d === 0 ? 0 : 1; // a new group or the one already covering
              const id = next++;
              oracle.push({ upTo: writes, id });
              held.add(writes, () => released.push(id));
            } else {
              synced = Math.min(writes, synced + d);
              held.releaseUpTo(synced);
              while (oracle.length > 0 && oracle[0]!.upTo <= synced) expected.push(oracle.shift()!.id);
            }
            expect(released).toEqual(expected);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('keeps its order across the compaction of a long released prefix (more than 4,096 entries)', () => {
    const held = new HeldOutput();
    const released: number[] = [];
    for (let i = 0; i < 10_000; i++) held.add(i + 1, () => released.push(i));
    held.releaseUpTo(5_000);
    expect(released.length).toBe(5_000);
    for (let i = 10_000; i < 10_010; i++) held.add(i + 1, () => released.push(i));
    held.releaseUpTo(10_010);
    expect(released).toEqual(Array.from({ length: 10_010 }, (_, i) => i));
  });

  it('never releases what was held when the journal failed', () => {
    const held = new HeldOutput();
    const released: number[] = [];
    held.add(1, () => released.push(1));
    held.add(2, () => released.push(2));
    held.drop();
    held.releaseUpTo(10);
    expect(released).toEqual([]);
  });
});
