import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { WireExchangePort } from '../../src/api/client/wire-exchange-port.ts';
import { runBacktest } from '../../src/backtest/runner.ts';
import { parseServeArgs } from '../../src/cli/commands/serve.ts';
import { startServing } from '../../src/cli/serve-command.ts';
import { TickSize } from '../../src/core/price.ts';
import { parseTimestamp } from '../../src/core/time.ts';
import type { L2Event } from '../../src/replay/l2/l2-event.ts';
import { replayScenario } from '../../src/replay/l2/replay-scenario.ts';
import { MarketDataRecorder } from '../../src/replay/md-recorder.ts';
import type { ExchangePort } from '../../src/strategy/exchange-port.ts';
import type { Strategy } from '../../src/strategy/strategy.ts';
import { SHARED_DATA } from './shared-data.ts';

const tmp = mkdtempSync(join(tmpdir(), 'perpsim-record-replay-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const DIR = join(SHARED_DATA, 'tardis-nautilus-samples/2020-02-22_binance-futures_BTCUSDT');
const FILES = [join(DIR, 'quotes.csv'), join(DIR, 'trades.csv')];
const UNITS = ['--tick-size', '0.01', '--lot-size', '0.001'];
const SYMBOL = 'BTCUSDT-PERP';
const SECOND = 1_000_000_000n;
const TICK = new TickSize('0.00001'); // 0.01 USDT per 0.001 BTC: the instrument quotes per recorded lot

/** The recorded ask (ticks) in force at `tNs`: the last one-level book at or before it. */
function askAt(events: readonly L2Event[], tNs: bigint): number | undefined {
  let ask: number | undefined;
  for (const e of events) {
    if (e.tsNs > tNs) break;
    if (e.kind === 'book') ask = e.updates.find((u) => u.side === 'S')?.priceTicks ?? ask;
  }
  return ask;
}

/** Buys one lot IOC at the given ask at each of the given times (absolute sim ns): a taker whose fills depend on the book only. */
function scriptedTaker(orders: readonly { atNs: bigint; askTicks: number }[]): Strategy {
  return {
    onStart(port: ExchangePort) {
      for (const o of orders) {
        port.setTimer(Number(o.atNs - port.now()), () => void port.insertOrder({ symbol: SYMBOL, side: 'B', price: TICK.toPrice(o.askTicks), quantity: 1, timeInForce: 'IOC' }));
      }
    },
  };
}

describe('record → replay gives the original replay', () => {
  it('records the served replay of tardis quotes and trades with perpsim record, and a scripted taker gets the same fills from the recording as from the original files', async () => {
    const original = await replayScenario({ files: FILES, tickSize: '0.01', lotSize: '0.001' }, undefined, { load: true });
    const serving = await startServing(parseServeArgs(['--replay', ...FILES, ...UNITS, '--port', '0', '--manual', '--admin-token', 'T'], {}), { scryptCost: 1024 });
    const out = join(tmp, 'md.arrow');
    const clock = serving.exchange.venue.clock;
    // The receive time is the sim time a message left at (a live capture would stamp wall time).
    const recorder = new MarketDataRecorder({ url: `${serving.server.wsUrl}/md/ws`, symbols: [SYMBOL], level: 'LEVEL_2', out, username: 'trader', password: 'trader', flushMs: 20, now: () => clock.nowNs });
    let windowNs: { startNs: bigint; endNs: bigint };
    try {
      await recorder.start();
      const admin = await WireExchangePort.connect({ baseUrl: serving.server.url, username: 'trader', password: 'trader', adminToken: 'T' });
      try {
        const startNs = clock.nowNs;
        await admin.admin!.advance(40); // forty seconds of the recording, every instant's book on the socket
        windowNs = { startNs, endNs: clock.nowNs };
        let seen = -1;
        await vi.waitFor(() => {
          const now = recorder.messages;
          const settled = now === seen;
          seen = now;
          expect(settled && now > 10).toBe(true);
        }, { timeout: 30_000, interval: 300 });
      } finally {
        await admin.close();
      }
    } finally {
      await recorder.stop();
      await serving.close();
    }
    const recorded = await replayScenario({ files: [out] }, undefined, { load: true });
    expect(recorded.scenario.instruments.map((i) => [i.symbol, i.tickSize])).toEqual([[SYMBOL, '0.00001']]);
    // Every 2 s of the recorded window (from 3 s in), one lot at the recorded ask of that moment.
    const orders: { atNs: bigint; askTicks: number }[] = [];
    for (let t = windowNs.startNs + 3n * SECOND; t < windowNs.endNs - SECOND; t += 2n * SECOND) {
      const askTicks = askAt(original.events!, t);
      if (askTicks !== undefined) orders.push({ atNs: t, askTicks });
    }
    expect(orders.length).toBeGreaterThan(10);
    const run = (r: typeof original) => runBacktest(scriptedTaker(orders), { scenario: r.scenario, replayEvents: r.events, durationNs: windowNs.endNs - parseTimestamp(r.scenario.start)! });
    const [a, b] = [await run(original), await run(recorded)];
    expect(a.fills.length).toBeGreaterThan(5);
    // Order and trade ids count everything the venue numbered (recorded prints too): compared without them.
    const view = (fills: typeof a.fills) => fills.map(({ orderId: _o, tradeId: _t, ...f }) => f);
    expect(view(b.fills)).toEqual(view(a.fills));
  }, 120_000);
});
