import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import marketMaker, { paramsSchema } from '../../examples/market-maker.ts';
import type { TouchTime } from '../../src/backtest/market-watch.ts';
import type { OrderCounts } from '../../src/backtest/recorder.ts';
import { runBacktest } from '../../src/backtest/runner.ts';
import { loadScenario } from '../../src/scenario/load.ts';
import type { Simulation } from '../../src/sim/simulation.ts';
import type { Market } from '../../src/venue/market.ts';

// The backtest's recorder hears its account's own order events through the port hub, which
// routes each event to its user's sinks only, and reads the touch once per book change for the
// touch tracker and the markouts. The reference is a venue listener told every order event of
// the run, keeping those of the account, and timing the touch on its own: at every order event
// and book change it asks the book whether one of the account's orders rests in the best bid's
// and the best ask's queue (the tracker knows its orders from their events instead) and notes
// the answer with the time; the notes are summed at the end. Same counts, fills and time at the
// touch.

const S = 1_000_000_000n;

interface Reference {
  orders: OrderCounts;
  fills: number;
  touch: ReferenceTouch[];
}

/**
 * One market's time at the touch, read from the book's queues (nothing of TouchTracker): every
 * look at the touch is noted with its time, and the times are summed from the notes at the end.
 */
class ReferenceTouch {
  private readonly notes: { ns: bigint; bid: boolean; ask: boolean }[] = [];

  constructor(
    private readonly market: Market,
    private readonly userId: number,
    startNs: bigint,
  ) {
    this.notes.push({ ns: startNs, bid: false, ask: false });
  }

  /** Whether one of the user's orders rests at the best price of `side`. */
  private rests(side: 'B' | 'S'): boolean {
    const book = this.market.book;
    const best = side === 'B' ? book.bestBidTicks() : book.bestAskTicks();
    return best !== undefined && book.levelQueue(side, best).some((e) => e.ownerId === this.userId);
  }

  look(nowNs: bigint): void {
    this.notes.push({ ns: nowNs, bid: this.rests('B'), ask: this.rests('S') });
  }

  /** The time at the bid, at the ask and at both, up to `endNs`: each note holds until the next. */
  timeUntil(endNs: bigint): TouchTime {
    const time = { bidNs: 0n, askNs: 0n, bothNs: 0n };
    this.notes.forEach((note, i) => {
      const untilNs = this.notes[i + 1]?.ns ?? endNs;
      if (note.bid) time.bidNs += untilNs - note.ns;
      if (note.ask) time.askNs += untilNs - note.ns;
      if (note.bid && note.ask) time.bothNs += untilNs - note.ns;
    });
    return time;
  }
}

/**
 * What the recorder counted, counted by a listener that filters every order event by user, up to
 * the run's end (the recorder stops there; the strategy's onStop cancels after it, with latency).
 */
function reference(sim: Simulation, username: string): Reference {
  const account = sim.venue.account(username)!;
  const out: Reference = { orders: { submitted: 0, accepted: 0, rejected: 0, acceptedLots: 0, canceled: 0, rejectReasons: {} }, fills: 0, touch: sim.venue.markets.map((m) => new ReferenceTouch(m, account.id, sim.clock.nowNs)) };
  sim.venue.subscribe({
    orderEvent: (e) => {
      if (e.userId !== account.id || sim.clock.nowNs > sim.endNs) return;
      const market = e.plainMarket();
      if (market !== undefined) out.touch[market.index]!.look(sim.clock.nowNs);
      const feed = e.feed();
      if (feed.t === 'n') (out.orders.submitted++, out.orders.accepted++, (out.orders.acceptedLots += feed.o?.q ?? 0));
      else if (feed.t === 'j') {
        out.orders.submitted++;
        out.orders.rejected++;
        const reason = feed.r === undefined || feed.r === 'UNKNOWN' ? (feed.txt === undefined ? (feed.r ?? 'UNKNOWN') : `UNKNOWN (${feed.txt})`) : feed.r;
        out.orders.rejectReasons[reason] = (out.orders.rejectReasons[reason] ?? 0) + 1;
      }
      else if (feed.t === 'c') out.orders.canceled++;
      else if (feed.t === 'p' || feed.t === 'f') out.fills++;
    },
    bookChanged: (market) => {
      if (sim.clock.nowNs <= sim.endNs) out.touch[market.index]!.look(sim.clock.nowNs);
    },
  });
  return out;
}

describe("the backtest recorder's own order events", () => {
  it('are the ones a listener filtering every order event by user keeps: same counts, fills and time at the touch', async () => {
    let fills = 0;
    let orders = 0;
    let touchNs = 0n;
    await fc.assert(
      fc.asyncProperty(
        fc.record({ halfSpreadTicks: fc.integer({ min: 0, max: 6 }), requoteMs: fc.integer({ min: 5, max: 200 }), maxInventoryLots: fc.integer({ min: 1, max: 4 }) }),
        fc.constantFrom('default', 'thin-book'),
        fc.integer({ min: 1, max: 1_000 }),
        async (params, scenario, seed) => {
          let ref: Reference | undefined;
          const result = await runBacktest(marketMaker(paramsSchema.parse({ ...params, halfSpreadTicks: params.halfSpreadTicks + 0.5, symbol: scenario === 'thin-book' ? 'ETHUSD-PERP' : 'BTCUSD-PERP' })), {
            scenario: loadScenario(scenario),
            seed,
            durationNs: 60n * S,
            setup: (sim) => (ref = reference(sim, 'strategy')),
          });
          expect(result.orders).toEqual(ref!.orders);
          expect(result.fills.length).toBe(ref!.fills);
          expect(result.touchTimes).toEqual(ref!.touch.map((t) => t.timeUntil(result.endNs)));
          fills += result.fills.length;
          orders += result.orders.submitted;
          for (const t of result.touchTimes) touchNs += t.bidNs + t.askNs + t.bothNs;
        },
      ),
      { numRuns: 6, seed: 16 },
    );
    // The runs quote, fill and rest at the touch: the counts and times compared are not all zero.
    expect(Math.min(fills, orders)).toBeGreaterThan(10);
    expect(touchNs).toBeGreaterThan(0n);
  }, 120_000);
});
