import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseMoney } from '../../src/core/money.ts';
import { buildReplaySimulation } from '../../src/replay/l2/build-replay.ts';
import { parseScenario } from '../../src/scenario/load.ts';
import { EXTERNAL_OWNER } from '../../src/venue/external-owner.ts';
import type { VenueTrade } from '../../src/venue/feeds.ts';
import { sharedFolder } from './shared-data.ts';

const tmp = mkdtempSync(join(tmpdir(), 'perpsim-l2-tardis-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const SECOND = 1_000_000_000n;

const funding = sharedFolder('freqtrade-binance-futures-funding', 'derivative ticker replay (real Binance XRPUSDT marks and funding rates, in tardis derivative_ticker form)');

describe.skipIf(funding.missing)(funding.title, () => {
  // Real hourly mark candles and 8-hourly funding rates, written as tardis derivative_ticker rows:
  // mark_price = the candle's close, index_price = its open (the series has no separate index),
  // funding_rate = the rate of the next settlement. The receipt time is the row's time + 2 ms.
  const marks = JSON.parse(readFileSync(join(funding.dir, 'XRP_USDT_USDT-1h-mark.json'), 'utf8')) as [number, number, number, number, number][];
  const rates = JSON.parse(readFileSync(join(funding.dir, 'XRP_USDT_USDT-8h-funding_rate.json'), 'utf8')) as [number, number][];
  const from = Date.UTC(2021, 10, 18); // the files overlap from 2021-11-18 00:00 UTC
  const rows = marks
    .filter(([t]) => t >= from)
    .map(([t, open, , , close]) => {
      const next = rates.find(([ft]) => ft > t)!;
      const ts = t * 1000;
      return { ts, open: String(open), close: String(close), fundingMs: Math.floor(next[0] / 1000) * 1000, rate: String(next[1]) };
    });
  const file = join(tmp, 'binance-futures_derivative_ticker_XRPUSDT.csv');
  writeFileSync(
    file,
    ['exchange,symbol,timestamp,local_timestamp,funding_timestamp,funding_rate,predicted_funding_rate,open_interest,last_price,index_price,mark_price']
      .concat(rows.map((r) => `binance-futures,XRPUSDT,${r.ts},${r.ts + 2000},${r.fundingMs * 1000},${r.rate},,,,${r.open},${r.close}`))
      .join('\n') + '\n',
  );
  const scenario = parseScenario({
    name: 'ticker',
    start: '2021-11-18T00:00:00Z',
    duration: '9h',
    instruments: [{ symbol: 'XRPUSDT-PERP', tickSize: '0.0001', indexPrice: '1', priceBandPct: '50' }],
    users: [
      { username: 'alice', password: 'pw', cash: '100000' },
      { username: 'bob', password: 'pw', cash: '100000' },
    ],
    market: { replay: { format: 'tardis', files: [file], symbolMap: { XRPUSDT: 'XRPUSDT-PERP' } } },
  });
  const ticks = (text: string) => Math.round(Number(text) * 10_000);

  it('drives the mark and the index from the recorded series, and funding settles at the recorded rate', async () => {
    const { sim, replayer } = await buildReplaySimulation(scenario);
    const market = sim.venue.market('XRPUSDT-PERP')!;
    const alice = sim.venue.account('alice')!;
    const bob = sim.venue.account('bob')!;
    sim.runUntil(sim.startNs + 1800n * SECOND); // 00:30
    const first = rows[0]!;
    expect(market.markTicks).toBe(ticks(first.close));
    expect(market.indexTicks).toBe(ticks(first.open));
    // Alice goes long 1000 XRP from Bob, at the recorded mark.
    sim.venue.placeOrderTicks(bob, market, 'S', market.markTicks, 1000);
    sim.venue.placeOrderTicks(alice, market, 'B', market.markTicks, 1000);
    expect(alice.findPosition(market)!.position.netLots).toBe(1000);
    sim.runUntil(sim.startNs + 7n * 3600n * SECOND + 1800n * SECOND); // 07:30
    const seven = rows[7]!;
    expect(market.markTicks).toBe(ticks(seven.close));
    expect(market.indexTicks).toBe(ticks(seven.open));
    sim.runUntil(sim.startNs + 8n * 3600n * SECOND + 1800n * SECOND); // past the 08:00 settlement
    expect(market.fundingHistory.length).toBe(1);
    const f = market.fundingHistory[0]!;
    expect(Number(f.fundingRate)).toBe(Number(seven.rate)); // the recorded rate, not one from mark vs index
    // amount per contract = rate × benchmark (the index), exactly; longs pay shorts.
    const perContract = Number(f.fundingRate) * Number(f.benchmarkPrice);
    expect(Number(f.fundingAmount)).toBeCloseTo(perContract, 12);
    expect(alice.findPosition(market)!.funding).toBe(-parseMoney(f.fundingAmount) * 1000n);
    expect(bob.findPosition(market)!.funding).toBe(parseMoney(f.fundingAmount) * 1000n);
    expect(replayer.stats.tickers).toBeGreaterThan(8);
  }, 60_000);
});

const tardis = sharedFolder('tardis-nautilus-samples', 'tardis quotes + trades replay (real Binance futures BTCUSDT, 2020-02-22)');

describe.skipIf(tardis.missing)(tardis.title, () => {
  it('replays tardis quotes as the recorded top of book and prints every recorded trade, late by the recorded receipt delay', async () => {
    const dir = join(tardis.dir, '2020-02-22_binance-futures_BTCUSDT');
    const scenario = parseScenario({
      name: 'tardis',
      start: '2020-02-22T00:00:00Z',
      duration: '4m',
      instruments: [{ symbol: 'BTCUSDT-PERP', tickSize: '0.00001', indexPrice: '9.68' }],
      market: { replay: { format: 'tardis', files: [join(dir, 'quotes.csv'), join(dir, 'trades.csv')], symbolMap: { BTCUSDT: { symbol: 'BTCUSDT-PERP', lotSize: '0.001', tickSize: '0.01' } } } },
    });
    const built = await buildReplaySimulation(scenario);
    const { sim, replayer } = built;
    const trades: VenueTrade[] = [];
    sim.venue.subscribe({ trade: (t) => void trades.push(t.toJSON()) });
    sim.runUntil(sim.startNs + 4n * 60n * SECOND);
    const market = sim.venue.market('BTCUSDT-PERP')!;
    // The first quote: ask 0.84 @ 9682, bid 0.67 @ 9681.92 (per-lot prices: × 0.001).
    expect(replayer.stats.bookEvents).toBeGreaterThan(9000);
    expect(market.book.l2().bids.length).toBe(1); // a quote restates the one-level book
    expect(market.book.l2().asks.length).toBe(1);
    expect(trades.length).toBeGreaterThan(100);
    expect(trades.every((t) => t.makerUserId === EXTERNAL_OWNER && t.takerUserId === EXTERNAL_OWNER)).toBe(true);
    expect(trades[0]!.priceTicks).toBe(968200); // 9682 at a 0.01 step
    expect(trades[0]!.qtyLots).toBe(132); // 0.132 BTC
    expect(replayer.feedDelay.sampleNs()).toBeGreaterThan(0); // tardis receipt − exchange time
  }, 60_000);
});
