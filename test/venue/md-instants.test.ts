import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MarketDataInstants } from '../../src/venue/md-instants.ts';
import { tickerStats } from '../../src/venue/wire-forms.ts';
import type { TickerStats } from '../../src/wire/market-data.ts';
import { aliceAndBob, BTC } from '../sim/alice-and-bob.ts';

const MS = 1_000_000;

/** Orders bob and alice send at given milliseconds: resting and sweeping, so an instant may hold several trades. */
const flows = fc.array(
  fc.record({
    atMs: fc.integer({ min: 0, max: 20 }),
    user: fc.constantFrom('alice', 'bob'),
    side: fc.constantFrom<'B' | 'S'>('B', 'S'),
    offsetTicks: fc.integer({ min: -5, max: 5 }),
    qty: fc.integer({ min: 1, max: 6 }),
  }),
  { minLength: 1, maxLength: 40 },
);

interface Heard {
  at: string;
  stats: TickerStats[];
  bookChanged: boolean;
  sec: number;
  nanos: number;
}

/**
 * Runs the flow with the instants delivering into `heard`; beside them a plain listener makes
 * each trade's stats as `tickerStats` did at the trade (the oracle: what every batch carried
 * before the stats were kept as numbers).
 */
function run(script: { atMs: number; user: string; side: 'B' | 'S'; offsetTicks: number; qty: number }[]) {
  const sim = aliceAndBob('instants');
  const venue = sim.venue;
  const market = venue.market(BTC)!;
  const heard: Heard[] = [];
  const batchesSeen = new Set<unknown>();
  const instants = new MarketDataInstants(venue, () => true, (b) => {
    batchesSeen.add(b);
    const stats = Array.from({ length: b.trades }, (_, i) => b.stats(i));
    heard.push({ at: `${venue.clock.nowNs}`, stats, bookChanged: b.bookChanged, sec: b.sec, nanos: b.nanos });
  });
  const oracle: { at: string; stats: TickerStats }[] = [];
  venue.subscribe({ trade: (t, m) => oracle.push({ at: `${venue.clock.nowNs}`, stats: tickerStats(m, t.sec, t.nanos) }) });
  const start = sim.clock.nowNs;
  for (const o of script) {
    sim.clock.scheduleAt(start + BigInt(o.atMs * MS), () => void venue.placeOrderTicks(venue.account(o.user)!, market, o.side, 100_000 + o.offsetTicks, o.qty));
  }
  sim.clock.runUntil(start + BigInt(50 * MS));
  instants.close();
  return { heard, oracle, batches: batchesSeen.size };
}

describe('market data instants', () => {
  it("give each trade's stats as tickerStats made them at the trade, in trade order, once per instant", () => {
    fc.assert(
      fc.property(flows, (script) => {
        const { heard, oracle } = run(script);
        // Every stats message, in order, equal to the oracle's; each delivered at its own instant.
        expect(heard.flatMap((h) => h.stats.map((stats) => ({ at: h.at, stats })))).toEqual(oracle);
        // One batch per market and instant: instants strictly increase.
        for (let i = 1; i < heard.length; i++) expect(BigInt(heard[i]!.at)).toBeGreaterThan(BigInt(heard[i - 1]!.at));
        // A batch without a book change carries trades (or nothing would have been delivered).
        for (const h of heard) expect(h.bookChanged || h.stats.length > 0).toBe(true);
      }),
      { numRuns: 150, seed: 0x1257 },
    );
  });

  it('reuse one batch object per market across instants, handing out fresh stats objects', () => {
    const script = Array.from({ length: 30 }, (_, i) => ({ atMs: i % 15, user: i % 2 === 0 ? 'alice' : 'bob', side: (i % 3 === 0 ? 'B' : 'S') as 'B' | 'S', offsetTicks: (i % 5) - 2, qty: 1 + (i % 4) }));
    const { heard, batches } = run(script);
    expect(heard.length).toBeGreaterThan(3);
    expect(batches).toBe(1);
    const all = heard.flatMap((h) => h.stats);
    expect(all.length).toBeGreaterThan(1);
    expect(new Set(all).size).toBe(all.length);
  });
});
