import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConstantLatency, type LatencyModel } from '../../src/sim/latency.ts';
import { InProcessPort, PortError } from '../../src/sim/in-process-port.ts';
import { RequestPool } from '../../src/sim/port-request.ts';
import { ListLatency } from './list-latency.ts';
import { Simulation } from '../../src/sim/simulation.ts';
import { parseScenario } from '../../src/scenario/load.ts';

const MS = 1_000_000;


function setup(latency: LatencyModel) {
  const sim = new Simulation(
    parseScenario({
      name: 'port-request-test',
      instruments: [{ symbol: 'BTCUSD-PERP', tickSize: '0.5', indexPrice: '50000' }],
      users: [{ username: 'alice', password: 'pw', cash: '1000000' }],
    }),
  );
  const port = new InProcessPort(sim.venue, sim.venue.account('alice')!, { orderLatency: latency, marketDataLatency: new ConstantLatency(MS) });
  sim.start();
  return { sim, port };
}

type Call = { kind: 'insert'; priceTicks: number } | { kind: 'badInsert' } | { kind: 'cancelUnknown' } | { kind: 'openOrders' } | { kind: 'run'; ms: number };

const calls = fc.array(
  fc.oneof(
    fc.record({ kind: fc.constant('insert' as const), priceTicks: fc.integer({ min: 90_000, max: 99_000 }) }),
    fc.record({ kind: fc.constant('badInsert' as const) }),
    fc.record({ kind: fc.constant('cancelUnknown' as const) }),
    fc.record({ kind: fc.constant('openOrders' as const) }),
    fc.record({ kind: fc.constant('run' as const), ms: fc.integer({ min: 0, max: 12 }) }),
  ),
  { maxLength: 60 },
);

describe('a port request in flight (reused records)', () => {
  it("settles every call's promise with its own answer, in the venue's order, however requests overlap and records are reused", async () => {
    await fc.assert(
      fc.asyncProperty(calls, fc.array(fc.integer({ min: 0, max: 8 * MS }), { minLength: 1, maxLength: 5 }), async (script, latencies) => {
        const { sim, port } = setup(new ListLatency(latencies));
        const newIds: string[] = [];
        port.onOrderFeed((f) => {
          if (f.t === 'n') newIds.push(f.o!.oid);
        });
        const pending: Promise<unknown>[] = [];
        const expected: string[] = [];
        let inserts = 0;
        for (const c of script) {
          if (c.kind === 'run') {
            sim.clock.runUntil(sim.clock.nowNs + BigInt(c.ms * MS));
            continue;
          }
          expected.push(c.kind);
          if (c.kind === 'insert') {
            inserts++;
            pending.push(port.insertOrder({ symbol: 'BTCUSD-PERP', price: String(c.priceTicks / 2), quantity: 1, side: 'B', timeInForce: 'GTC' }));
          } else if (c.kind === 'badInsert') pending.push(port.insertOrder({ symbol: 'BTCUSD-PERP', price: '50000', quantity: 1.5, side: 'B', timeInForce: 'GTC' }));
          else if (c.kind === 'cancelUnknown') pending.push(port.cancelOrder('O-NOSUCHORDER'));
          else pending.push(port.openOrders());
        }
        sim.clock.runUntil(sim.clock.nowNs + 2_000n * BigInt(MS)); // every request and answer is in by then (≤ 60 × 8 ms each way)
        const settled = await Promise.allSettled(pending);
        const ids: string[] = [];
        settled.forEach((s, i) => {
          const kind = expected[i];
          if (kind === 'insert') {
            expect(s.status).toBe('fulfilled');
            ids.push((s as PromiseFulfilledResult<string>).value);
          } else if (kind === 'badInsert') {
            expect(s.status).toBe('rejected');
            expect((s as PromiseRejectedResult).reason).toBeInstanceOf(PortError);
          } else if (kind === 'cancelUnknown') expect(s).toEqual({ status: 'fulfilled', value: undefined }); // the miss arrives as a feed
          else {
            expect(s.status).toBe('fulfilled');
            expect(Array.isArray((s as PromiseFulfilledResult<unknown>).value)).toBe(true);
          }
        });
        expect(ids).toHaveLength(inserts);
        expect(ids).toEqual(newIds); // each insert answered with its own order's id, in the order the venue took them
      }),
      { numRuns: 60 },
    );
  });

  it('gives a record back once answered, cleared, and reuses it for the next request', async () => {
    const pool = new RequestPool();
    const first = pool.take(() => 1, 'a', undefined);
    first.result = 'one';
    first.ok = true;
    const p1 = first.promise!;
    pool.answer(first);
    expect([first.arg, first.result, first.promise, first.order]).toEqual([undefined, undefined, undefined, undefined]);
    expect(() => first.resolve(1)).toThrow(/used while free/);
    const second = pool.take(() => 2, 'b', undefined);
    expect(second).toBe(first);
    second.result = new PortError('no');
    second.ok = false;
    const p2 = second.promise!;
    pool.answer(second);
    await expect(p1).resolves.toBe('one');
    await expect(p2).rejects.toThrow('no');
  });
});
