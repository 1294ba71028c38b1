import { describe, expect, it, vi } from 'vitest';
import { WireExchangePort } from '../../src/api/client/wire-exchange-port.ts';
import { parseServeArgs } from '../../src/cli/commands/serve.ts';
import { startServing } from '../../src/cli/serve-command.ts';
import { TickSize } from '../../src/core/price.ts';
import { readBinanceRaw } from '../../src/replay/binance-raw.ts';
import type { BookUpdate } from '../../src/wire/market-data.ts';
import { binance, BTC_FILE } from './l2-fixture.ts';

/** The recorded touch (bid, ask ticks) an L1 replay shows at `nowNs`: the last bookTicker by then, at its event time `E` (held level if a line steps back). */
async function recordedTouchAt(nowNs: bigint): Promise<[number, number]> {
  let last = -1n;
  let touch: [number, number] = [0, 0];
  for await (const e of readBinanceRaw(BTC_FILE, { tickSize: '0.1', lotSize: '0.001' })) {
    if (e.kind !== 'bookTicker' && e.kind !== 'trade') continue;
    const t = e.eventTsNs > last ? e.eventTsNs : last;
    last = t;
    if (t > nowNs) break;
    if (e.kind === 'bookTicker') touch = [e.bidPriceTicks, e.askPriceTicks];
  }
  return touch;
}

describe.skipIf(binance.missing)('perpsim serve --replay over real sockets', () => {
  it('serves a Binance capture as L1 + trades: a client sees the recorded touch as the book, and progress lines go to stderr', async () => {
    const lines: string[] = [];
    const request = parseServeArgs(['--replay', BTC_FILE, '--replay-mode', 'l1', '--port', '0', '--manual', '--admin-token', 'T'], {});
    const serving = await startServing(request, { scryptCost: 1024, progress: { out: { write: (t: string) => lines.push(t) }, everyMs: 20 } });
    try {
      const trader = await WireExchangePort.connect({ baseUrl: serving.server.url, username: 'trader', password: 'trader', adminToken: 'T' });
      try {
        const { nowNs } = await trader.admin!.advance(30);
        const books: BookUpdate[] = [];
        trader.onMarketData((m) => m.t === '2' && books.push(m));
        await trader.subscribe('BTCUSDT-PERP', 'LEVEL_2');
        await vi.waitFor(() => expect(books.length).toBeGreaterThan(0));
        const [bid, ask] = await recordedTouchAt(nowNs);
        const tick = new TickSize('0.0001'); // the instrument quotes per 0.001 BTC lot: 0.1 × 0.001
        expect(books[0]!.b.map((l) => l.p)).toEqual([tick.toPrice(bid)]);
        expect(books[0]!.a.map((l) => l.p)).toEqual([tick.toPrice(ask)]);
        // Progress: sim time, %, recorded events and their rate; on the stream given (stderr), never stdout.
        await vi.waitFor(() => expect(lines.some((l) => /^perpsim serve: replay 2024-08-0\dT[\d:.]+Z +[\d.]+% ETA \S+, [1-9]\d* events \(\d+ events\/s\)\n$/.test(l))).toBe(true));
      } finally {
        await trader.close();
      }
    } finally {
      await serving.close();
    }
  }, 120_000);

  it('takes --quiet to turn the progress off', () => {
    expect(parseServeArgs(['--replay', BTC_FILE, '--quiet'], {}).quiet).toBe(true);
    expect(parseServeArgs(['--replay', BTC_FILE], {}).quiet).toBeUndefined();
  });
});
