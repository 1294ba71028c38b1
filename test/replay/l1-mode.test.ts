import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildReplaySimulation } from '../../src/replay/l2/build-replay.ts';
import { replayScenario } from '../../src/replay/l2/replay-scenario.ts';
import { readBinanceRaw } from '../../src/replay/binance-raw.ts';
import { parseScenario } from '../../src/scenario/load.ts';
import type { VenueTrade } from '../../src/venue/feeds.ts';
import { cliInProcess } from '../cli/cli-helpers.ts';
import { btcScenario, BTC_FILE, SYMBOL as BTC } from './l2-fixture.ts';
import { sharedFolder } from './shared-data.ts';

const SECOND = 1_000_000_000n;
const START_NS = 1767225600n * SECOND; // 2026-01-01T00:00:00Z
const US = (s: number) => String(1767225600_000_000 + Math.round(s * 1e6)); // tardis times are µs
const tmp = mkdtempSync(join(tmpdir(), 'perpsim-l1-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/**
 * A hand-made L1 recording (tardis quotes + trades) of TESTUSDT, prices in 0.1 steps (100.0 =
 * 1000 ticks): the touch 100.0 × 5 / 100.1 × 4; sellers hit 100.0 for 3, the touch shows 2
 * left, sellers hit it for 3 more; the touch moves down to 99.9 × 4; sellers hit 99.9 for 5, then 2.
 */
function writeRecording(): string[] {
  const quotes = join(tmp, 'binance-futures_quotes_TESTUSDT.csv');
  const trades = join(tmp, 'binance-futures_trades_TESTUSDT.csv');
  const q = (s: number, bid: string, bidQty: number) => `binance-futures,TESTUSDT,${US(s)},${US(s)},4,100.1,${bid},${bidQty}`;
  writeFileSync(quotes, ['exchange,symbol,timestamp,local_timestamp,ask_amount,ask_price,bid_price,bid_amount', q(1, '100.0', 5), q(3.5, '100.0', 2), q(5, '99.9', 4), ''].join('\n'));
  const t = (s: number, id: number, price: string, amount: number) => `binance-futures,TESTUSDT,${US(s)},${US(s)},${id},sell,${price},${amount}`;
  writeFileSync(trades, ['exchange,symbol,timestamp,local_timestamp,id,side,price,amount', t(3, 1, '100.0', 3), t(4, 2, '100.0', 3), t(6, 3, '99.9', 5), t(7, 4, '99.9', 2), ''].join('\n'));
  return [quotes, trades];
}

function scenario(mode: 'l1' | 'l2') {
  return parseScenario({
    name: `l1-${mode}`,
    start: '2026-01-01T00:00:00Z',
    duration: '10s',
    instruments: [{ symbol: 'TESTUSD-PERP', tickSize: '0.1', indexPrice: '100' }],
    users: [{ username: 'alice', password: 'pw', cash: '1000000' }],
    market: { replay: { format: 'tardis', mode, files: writeRecording(), symbolMap: { TESTUSDT: { symbol: 'TESTUSD-PERP', tickSize: '0.1' } } } },
  });
}

/**
 * Alice rests a bid of 2 at the touch (100.0) and a bid of 1 one step behind it (99.9) at 2 s;
 * returns when each lot of each was filled (seconds into the run) and the queue estimates.
 */
async function scriptedBids(mode: 'l1' | 'l2') {
  const built = await buildReplaySimulation(scenario(mode));
  const { sim, replayer } = built;
  const market = sim.venue.market('TESTUSD-PERP')!;
  const alice = sim.venue.account('alice')!;
  const fills: string[] = [];
  sim.venue.subscribe({ trade: (t: VenueTrade) => void (t.makerUserId === alice.id && fills.push(`${t.priceTicks}×${t.qtyLots}@${t.sec - Number(START_NS / SECOND)}s`)) });
  const ahead = { touch: [] as number[], behind: [] as number[] };
  let ids: { touch: string; behind: string } | undefined;
  sim.clock.scheduleAt(START_NS + 2n * SECOND, () => {
    ids = { touch: sim.venue.placeOrderTicks(alice, market, 'B', 1000, 2).id, behind: sim.venue.placeOrderTicks(alice, market, 'B', 999, 1).id };
  });
  sim.start();
  // The estimates after each recorded event from 2 s on.
  for (const s of [2n, 3n, 4n, 5n, 6n]) {
    sim.runUntil(START_NS + s * SECOND + SECOND / 4n);
    const of = (id: string) => replayer.tracker.orders(market).find((o) => o.orderId === id)?.ahead ?? NaN;
    ahead.touch.push(of(ids!.touch));
    ahead.behind.push(of(ids!.behind));
  }
  sim.runUntil(sim.endNs);
  return { fills, ahead, built };
}

describe('the L1 + trades replay mode', () => {
  it('fills a bid at the touch once recorded trades at its price have used up the queue shown ahead of it', async () => {
    const { fills, ahead } = await scriptedBids('l1');
    // Joins behind the 5 shown; trades of 3 leave 2 ahead; the touch shows 2: still 2; 3 more
    // sold: 1 lot filled (4 s). The touch moves below it: nothing ahead; 5 sold at 99.9 go
    // through its price: its last lot fills (6 s).
    expect(ahead.touch).toEqual([5, 2, 0, 0, NaN]);
    expect(fills.filter((f) => f.startsWith('1000×'))).toEqual(['1000×1@4s', '1000×1@6s']);
  });

  it('keeps the estimate of a bid behind the touch until its level is the touch, then queues it behind what is shown', async () => {
    const { fills, ahead } = await scriptedBids('l1');
    // Unknown (∞) while 99.9 is not shown; 4 ahead once it is the touch (5 s); of the 5 sold at
    // 99.9 at 6 s one goes to the better bid and 4 to the queue ahead; the 2 sold at 7 s fill it.
    expect(ahead.behind).toEqual([Infinity, Infinity, Infinity, 4, 0]);
    expect(fills.filter((f) => f.startsWith('999×'))).toEqual(['999×1@7s']);
  });

  it('differs from reading the same quotes as a full book, where an unshown level counts as empty', async () => {
    const { fills, ahead } = await scriptedBids('l2');
    // As L2 data, 99.9 shows nothing when the bid joins: nothing ahead, filled at 6 s already.
    expect(ahead.behind[0]).toBe(0);
    expect(fills.filter((f) => f.startsWith('999×'))).toEqual(['999×1@6s']);
  });

  it('makes the recorded touch the whole external book', async () => {
    const { built } = await scriptedBids('l1');
    const market = built.sim.venue.market('TESTUSD-PERP')!;
    // After the last quote: 99.9 × 4 and 100.1 × 4 are the only recorded levels.
    expect([999, 1000, 1001].map((p) => built.sim.venue.external.displayedLots(market, p === 1001 ? 'S' : 'B', p))).toEqual([4, 0, 4]);
    expect(built.replayer.stats).toMatchObject({ bookEvents: 3, recordedTrades: 4 });
  });

  it('replays a Binance raw capture from its bookTicker and trade lines only', async () => {
    let tickers = 0;
    let trades = 0;
    for await (const e of readBinanceRaw(BTC_FILE, { tickSize: '0.1', lotSize: '0.001' })) {
      if (e.kind === 'bookTicker') tickers++;
      else if (e.kind === 'trade') trades++;
    }
    const btc = btcScenario();
    const built = await buildReplaySimulation(parseScenario({ ...btc, market: { replay: { ...btc.market!.replay, mode: 'l1' } } }));
    const market = built.sim.venue.market(BTC)!;
    let maxLevels = 0;
    built.sim.venue.subscribe({ bookChanged: (m) => void (m === market && (maxLevels = Math.max(maxLevels, market.book.l2(5).bids.length, market.book.l2(5).asks.length))) });
    built.sim.start();
    built.sim.runUntil(built.sim.endNs);
    expect(built.replayer.stats.bookEvents).toBe(tickers);
    expect(built.replayer.stats.recordedTrades).toBe(trades);
    expect(maxLevels).toBe(1); // never more than the touch
  }, 120_000); // a guard for a loaded machine, not a timing assertion
});

const tardis = sharedFolder('tardis-nautilus-samples', 'perpsim run --replay-mode l1 on real tardis quotes and trades');

const dump = sharedFolder('binance-futures-bookticker', 'L1 replay of a Binance bookTicker data dump');

describe.skipIf(dump.missing)(dump.title, () => {
  it('takes every row of the dump as the recorded touch', async () => {
    const file = join(dump.dir, 'BTCUSDT-bookTicker-2023-10-02-short.csv');
    const rows = readFileSync(file, 'utf8').trim().split('\n').length - 1;
    const { scenario, events = [] } = await replayScenario({ files: [file], mode: 'l1' }, undefined, { load: true });
    expect(scenario.market!.replay.mode).toBe('l1');
    expect(events).toHaveLength(rows);
    expect(events.every((e) => e.kind === 'book' && e.reset && e.updates.length === 2 && e.updates[0]!.side === 'B' && e.updates[1]!.side === 'S')).toBe(true);
    const built = await buildReplaySimulation(scenario, { events });
    built.sim.start();
    built.sim.runUntil(built.sim.endNs);
    expect(built.replayer.stats.bookEvents).toBe(rows);
  }, 120_000);
});

describe('--replay-mode on the command line', () => {
  it.skipIf(tardis.missing)('runs tardis quotes + trades as L1 + trades, with the quotes as the book', async () => {
    const dir = join(tardis.dir, '2020-02-22_binance-futures_BTCUSDT');
    const out = join(tmp, 'run-l1');
    const r = await cliInProcess('run', '--replay', join(dir, 'quotes.csv'), join(dir, 'trades.csv'), '--replay-mode', 'l1', '--tick-size', '0.01', '--lot-size', '0.001', '--out', out);
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { trades: number; events_by_kind: Record<string, number> };
    expect(summary.trades).toBeGreaterThan(9000); // the 9,999 recorded trades print (some at one instant merge)
  }, 120_000);

  it('refuses --replay-mode without --replay, and a mode it does not know, in one line with exit code 2', async () => {
    const alone = await cliInProcess('run', '--replay-mode', 'l1', '--out', join(tmp, 'x'));
    expect(alone.code).toBe(2);
    expect(alone.stderr.trim()).toBe('perpsim: --replay-mode needs --replay FILES');
    const unknown = await cliInProcess('run', '--replay', BTC_FILE, '--replay-mode', 'l3', '--out', join(tmp, 'y'));
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim()).toBe('perpsim: --replay-mode must be l2 or l1, got "l3"');
  });
});
