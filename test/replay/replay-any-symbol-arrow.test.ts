import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { replayScenario } from '../../src/replay/l2/replay-scenario.ts';
import { ANY_SYMBOL, MarketArrowWriter } from '../../src/replay/market-arrow.ts';

const tmp = mkdtempSync(join(tmpdir(), 'perpsim-any-symbol-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A normalized file as `perpsim convert … --tick-size T --lot-size L` writes it: units under `"*"`. */
function anySymbolArrow(name: string, symbols: string[]): string {
  const path = join(tmp, name);
  const w = new MarketArrowWriter(path, { instruments: { [ANY_SYMBOL]: { tickSize: '0.01', lotSize: '0.001' } }, source: 'test' });
  let t = 1_700_000_000_000_000_000n;
  for (const symbol of symbols) {
    w.add({ kind: 'quote', recvNs: t, exchNs: t, symbol, bidTicks: 968_100, bidQtyLots: 5, askTicks: 968_200, askQtyLots: 7 });
    t += 1_000_000n;
    w.add({ kind: 'trade', recvNs: t, exchNs: t, symbol, side: 'B', priceTicks: 968_200, qtyLots: 2, tradeId: '1' });
    t += 1_000_000n;
  }
  w.close();
  return path;
}

describe('an Arrow file converted with one tick and lot for every symbol', () => {
  it('replays with an instrument named after the symbol in its rows', async () => {
    const { scenario } = await replayScenario({ files: [anySymbolArrow('btc.arrow', ['BTCUSDT'])] });
    expect(scenario.instruments.map((i) => [i.symbol, i.tickSize])).toEqual([['BTCUSDT-PERP', '0.00001']]);
  });

  it('replays every symbol its rows name, each with the file units', async () => {
    const { scenario } = await replayScenario({ files: [anySymbolArrow('two.arrow', ['ETHUSDT', 'BTCUSDT'])] });
    expect(scenario.instruments.map((i) => i.symbol)).toEqual(['BTCUSDT-PERP', 'ETHUSDT-PERP']);
  });
});
