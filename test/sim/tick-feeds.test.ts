import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RandomStream } from '../../src/random/random-stream.ts';
import { InProcessPort } from '../../src/sim/in-process-port.ts';
import { LogNormalLatency } from '../../src/sim/latency.ts';
import { noteOfFeed, topOfBook, type TextToTicks } from '../../src/strategy/tick-feeds.ts';
import type { OrderFeed } from '../../src/wire/order.ts';
import { aliceAndBob, BTC } from './alice-and-bob.ts';

const MS = 1_000_000;

type Step =
  | { kind: 'place'; atMs: number; side: 'B' | 'S'; offsetTicks: number; qty: number; tif: 'GTC' | 'IOC'; postOnly: boolean }
  | { kind: 'odd'; atMs: number; price: string }
  | { kind: 'cancel'; atMs: number; pick: number }
  | { kind: 'bob'; atMs: number; side: 'B' | 'S'; offsetTicks: number; qty: number }
  | { kind: 'subscribe'; atMs: number; level: 'LEVEL_1' | 'LEVEL_2' }
  | { kind: 'unsubscribe'; atMs: number };

const atMs = fc.integer({ min: 0, max: 40 });
const side = fc.constantFrom<'B' | 'S'>('B', 'S');
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('place' as const), atMs, side, offsetTicks: fc.integer({ min: -6, max: 6 }), qty: fc.integer({ min: 1, max: 4 }), tif: fc.constantFrom<'GTC' | 'IOC'>('GTC', 'IOC'), postOnly: fc.boolean() }),
  // Rejected orders the records cannot describe: off the tick grid, a price no tick gives.
  fc.record({ kind: fc.constant('odd' as const), atMs, price: fc.constantFrom('50000.25', '49999.75', '-1', '1e3') }),
  fc.record({ kind: fc.constant('cancel' as const), atMs, pick: fc.nat(20) }),
  fc.record({ kind: fc.constant('bob' as const), atMs, side, offsetTicks: fc.integer({ min: -4, max: 4 }), qty: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('subscribe' as const), atMs, level: fc.constantFrom<'LEVEL_1' | 'LEVEL_2'>('LEVEL_1', 'LEVEL_1', 'LEVEL_2') }),
  fc.record({ kind: fc.constant('unsubscribe' as const), atMs }),
);

/**
 * Runs `steps` with alice on an in-process port while bob trades against her; alice hears
 * through wire objects (`onOrderFeed`, `onMarketData`) or through numbers (`ticks.onOwnOrder`,
 * `ticks.onTop`, with `onMarketData` for the rest). Returns what she heard with the sim time
 * it arrived at — feeds as the notes `noteOfFeed` reads from them and LEVEL_1 books as the
 * tops `topOfBook` reads, so the two runs compare line by line — and the venue's state hash.
 */
