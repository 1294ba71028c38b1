import { describe, expect, it } from 'vitest';
import { captureGraph, restoreGraph } from '../../src/api/journal/object-graph.ts';
import { SNAPSHOT_CLASSES } from '../../src/api/journal/snapshot-classes.ts';
import { LevelChangeLog } from '../../src/venue/level-change-log.ts';
import { makeVenue, place } from './fixtures.ts';

const BASE = 100_000; // 50000 at tick 0.5

/** A venue with recorded levels (one with account orders ahead of and behind its recorded quantity), and its users. */
function venueWithRecorded() {
  const t = makeVenue();
  const users = [t.user('alice', '10000000'), t.user('bob', '10000000')];
  const levels = (rows: [side: 'B' | 'S', priceTicks: number, qtyLots: number][]) =>
    t.venue.exclusive(() => t.venue.external.applyLevels(t.btc, rows.map(([side, priceTicks, qtyLots]) => ({ side, priceTicks, qtyLots })), false));
  return { t, users, levels };
}

describe('recorded quantity in a snapshot of the venue (the object graph journaled servers write)', () => {
  it('restores with its queue places, ids and lots: the same state hash and queues, and the same venue after further recorded changes and orders', () => {
    const script = (v: ReturnType<typeof venueWithRecorded>, phase: number) => {
      if (phase === 0) {
        place(v.t.venue, v.users[0]!, 'B', '49999', 2);
        v.levels([['B', BASE - 2, 5], ['S', BASE + 2, 4], ['S', BASE + 3, 7]]);
        place(v.t.venue, v.users[1]!, 'B', '49999', 3); // behind the recorded quantity at 49999
        v.levels([['B', BASE - 2, 6], ['S', BASE + 2, 1]]); // grows (to the back) and shrinks (keeps its place)
      } else {
        v.levels([['B', BASE - 2, 2], ['S', BASE + 1, 3], ['S', BASE + 3, 0]]);
        place(v.t.venue, v.users[0]!, 'S', '49999', 5, { tif: 'IOC' }); // takes bob's order and the recorded lots in queue order
        v.levels([['B', BASE + 1, 4]]); // crosses the recorded ask (removed) and rests
      }
    };
    const original = venueWithRecorded();
    script(original, 0);
    const image = JSON.parse(JSON.stringify(captureGraph({ venue: original.t.venue }))) as ReturnType<typeof captureGraph>;
    const restored = venueWithRecorded();
    // The journal's class list lacks the change log's class: journaled servers never hold recorded
    // liquidity (`--data-dir` refuses `--replay`), so a fresh one has no log to rebuild it on.
    restoreGraph(image, { venue: restored.t.venue }, [...SNAPSHOT_CLASSES, LevelChangeLog]);
    const seen = (v: ReturnType<typeof venueWithRecorded>) => ({ hash: v.t.venue.stateHash(), l3: v.t.btc.book.l3(), shown: v.t.venue.external.displayedLots(v.t.btc, 'B', BASE - 2) });
    expect(seen(restored)).toEqual(seen(original));
    expect(original.t.btc.book.l3().bids[0]!.orders.map((o) => o.qtyLots)).toEqual([2, 3, 6]);
    script(original, 1);
    script(restored, 1);
    expect(seen(restored)).toEqual(seen(original));
    expect(original.t.btc.book.externalLots('B', BASE + 1)).toBe(4);
  });
});
