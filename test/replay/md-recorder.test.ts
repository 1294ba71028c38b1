import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { wallClockNs } from '../../src/cli/wall-clock.ts';
import { ArrowReplaySource } from '../../src/replay/arrow-source.ts';
import { httpBase, MarketDataRecorder, RecorderError } from '../../src/replay/md-recorder.ts';
import { RecordBook, type MarketRecord } from '../../src/replay/market-records.ts';
import { startFixture, type Fixture } from '../api/ws/helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'perpsim-record-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BTC = 'BTCUSD-PERP';
const ETH = 'ETHUSD-PERP';

let fx: Fixture;
beforeEach(async () => {
  fx = await startFixture();
});
afterEach(async () => {
  await fx.close();
});

function order(user: 'alice' | 'bob', symbol: string, side: 'B' | 'S', quantity: number, price: string, timeInForce: 'GTC' | 'IOC' = 'GTC') {
  const v = fx.exchange.venue;
  return v.placeOrder(v.account(user)!, { symbol, side, quantity, price, timeInForce, postOnly: false });
}

/** Waits until the recorder has received `count` market-data messages. */
async function received(recorder: MarketDataRecorder, count: number): Promise<void> {
  for (let i = 0; i < 400 && recorder.messages < count; i++) await new Promise((r) => setTimeout(r, 5));
  expect(recorder.messages).toBeGreaterThanOrEqual(count);
}

async function all(source: ArrowReplaySource): Promise<MarketRecord[]> {
  const out: MarketRecord[] = [];
  for await (const r of source.records()) out.push(r);
  return out;
}