function run(steps: readonly Step[], numbers: boolean): { heard: string[]; hash: string; seqs: string[] } {
  const sim = aliceAndBob('tick-feeds');
  const latency = (name: string) => new LogNormalLatency(new RandomStream(name), 1 * MS, 0.5 * MS);
  const alice = new InProcessPort(sim.venue, sim.venue.account('alice')!, { orderLatency: latency('order'), marketDataLatency: latency('md') });
  const market = sim.venue.market(BTC)!;
  const tick = market.instrument.tick;
  const bob = sim.venue.account('bob')!;
  for (let i = 1; i <= 5; i++) {
    sim.venue.placeOrderTicks(bob, market, 'B', 100_000 - 2 * i, i);
    sim.venue.placeOrderTicks(bob, market, 'S', 100_000 + 2 * i, i);
  }
  const toTicks: TextToTicks = (symbol, text) => sim.venue.market(symbol)?.instrument.tick.toTicks(text);
  const heard: string[] = [];
  const open: string[] = [];
  const at = () => `${sim.clock.nowNs}`;
  const seqs: string[] = [];
  const onNote = (note: ReturnType<typeof noteOfFeed>) => {
    // The engine id and insert time only the numbers carry (a feed has none): the id checked
    // against the venue's own below. Fields read one by one: an in-process note makes `oid` when read.
    const seq = note.seq;
    const wire = { t: note.t, oid: note.oid, symbol: note.symbol, side: note.side, priceTicks: note.priceTicks, tif: note.tif, remainingLots: note.remainingLots, reason: note.reason, fillLots: note.fillLots, fillPriceTicks: note.fillPriceTicks };
    if (numbers && note.t === 'n' && note.remainingLots > 0) seqs.push(`${note.oid} ${sim.venue.orderIdOf(seq) ?? 'gone'}`);
    heard.push(`${at()} note ${JSON.stringify(wire, (_k, v: unknown) => (Number.isNaN(v) ? 'NaN' : v))}`);
    if (note.t === 'n' && note.remainingLots > 0) open.push(note.oid);
  };
  if (numbers) {
    alice.ticks.onOwnOrder(onNote);
    alice.ticks.onTop((top) => heard.push(`${at()} top ${JSON.stringify(top)}`));
    alice.onMarketData((m) => heard.push(`${at()} md ${JSON.stringify(m)}`));
  } else {
    alice.onOrderFeed((feed: OrderFeed) => onNote(noteOfFeed(feed, toTicks)));
    alice.onMarketData((m) => heard.push(m.t === '1' ? `${at()} top ${JSON.stringify(topOfBook(m, toTicks))}` : `${at()} md ${JSON.stringify(m)}`));
  }
  const start = sim.clock.nowNs;
  for (const s of steps) {
    sim.clock.scheduleAt(start + BigInt(s.atMs * MS), () => {
      if (s.kind === 'place') alice.oneWay.placeTicks(BTC, s.side, 100_000 + s.offsetTicks, s.qty, s.tif, s.postOnly);
      else if (s.kind === 'odd') void alice.insertOrder({ symbol: BTC, price: s.price, quantity: 1, side: 'B', timeInForce: 'GTC' }).catch(() => undefined);
      else if (s.kind === 'cancel') alice.oneWay.cancel(open[s.pick % Math.max(open.length, 1)] ?? 'O-NOSUCHORDER');
      else if (s.kind === 'bob') sim.venue.placeOrder(bob, { symbol: BTC, price: tick.toPrice(100_000 + s.offsetTicks), quantity: s.qty, side: s.side, timeInForce: 'IOC', postOnly: false });
      else if (s.kind === 'subscribe') alice.oneWay.subscribe(BTC, s.level);
      else alice.oneWay.unsubscribe(BTC);
    });
  }
  sim.clock.runUntil(start + BigInt(200 * MS));
  return { heard, hash: sim.venue.stateHash(), seqs };
}

describe('an in-process port’s numbers (TickFeeds)', () => {
  it('are the feeds and LEVEL_1 books a wire-object strategy hears, read as ticks, at the same times', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 30 }), (steps) => {
        const wire = run(steps, false);
        const numbers = run(steps, true);
        expect(numbers.heard).toEqual(wire.heard);
        expect(numbers.hash).toBe(wire.hash);
        // A resting order's note names its engine id: the venue gives back its wire id (or it ended since).
        for (const line of numbers.seqs) {
          const [oid, found] = line.split(' ');
          expect([oid, 'gone']).toContain(found);
        }
      }),
      { numRuns: 150, seed: 0x71c4 },
    );
  });

  it('carry fills, rejects and cancels with their numbers', () => {
    const { heard } = run(
      [
        { kind: 'subscribe', atMs: 0, level: 'LEVEL_1' },
        { kind: 'place', atMs: 1, side: 'B', offsetTicks: 2, qty: 1, tif: 'IOC', postOnly: false },
        { kind: 'odd', atMs: 2, price: '50000.25' },
        { kind: 'place', atMs: 3, side: 'B', offsetTicks: -1, qty: 2, tif: 'GTC', postOnly: false },
        { kind: 'cancel', atMs: 10, pick: 1 },
        { kind: 'cancel', atMs: 20, pick: 1 },
      ],
      true,
    );
    const notes = heard.filter((h) => h.includes(' note ')).map((h) => JSON.parse(h.slice(h.indexOf('{'))) as Record<string, unknown>);
    expect(notes.map((n) => n.t)).toEqual(['n', 'f', 'j', 'n', 'c', 'e']);
    expect(notes[1]).toMatchObject({ side: 'B', priceTicks: 100_002, fillLots: 1, fillPriceTicks: 100_002, remainingLots: 0 });
    expect(notes[2]).toMatchObject({ t: 'j', priceTicks: 'NaN', reason: expect.any(String) });
    expect(notes[4]).toMatchObject({ t: 'c', priceTicks: 99_999, reason: 'USER_REQUESTED' });
    expect(notes[5]).toMatchObject({ t: 'e', oid: '', reason: 'UNKNOWN_ORDER' });
    expect(heard.find((h) => h.includes(' top '))).toContain('"bidTicks":99998,"bidLots":1,"askTicks":100002,"askLots":1');
  });
});
