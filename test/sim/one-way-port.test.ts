import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RandomStream } from '../../src/random/random-stream.ts';
import { InProcessPort } from '../../src/sim/in-process-port.ts';
import { LogNormalLatency } from '../../src/sim/latency.ts';
import { aliceAndBob, BTC } from './alice-and-bob.ts';

const MS = 1_000_000;
const SYMBOL = BTC;

type Step =
  | { kind: 'place'; atMs: number; side: 'B' | 'S'; offsetTicks: number; qty: number; tif: 'GTC' | 'IOC'; postOnly: boolean }
  | { kind: 'cancel'; atMs: number; pick: number }
  | { kind: 'subscribe'; atMs: number; level: 'LEVEL_1' | 'LEVEL_2' }
  | { kind: 'unsubscribe'; atMs: number };

const atMs = fc.integer({ min: 0, max: 40 });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('place' as const), atMs, side: fc.constantFrom<'B' | 'S'>('B', 'S'), offsetTicks: fc.integer({ min: -6, max: 6 }), qty: fc.integer({ min: 1, max: 4 }), tif: fc.constantFrom<'GTC' | 'IOC'>('GTC', 'IOC'), postOnly: fc.boolean() }),
  fc.record({ kind: fc.constant('cancel' as const), atMs, pick: fc.nat(20) }),
  fc.record({ kind: fc.constant('subscribe' as const), atMs, level: fc.constantFrom<'LEVEL_1' | 'LEVEL_2'>('LEVEL_1', 'LEVEL_2') }),
  fc.record({ kind: fc.constant('unsubscribe' as const), atMs }),
);

/**
 * Runs `steps` from alice's port, through its one-way requests or through the promise calls,
 * against a book bob fills with resting orders; returns everything alice heard, with the sim
 * time it arrived at, and the venue's state hash.
 */
function run(steps: readonly Step[], oneWay: boolean): { heard: string[]; hash: string } {
  const sim = aliceAndBob('one-way');
  const latency = (name: string) => new LogNormalLatency(new RandomStream(name), 1 * MS, 0.5 * MS);
  const alice = new InProcessPort(sim.venue, sim.venue.account('alice')!, { orderLatency: latency('order'), marketDataLatency: latency('md') });
  const market = sim.venue.market(SYMBOL)!;
  const bob = sim.venue.account('bob')!;
  for (let i = 1; i <= 5; i++) {
    sim.venue.placeOrderTicks(bob, market, 'B', 100_000 - 2 * i, i);
    sim.venue.placeOrderTicks(bob, market, 'S', 100_000 + 2 * i, i);
  }
  const heard: string[] = [];
  const open: string[] = [];
  const at = () => `${sim.clock.nowNs}`;
  alice.onOrderFeed((f) => {
    heard.push(`${at()} ${JSON.stringify(f)}`);
    if (f.t === 'n' && f.o !== undefined && f.o.rq > 0) open.push(f.o.oid);
  });
  alice.onMarketData((m) => heard.push(`${at()} ${JSON.stringify(m)}`));
  const tick = market.instrument.tick;
  const start = sim.clock.nowNs;
  for (const s of steps) {
    sim.clock.scheduleAt(start + BigInt(s.atMs * MS), () => {
      if (s.kind === 'place') {
        const ticks = 100_000 + s.offsetTicks;
        if (oneWay) alice.oneWay.placeTicks(SYMBOL, s.side, ticks, s.qty, s.tif, s.postOnly);
        else void alice.insertOrder({ symbol: SYMBOL, price: tick.toPrice(ticks), quantity: s.qty, side: s.side, timeInForce: s.tif, postOnly: s.postOnly });
      } else if (s.kind === 'cancel') {
        const id = open[s.pick % Math.max(open.length, 1)] ?? '999';
        if (oneWay) alice.oneWay.cancel(id);
        else void alice.cancelOrder(id);
      } else if (s.kind === 'subscribe') {
        if (oneWay) alice.oneWay.subscribe(SYMBOL, s.level);
        else void alice.subscribe(SYMBOL, s.level);
      } else if (oneWay) alice.oneWay.unsubscribe(SYMBOL);
      else void alice.unsubscribe(SYMBOL);
    });
  }
  sim.clock.runUntil(start + BigInt(200 * MS));
  return { heard, hash: sim.venue.stateHash() };
}

describe('the in-process port’s one-way requests', () => {
  it('leave every feed, market-data message, arrival time and the venue state as the promise calls do', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 25 }), (steps) => {
        const promised = run(steps, false);
        const oneWay = run(steps, true);
        expect(oneWay.heard).toEqual(promised.heard);
        expect(oneWay.hash).toBe(promised.hash);
      }),
      { numRuns: 150, seed: 0x0e1a },
    );
  });

  it('throw where they run when the symbol is unknown (nobody would hear a refusal)', () => {
    const sim = aliceAndBob('unknown-symbol');
    const alice = new InProcessPort(sim.venue, sim.venue.account('alice')!);
    alice.oneWay.placeTicks('NOPE-PERP', 'B', 1, 1, 'GTC', false);
    expect(() => sim.clock.runUntil(sim.clock.nowNs + 1n)).toThrow(/unknown symbol NOPE-PERP/);
  });
});