describe('perpsim record: the market-data websocket into an Arrow file', () => {
  it('records LEVEL_2 books and trades of two symbols; the replayed books equal the server books at the end', async () => {
    order('alice', BTC, 'B', 5, '49999.5');
    order('bob', BTC, 'S', 4, '50001');
    order('alice', ETH, 'B', 2, '2999.99');
    const out = join(dir, 'l2.arrow');
    const recorder = new MarketDataRecorder({
      url: `${fx.server.wsUrl}/md/ws`, symbols: [BTC, ETH], level: 'LEVEL_2', out, username: 'alice', password: 'alice-password', flushMs: 20, now: wallClockNs(),
    });
    await recorder.start();
    await received(recorder, 4); // stats + book for each symbol
    // One change at a time (the server coalesces what happens in one tick into one update).
    order('alice', BTC, 'B', 3, '50000');
    await received(recorder, 5);
    order('bob', BTC, 'S', 2, '50000', 'IOC'); // a trade of 2 at 50000: stats + book
    await received(recorder, 7);
    order('bob', ETH, 'S', 1, '3000.5');
    await received(recorder, 8);
    const resting = order('bob', BTC, 'S', 7, '50010');
    await received(recorder, 9);
    fx.exchange.venue.cancelOrder(fx.exchange.venue.account('bob')!, resting.id);
    await received(recorder, 10);
    // Batches already flushed are readable while the recording runs (no footer yet).
    await new Promise((r) => setTimeout(r, 60));
    const live = new ArrowReplaySource(out);
    expect((await live.info()).complete).toBe(false);
    expect((await all(live)).length).toBeGreaterThan(0);

    const summary = await recorder.stop();
    expect(recorder.error).toBeUndefined();
    expect(summary).toMatchObject({ reason: 'stopped', messages: recorder.messages });
    const source = new ArrowReplaySource(out);
    expect(await source.info()).toMatchObject({ format: 'market-records', complete: true, instruments: { [BTC]: { tickSize: '0.5', lotSize: '1' }, [ETH]: { tickSize: '0.01', lotSize: '1' } } });
    const records = await all(source);
    expect(records.length).toBe(summary.rows);
    for (const symbol of [BTC, ETH]) {
      const book = new RecordBook();
      for (const r of records) if (r.kind === 'book' && r.symbol === symbol) book.apply(r);
      const l2 = fx.exchange.venue.market(symbol)!.book.l2();
      const plain = (levels: readonly { priceTicks: number; qtyLots: number }[]) => levels.map(({ priceTicks, qtyLots }) => ({ priceTicks, qtyLots }));
      expect(book.l2()).toEqual({ bids: plain(l2.bids), asks: plain(l2.asks) });
      expect(book.l2().bids.length + book.l2().asks.length).toBeGreaterThan(0);
    }
    const trades = records.filter((r) => r.kind === 'trade');
    expect(trades).toEqual([expect.objectContaining({ symbol: BTC, priceTicks: 100_000, qtyLots: 2, side: undefined })]);
    // The first book rows of a symbol are a reset snapshot; exchange times come from ts / tn.
    expect(records.find((r) => r.kind === 'book' && r.symbol === BTC)).toMatchObject({ reset: true });
    expect(records.every((r) => r.exchNs >= 1_767_225_600_000_000_000n)).toBe(true);
  });

  it('records LEVEL_1 as quotes', async () => {
    order('alice', BTC, 'B', 5, '49999.5');
    const out = join(dir, 'l1.arrow');
    const recorder = new MarketDataRecorder({ url: `${fx.server.wsUrl}/md/ws`, symbols: [BTC], level: 'LEVEL_1', out, username: 'alice', password: 'alice-password', now: wallClockNs() });
    await recorder.start();
    await received(recorder, 2);
    order('bob', BTC, 'S', 1, '50002');
    await received(recorder, 3);
    await recorder.stop();
    const quotes = (await all(new ArrowReplaySource(out))).filter((r) => r.kind === 'quote');
    expect(quotes.at(-1)).toMatchObject({ bidTicks: 99_999, bidQtyLots: 5, askTicks: 100_004, askQtyLots: 1 });
  });

  it('fails with a clear message on bad credentials, an unknown symbol or a bad URL', async () => {
    const url = `${fx.server.wsUrl}/md/ws`;
    const base = { url, level: 'LEVEL_2' as const, out: join(dir, 'bad.arrow'), now: wallClockNs() };
    await expect(new MarketDataRecorder({ ...base, symbols: [BTC], username: 'alice', password: 'wrong' }).start()).rejects.toThrow(/login as alice failed/);
    await expect(new MarketDataRecorder({ ...base, symbols: ['XYZ-PERP'], username: 'alice', password: 'alice-password' }).start()).rejects.toThrow(/unknown symbol XYZ-PERP/);
    await expect(new MarketDataRecorder({ ...base, symbols: [BTC] }).start()).rejects.toThrow(/--username and --password .* or --tick-size/);
    // With a tick size but no login, the server's own refusal is reported.
    await expect(new MarketDataRecorder({ ...base, symbols: [BTC], tickSize: '0.5' }).start()).rejects.toThrow(/subscribe BTCUSD-PERP: error 401/);
    expect(() => new MarketDataRecorder({ ...base, symbols: [BTC], level: 'LEVEL_3' as never })).toThrow(RecorderError);
    expect(() => httpBase('http://x/md/ws')).toThrow(/ws:\/\/ or wss:\/\//);
    expect(httpBase('wss://venue.example/v1/md/ws')).toBe('https://venue.example/v1');
  });

  it('runs as the perpsim record command until --duration, then prints one summary line', async () => {
    order('alice', BTC, 'B', 5, '49999.5');
    const out = join(dir, 'cli.arrow');
    let stdout = '';
    let stderr = '';
    const so = vi.spyOn(process.stdout, 'write').mockImplementation((t) => ((stdout += String(t)), true));
    const se = vi.spyOn(process.stderr, 'write').mockImplementation((t) => ((stderr += String(t)), true));
    let code: number;
    try {
      code = await main(['record', '--url', `${fx.server.wsUrl}/md/ws`, '--symbols', BTC, '--out', out, '--duration', '0.3s', '--username', 'bob', '--password', 'bob-password']);
    } finally {
      so.mockRestore();
      se.mockRestore();
    }
    expect(code).toBe(0);
    expect(stderr).toContain(`recording ${BTC} LEVEL_2 from ${fx.server.wsUrl}/md/ws to ${out} for 300ms`);
    expect(stdout).toMatch(new RegExp(`^recorded 2 messages, 2 records, \\d+ bytes to ${out.replaceAll('/', '\\/')}\n$`));
    const records = await all(new ArrowReplaySource(out));
    expect(records.map((r) => r.kind)).toEqual(['stats', 'book']);
  });
});
