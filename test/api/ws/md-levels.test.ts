import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { Exchange } from '../../../src/api/exchange.ts';
import { LevelTexts } from '../../../src/api/ws/md-levels.ts';
import { loadScenario } from '../../../src/scenario/load.ts';
import { bookUpdate } from '../../../src/venue/wire-forms.ts';
import type { MarketDataLevel } from '../../../src/wire/market-data.ts';

/** The cached level texts of book updates (src/api/ws/md-levels.ts). */

const SYMBOL = 'ETHUSD-PERP';

async function market() {
  const exchange = await Exchange.create(loadScenario('empty'), { manual: true, scryptCost: 1024 });
  const m = exchange.venue.market(SYMBOL)!;
  const place = (user: string, side: 'B' | 'S', quantity: number, price: string) =>
    exchange.commands.place(exchange.venue.account(user)!, { symbol: SYMBOL, side, quantity, price, timeInForce: 'GTC', postOnly: false });
  return { exchange, m, place };
}

/** `"b":…,"a":…` as JSON.stringify writes bookUpdate's sides, cut to depth. */
function expected(m: Parameters<typeof bookUpdate>[0], level: MarketDataLevel, depth: number): string {
  const u = bookUpdate(m, level, 0, 0);
  return `"b":${JSON.stringify(u.b.slice(0, depth))},"a":${JSON.stringify(u.a.slice(0, depth))}`;
}

describe('cached level texts', () => {
  it('equal JSON.stringify of the book at every step of random order flow, at every level and depth', async () => {
    const { exchange, m, place } = await market();
    const texts = new LevelTexts(m);
    const op = fc.record({
      user: fc.constantFrom('alice', 'bob'),
      side: fc.constantFrom('B' as const, 'S' as const),
      qty: fc.integer({ min: 1, max: 4 }),
      cents: fc.integer({ min: -300, max: 300 }),
      cancel: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 40 }), fc.constantFrom<MarketDataLevel>('LEVEL_1', 'LEVEL_2', 'LEVEL_3'), fc.integer({ min: 1, max: 8 }), (ops, level, depth) => {
        for (const o of ops) {
          const account = exchange.venue.account(o.user)!;
          const open = exchange.venue.openOrders(account);
          if (o.cancel && open.length > 0) exchange.commands.cancel(account, open[o.qty % open.length]!.id);
          else place(o.user, o.side, o.qty, (3000 + o.cents / 100).toFixed(2));
          const d = level === 'LEVEL_1' ? 1 : depth;
          expect(texts.levelsJson(level, d)).toBe(expected(m, level, d));
          expect(texts.levelsJson(level, Infinity)).toBe(expected(m, level, Infinity));
        }
      }),
      { seed: 1104, numRuns: 60 },
    );
  });

  it('formats a price once, and re-encodes only levels whose quantity changed', async () => {
    const { m, place } = await market();
    for (let i = 0; i < 5; i++) place('bob', 'B', 1, String(2990 - i));
    const texts = new LevelTexts(m);
    const toPrice = vi.spyOn(m.instrument.tick, 'toPrice');
    /** Prices formatted while `fn` runs. */
    const formatted = (fn: () => void): number => {
      const before = toPrice.mock.calls.length;
      fn();
      return toPrice.mock.calls.length - before;
    };
    expect(formatted(() => texts.levelsJson('LEVEL_2', Infinity))).toBe(5);
    expect(formatted(() => texts.levelsJson('LEVEL_2', Infinity))).toBe(0);
    place('bob', 'B', 2, '2990'); // one level's quantity changes: its price text is reused
    const want = expected(m, 'LEVEL_2', Infinity);
    let got = '';
    expect(formatted(() => (got = texts.levelsJson('LEVEL_2', Infinity)))).toBe(0);
    expect(got).toBe(want);
    place('bob', 'B', 1, '2995'); // a new price: formatted once
    expect(formatted(() => texts.levelsJson('LEVEL_2', Infinity))).toBe(1);
    expect(formatted(() => texts.levelsJson('LEVEL_1', 1))).toBe(0);
  });
});
