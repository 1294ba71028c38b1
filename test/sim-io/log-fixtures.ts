import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseMoney } from '../../src/core/money.ts';
import { loadScenario, parseScenario } from '../../src/scenario/load.ts';
import { buildSimulation } from '../../src/sim/build.ts';
import { attachEventLog, type EventLogRecorderOptions } from '../../src/sim/event-log/recorder.ts';
import { Simulation } from '../../src/sim/simulation.ts';
import type { Account } from '../../src/venue/account.ts';
import type { Market } from '../../src/venue/market.ts';
import type { Venue } from '../../src/venue/venue.ts';

/** Temporary folders named `prefix…`, removed together by `removeAll` (call it from `afterAll`). */
export function tempDirs(prefix: string): { newDir: () => string; removeAll: () => void } {
  const dirs: string[] = [];
  return {
    newDir: () => {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(dir);
      return dir;
    },
    removeAll: () => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })),
  };
}

/**
 * The rows both writer tests script at one instant: five resting bids and an IOC that trades
 * through them, rows read from wire feeds (a symbol first seen mid-run, a price off the grid,
 * an unknown order) and an index change.
 */
export function scriptWireFeedRows(v: Venue, alice: Account, bob: Account, btc: Market): void {
  for (let i = 0; i < 5; i++) v.placeOrderTicks(alice, btc, 'B', 99_990 - i, 3);
  v.placeOrderTicks(bob, btc, 'S', 99_980, 7, 'IOC');
  v.placeOrder(bob, { symbol: 'XYZ-PERP', price: '1.23', quantity: 1, side: 'S', timeInForce: 'GTC', postOnly: false });
  v.placeOrder(bob, { symbol: 'BTCUSD-PERP', price: '50000.25', quantity: 1, side: 'S', timeInForce: 'GTC', postOnly: false });
  v.cancelOrder(bob, 'O-NOSUCHORDER');
  v.setIndexPrice(btc, 100_010);
}

/** How a log hands over what it recorded: batches, or rows as numbers. */
export type Sink = Pick<EventLogRecorderOptions, 'onBatch' | 'onRows'>;

export const scripted = parseScenario({
  name: 'rows-log',
  start: '2026-01-01T07:59:00Z',
  duration: '10m',
  instruments: [{ symbol: 'BTCUSD-PERP', tickSize: '0.5', indexPrice: '50000' }],
  users: [
    { username: 'alice', password: 'pw-alice', cash: '1000000' },
    { username: 'bob', password: 'pw-bob', cash: '1000000' },
  ],
});

/**
 * Ten scripted minutes, in batches of 3 rows: rows read from wire feeds (an unknown symbol, a
 * price off the grid, an unknown order), instrument states, a trade, a funding rate, and an
 * account added mid-run that trades.
 */
export function scriptedLog(sink: Sink): void {
  const sim = new Simulation(scripted);
  const recorder = attachEventLog(sim.venue, { ...sink, batchRows: 3, reuseBuffers: true });
  const v = sim.venue;
  const [alice, bob, btc] = [v.account('alice')!, v.account('bob')!, v.market('BTCUSD-PERP')!];
  sim.clock.scheduleAt(sim.startNs + 5_000_000_000n, () => {
    scriptWireFeedRows(v, alice, bob, btc);
    v.setInstrumentState(btc, 'HALTED');
    v.setInstrumentState(btc, 'OPEN');
  });
  sim.clock.scheduleAt(sim.startNs + 7_000_000_000n, () => {
    const carol = v.addUser('carol', parseMoney('1000000'));
    v.placeOrderTicks(carol, btc, 'S', 99_985, 2);
    v.placeOrderTicks(alice, btc, 'B', 99_985, 4);
    v.settleFundingNow(btc);
  });
  sim.runToEnd();
  recorder.flush();
}

/** Ten minutes of `default` in batches of 8,192 rows. */
export function defaultLog(sink: Sink): void {
  const sim = buildSimulation(loadScenario('default'), { durationNs: 600_000_000_000n });
  const recorder = attachEventLog(sim.venue, { ...sink, batchRows: 8192, reuseBuffers: true });
  sim.runToEnd();
  recorder.flush();
}
