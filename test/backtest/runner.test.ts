import { describe, expect, it } from 'vitest';
import { BacktestError, runBacktest, type BacktestConfig } from '../../src/backtest/runner.ts';
import { loadScenario } from '../../src/scenario/load.ts';
import type { ExchangePort } from '../../src/strategy/exchange-port.ts';
import type { Strategy } from '../../src/strategy/strategy.ts';
import type { OrderFeed } from '../../src/wire/order.ts';

const MS = 1_000_000n;
const S = 1_000_000_000n;
/** `empty` with a constant 1 ms order and market-data latency: every hop is exactly 1 ms. */
const config = (durationNs: bigint, extra: Partial<BacktestConfig> = {}): BacktestConfig => ({
  scenario: loadScenario('empty'),
  durationNs,
  orderLatency: { floorMs: 1, jitterMs: 0, sigma: 0 },
  marketDataLatency: { floorMs: 1, jitterMs: 0, sigma: 0 },
  ...extra,
});

describe('the backtest runner', () => {
  it('gives the event loop a turn during a long run, so signal handlers, timers and I/O are not held off until it ends', async () => {
    let progressCalls = 0;
    let progressAtTurn = -1;
    const strategy: Strategy = {
      onStart() {
        // Queued at sim start: it runs at the first event-loop turn the runner gives.
        setImmediate(() => void (progressAtTurn = progressCalls));
      },
    };
    // 20 sim-minutes of `default`: ~140 k events, two progress intervals and the end's report.
    await runBacktest(strategy, { scenario: loadScenario('default'), seed: 1, durationNs: 1_200n * S, onProgress: () => void progressCalls++ });
    expect(progressCalls).toBeGreaterThanOrEqual(2);
    expect(progressAtTurn).toBeGreaterThanOrEqual(0);
    expect(progressAtTurn).toBeLessThan(progressCalls);
  });

  it('resumes a strategy after each awaited port call at the sim time the answer arrived', async () => {
    const seen: [string, bigint][] = [];
    let t0 = 0n;
    const strategy: Strategy = {
      async onStart(port) {
        t0 = port.now();
        await port.instruments(); // request 1 ms + response 1 ms
        seen.push(['instruments', port.now() - t0]);
        const id = await port.insertOrder({ symbol: 'BTCUSD-PERP', price: '49000', quantity: 1, side: 'B', timeInForce: 'GTC' });
        seen.push([`insert ${id.slice(0, 2)}`, port.now() - t0]);
        await Promise.resolve(); // a chain of plain microtasks stays at the same instant
        await Promise.resolve();
        const open = await port.openOrders();
        seen.push([`open ${open.length}`, port.now() - t0]);
        port.setTimer(Number(500n * MS), async () => {
          const canceled = await port.cancelAll();
          seen.push([`cancelAll ${canceled.successful.length}`, port.now() - t0]);
        });
      },
      onOrderFeed(feed, port) {
        seen.push([`feed ${feed.t}`, port.now() - t0]);
      },
    };
    const result = await runBacktest(strategy, config(2n * S));
    expect(seen).toEqual([
      ['instruments', 2n * MS],
      ['feed n', 4n * MS], // the feed travels on the response channel, ahead of the ack
      ['insert O-', 4n * MS],
      ['open 1', 6n * MS],
      ['feed c', 508n * MS],
      ['cancelAll 1', 508n * MS],
    ]);
    expect(result.orders).toEqual({ submitted: 1, accepted: 1, rejected: 0, acceptedLots: 1, canceled: 1, rejectReasons: {} });
  });

  it('records a fill with its exact fee, the position it leaves, and equity on a fixed grid', async () => {
    // Two resting sells from another user are not possible in `empty`, so the strategy trades with
    // itself: self-trade prevention is off by default, and both sides of the trade are its own.
    const strategy: Strategy = {
      async onStart(port) {
        await port.insertOrder({ symbol: 'BTCUSD-PERP', price: '50000', quantity: 2, side: 'S', timeInForce: 'GTC' });
        await port.insertOrder({ symbol: 'BTCUSD-PERP', price: '50000', quantity: 1, side: 'B', timeInForce: 'IOC' });
      },
    };
    const result = await runBacktest(strategy, config(150n * S, { sampleIntervalNs: 60n * S }));
    expect(result.fills.map((f) => [f.side, f.price, f.qty, f.maker, f.fee, f.positionAfter])).toEqual([
      ['S', '50000', 1, true, 0n, -1], // maker fee 0
      ['B', '50000', 1, false, 10n ** 19n, 0], // taker 0.0002 × 50,000 = 10
    ]);
    expect(result.samples.map((s) => s.tNs - result.startNs)).toEqual([0n, 60n * S, 120n * S, 150n * S]);
    expect(result.final.fees).toBe(10n ** 19n);
    expect(result.final.equity).toBe(result.startingCash - 10n ** 19n);
  });

  it('fails with the strategy error and the sim time when a callback throws', async () => {
    const strategy: Strategy = {
      onStart(port: ExchangePort) {
        port.setTimer(Number(3n * S), () => {
          throw new Error('boom');
        });
      },
    };
    await expect(runBacktest(strategy, config(10n * S))).rejects.toThrow(new BacktestError('the strategy failed at 2026-01-01T00:00:03.000000000Z: boom'));
  });

  it('says so when onStart never finishes', async () => {
    const strategy: Strategy = { onStart: () => new Promise<void>(() => undefined) };
    await expect(runBacktest(strategy, config(S))).rejects.toThrow(new BacktestError('the strategy never finished onStart'));
  });

  it('refuses a strategy user that the scenario already has', async () => {
    await expect(runBacktest({ onStart() {} }, config(S, { username: 'alice' }))).rejects.toThrow(/alice is already a user/);
  });

  it('hands every order feed to an async onOrderFeed at its own arrival time', async () => {
    const times: bigint[] = [];
    const strategy: Strategy = {
      async onStart(port) {
        await port.insertOrder({ symbol: 'BTCUSD-PERP', price: '49000', quantity: 1, side: 'B', timeInForce: 'GTC' });
      },
      async onOrderFeed(feed: OrderFeed, port) {
        if (feed.t !== 'n') return;
        await port.cancelOrder(feed.o!.oid);
        times.push(port.now());
      },
    };
    const result = await runBacktest(strategy, config(S));
    expect(times).toEqual([result.startNs + 4n * MS]); // feed at 2 ms, cancel request + answer 2 ms more
    expect(result.orders.canceled).toBe(1);
  });
});
