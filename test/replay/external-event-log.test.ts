import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import { executeRun } from '../../src/cli/run-command.ts';
import { readEventRecords, type EventRecord } from '../../src/sim/event-log/reader.ts';
import { EXTERNAL_USERNAME } from '../../src/venue/external-owner.ts';
import { sharedFolder } from './shared-data.ts';

const tmp = mkdtempSync(join(tmpdir(), 'perpsim-external-log-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const tardis = sharedFolder('tardis-nautilus-samples', 'the event log of a replay with agents trading against the recording');

/** One side of a fill, as the trade row and the order row each name it. */
const key = (tradeId: number | null, user: string | null, orderId: string | null, lots: number | null) => `${tradeId} ${user} ${orderId} ${lots}`;

describe.skipIf(tardis.missing)(tardis.title, () => {
  it('names the replayed side external and has a fill row for every account side of every trade, and none for the external side', async () => {
    const dir = join(tardis.dir, '2020-02-22_binance-futures_BTCUSDT');
    const scenario = join(tmp, 'tardis-takers.json');
    writeFileSync(
      scenario,
      JSON.stringify({
        name: 'tardis-takers',
        start: '2020-02-22T00:00:00Z',
        duration: '2m',
        instruments: [{ symbol: 'BTCUSDT-PERP', tickSize: '0.00001', indexPrice: '9.68' }],
        market: { replay: { format: 'tardis', files: [join(dir, 'quotes.csv'), join(dir, 'trades.csv')], symbolMap: { BTCUSDT: { symbol: 'BTCUSDT-PERP', lotSize: '0.001', tickSize: '0.01' } } } },
        agents: [{ kind: 'noise-trader', count: 2, symbols: ['BTCUSDT-PERP'], params: { ratePerSec: 2, marketableProbability: 0.7 } }],
      }),
    );
    const out = join(tmp, 'run');
    const { summary } = await executeRun({ scenario, outDir: out }, { write: () => true });
    const rows: EventRecord[] = [...readEventRecords(tableFromIPC(readFileSync(join(out, 'events.arrow'))).batches)];
    const trades = rows.filter((r) => r.kind === 'trade');
    expect(trades).toHaveLength(summary.trades);

    // Each account side of a trade, with the trade's price (to check against the order's limit below).
    const fromTrades: string[] = [];
    const tradePrice = new Map<string, number>();
    const pairs = new Set<string>();
    const side = (tradeId: number | null, user: string | null, orderId: string | null, qty: number | null, priceTicks: number | null) => {
      fromTrades.push(key(tradeId, user, orderId, qty));
      tradePrice.set(`${tradeId} ${orderId}`, priceTicks!);
    };
    for (const t of trades) {
      const takerExternal = t.user === EXTERNAL_USERNAME;
      const makerExternal = t.makerUser === EXTERNAL_USERNAME;
      pairs.add(`${takerExternal ? 'external' : 'account'} takes from ${makerExternal ? 'external' : 'account'}`);
      // The external side has no account and no order of the venue: its order id is the placeholder.
      if (takerExternal) expect(t.orderId).toBe('EXTERNAL');
      else side(t.tradeId, t.user, t.orderId, t.qty, t.priceTicks);
      if (makerExternal) expect(t.makerOrderId).toBe('EXTERNAL');
      else side(t.tradeId, t.makerUser, t.makerOrderId, t.qty, t.priceTicks);
    }
    // Every combination occurs: recorded prints, agents taking the recording and the recording's trades filling agents.
    expect([...pairs].sort()).toEqual(['account takes from account', 'account takes from external', 'external takes from account', 'external takes from external']);

    // A fill row carries its order (limit price, quantity, lots filled so far): the lots of the
    // fill are the step in `filled` from the order's previous fill row.
    const fills = rows.filter((r) => r.kind === 'feed' && (r.feed === 'f' || r.feed === 'p'));
    const filledBefore = new Map<string, number>();
    const fromFills: string[] = [];
    for (const f of fills) {
      expect(f.user === EXTERNAL_USERNAME || f.user === null).toBe(false);
      const lots = f.filled! - (filledBefore.get(f.orderId!) ?? 0);
      filledBefore.set(f.orderId!, f.filled!);
      fromFills.push(key(f.tradeId, f.user, f.orderId, lots));
      const price = tradePrice.get(`${f.tradeId} ${f.orderId}`);
      expect(price).toBeDefined();
      if (f.side === 'B') expect(price!).toBeLessThanOrEqual(f.priceTicks!);
      else expect(price!).toBeGreaterThanOrEqual(f.priceTicks!);
    }
    expect(fromFills.sort()).toEqual(fromTrades.sort());
  }, 60_000);
});
