import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Level } from '../../src/replay/levels.ts';
import { openLobster } from '../../src/replay/lobster-files.ts';
import { readLobster, type LobsterEventType, type LobsterRow } from '../../src/replay/lobster-reader.ts';
import { LobsterBookReplay } from '../../src/replay/lobster-replay.ts';
import { verifyLobster } from '../../src/replay/lobster-verify.ts';

const EXCERPT = join(import.meta.dirname, '../../data/lobster');

let nextRow = 1;
/** A row: message `type id size price side`, then the book after it as [price, size] pairs. */
function row(type: LobsterEventType, orderId: number, size: number, priceTicks: number, side: 'B' | 'S', asks: [number, number][], bids: [number, number][]): LobsterRow {
  const levels = (l: [number, number][]): Level[] => l.map(([priceTicks, qtyLots]) => ({ priceTicks, qtyLots }));
  return { row: nextRow++, tsNs: 0n, type, orderId, size, priceTicks, side, asks: levels(asks), bids: levels(bids) };
}

async function* each<T>(items: T[]): AsyncGenerator<T> {
  yield* items;
}

describe('LOBSTER L3 replay (hand-made rows)', () => {
  it('seeds the state before row 1 by undoing its message: an execution is added back', () => {
    const replay = new LobsterBookReplay(2);
    // Row 1 executes 4 of a resting bid: the book before it had 504 at 100.
    const ok = replay.apply(row(4, 77, 4, 100, 'B', [[110, 5], [111, 6]], [[100, 500], [99, 7]]));
    expect(ok).toBe(true);
    expect(replay.book.l2()).toEqual({
      bids: [{ priceTicks: 100, qtyLots: 500 }, { priceTicks: 99, qtyLots: 7 }],
      asks: [{ priceTicks: 110, qtyLots: 5 }, { priceTicks: 111, qtyLots: 6 }],
    });
    expect(replay.stats.unknownOrderMessages).toBe(1);
  });

  it('places, reduces, executes and deletes known orders in queue order', () => {
    const replay = new LobsterBookReplay(1);
    const steps = [
      row(5, 0, 1, 105, 'S', [[110, 5]], [[100, 10]]),
      row(1, 1, 20, 100, 'B', [[110, 5]], [[100, 30]]),
      row(1, 2, 8, 100, 'B', [[110, 5]], [[100, 38]]),
      row(2, 1, 5, 100, 'B', [[110, 5]], [[100, 33]]),
      row(4, 1, 15, 100, 'B', [[110, 5]], [[100, 18]]), // order 1 fully executed
    ];
    for (const r of steps) expect(replay.apply(r)).toBe(true);
    const [bid] = replay.book.l3().bids;
    expect(bid!.orders.map((o) => [o.orderId, o.qtyLots])).toEqual([[-1, 10], [2, 8]]); // the seeded anonymous order (negative id) is first
    expect(replay.apply(row(3, 2, 8, 100, 'B', [[110, 5]], [[100, 10]]))).toBe(true);
    expect(replay.book.has(2)).toBe(false);
    expect(replay.anomalyCount).toBe(0);
  });

  it('takes cancels and executions of unknown ids from the anonymous liquidity at their price', () => {
    const replay = new LobsterBookReplay(1);
    replay.apply(row(5, 0, 1, 105, 'S', [[110, 5]], [[100, 10]]));
    replay.apply(row(1, 1, 20, 100, 'B', [[110, 5]], [[100, 30]]));
    expect(replay.apply(row(3, 999, 4, 100, 'B', [[110, 5]], [[100, 26]]))).toBe(true);
    expect(replay.book.l3().bids[0]!.orders.map((o) => o.qtyLots)).toEqual([6, 20]);
    expect(replay.stats.unknownOrderMessages).toBe(1);
  });

  it('says so when a new order would cross, and does not place it', () => {
    const replay = new LobsterBookReplay(1);
    replay.apply(row(5, 0, 1, 105, 'S', [[110, 5]], [[100, 10]]));
    expect(replay.apply(row(1, 3, 2, 110, 'B', [[110, 5]], [[110, 2]]))).toBe(false);
    expect(replay.anomalies).toEqual([`row ${nextRow - 1}: new buy order 3 at 110 would cross the best ask 110; not placed`]);
    expect(replay.book.has(3)).toBe(false);
  });

  it('fills a level that comes into the window from beyond it from the orderbook row', () => {
    const replay = new LobsterBookReplay(1);
    replay.apply(row(5, 0, 1, 105, 'S', [[110, 5]], [[100, 10]]));
    // The bid at 100 is executed away; the row shows the next bid, which was out of sight.
    expect(replay.apply(row(4, 50, 10, 100, 'B', [[110, 5]], [[98, 40]]))).toBe(true);
    expect(replay.stats.revealRows).toBe(1);
    expect(replay.book.l2().bids).toEqual([{ priceTicks: 98, qtyLots: 40 }]);
  });

  it('never fills levels inside the window from the row: a wrong message shows as a mismatch', async () => {
    nextRow = 1;
    const rows = [
      row(5, 0, 1, 105, 'S', [[110, 5]], [[100, 10]]),
      row(1, 1, 20, 100, 'B', [[110, 5]], [[100, 30]]),
      row(2, 1, 5, 100, 'B', [[110, 5]], [[100, 24]]), // the file says 24: 25 after a 5-lot cancel
      row(2, 1, 1, 100, 'B', [[110, 5]], [[100, 24]]),
    ];
    const result = await verifyLobster(each(rows), 1);
    expect([result.rows, result.matched]).toEqual([4, 3]);
    expect(result.firstMismatch).toEqual({ row: 3, expected: '110,5,100,24', got: '110,5,100,25' });
  });
});

describe('LOBSTER L3 replay oracle on the repository excerpt (AMZN, first 100 rows)', () => {
  it('matches the orderbook file after every message', async () => {
    const files = await openLobster([join(EXCERPT, 'AMZN_2012-06-21_34200000_57600000_message_1.csv'), join(EXCERPT, 'AMZN_2012-06-21_34200000_57600000_orderbook_1.csv')]);
    const result = await verifyLobster(readLobster(files), files.levels);
    expect(result.firstMismatch).toBeUndefined();
    expect([result.rows, result.matched, result.anomalyCount]).toEqual([100, 100, 0]);
  });
});
