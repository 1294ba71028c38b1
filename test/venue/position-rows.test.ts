import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { Side } from '../../src/core/types.ts';
import { setFaultHook } from '../../src/venue/fault-points.ts';
import { BigintPosition } from './bigint-position.ts';
import { outcomeFailingAt } from './fault-outcome.ts';
import { type Cmd, cmdArb, make, sweepStreamArb } from './fill-streams.ts';
import { modelFee } from './money-model.ts';

/**
 * A position's numbers live in its account's market row (risk/position.ts's `Pn` from
 * account-rows.ts's `Mr.Position`): the fills write them there, the order checks read them there,
 * and a usual fill's undo copies them with the row's other numbers as one run. Checked against
 * the exact bigint model fed with the trades the venue printed (what a command that failed
 * printed nothing of): after every command, each account's position in each market has the
 * model's net, bought and sold lots, notionals, open cost and lots, realized PnL, and trading PnL
 * and fees as Money (its own fee arithmetic, `modelFee`), and the row's traded lots (the order
 * checks' bound) are the model's.
 */

afterEach(() => setFaultHook(undefined));

interface Model {
  position: BigintPosition;
  bought: number;
  sold: number;
  fees: bigint;
}

function expectRowsAsModel(twin: ReturnType<typeof make>): number {
  const v = twin.t.venue;
  const bySymbol = new Map(v.markets.map((m) => [m.symbol, m]));
  const models = new Map<string, Model>();
  for (const trade of twin.feeds.trades) {
    const market = bySymbol.get(trade.symbol)!;
    const sides: [number, Side, boolean][] = [
      [trade.makerUserId, trade.takerSide === 'B' ? 'S' : 'B', false],
      [trade.takerUserId, trade.takerSide, true],
    ];
    for (const [user, side, aggressor] of sides) {
      const key = `${user}|${trade.symbol}`;
      let model = models.get(key);
      if (model === undefined) models.set(key, (model = { position: new BigintPosition(), bought: 0, sold: 0, fees: 0n }));
      model.position.fill(side, trade.priceTicks, trade.qtyLots);
      if (side === 'B') model.bought += trade.qtyLots;
      else model.sold += trade.qtyLots;
      model.fees += modelFee(market.instrument, trade.priceTicks, trade.qtyLots, aggressor);
    }
  }
  for (const a of v.accounts) {
    for (const m of v.markets) {
      const model = models.get(`${a.id}|${m.symbol}`);
      const p = a.findPosition(m);
      if (model === undefined) {
        expect([p, a.tradedLotsIn(m)]).toEqual([undefined, 0]);
        continue;
      }
      const pos = p!.position;
      const o = model.position;
      expect([pos.netLots, pos.buyLots, pos.sellLots, pos.buyNotionalTicks, pos.sellNotionalTicks, pos.openCostTicks, pos.openLotCount, pos.realizedTicks, p!.tradingPnl, p!.fees, a.tradedLotsIn(m)]).toEqual([
        Number(o.net), model.bought, model.sold, o.buy, o.sell, o.openCost, o.lotCount, o.realized, o.realized * m.instrument.tickLotMoney, model.fees, model.bought + model.sold,
      ]);
    }
  }
  return models.size;
}

describe("a position's numbers in its account's market row", () => {
  it('are the exact bigint model of the trades printed, after every command of streams with sweeps, flips, liquidations and funding (150 streams)', () => {
    let positions = 0;
    fc.assert(
      fc.property(sweepStreamArb, (cmds) => {
        const twin = make(true);
        for (const c of cmds) {
          twin.apply(c);
          positions += expectRowsAsModel(twin);
        }
      }),
      { numRuns: 150, seed: 161 },
    );
    expect(positions).toBeGreaterThan(5000);
  }, 120_000);

  it('are the model of the trades printed when a command fails at any of its fault points, and after the commands that follow (300 streams)', () => {
    const failedAt = new Set<string>();
    fc.assert(
      fc.property(sweepStreamArb, fc.nat(), fc.nat(40), (cmds: Cmd[], pick, step) => {
        // A sweep (a trade per maker, the taker's fills after its first copying nothing), or a place.
        const sweeps = cmds.flatMap((c, i) => (c.kind === 'place' && (c.sweep === true || pick % 3 === 0) ? [i] : []));
        const victim = sweeps.length === 0 ? cmds.length - 1 : sweeps[pick % sweeps.length]!;
        const twin = make(true);
        for (const [i, c] of cmds.entries()) {
          if (i === victim) {
            const outcome = outcomeFailingAt(step, () => twin.apply(c));
            if (outcome.failed) failedAt.add(outcome.steps[step]!);
          } else {
            twin.apply(c);
          }
          expectRowsAsModel(twin);
        }
      }),
      { numRuns: 300, seed: 162 },
    );
    for (const s of ['fill.position', 'fill.cash', 'fill.order', 'trade.maker', 'trade.taker', 'trade.candles', 'place.done']) expect(failedAt).toContain(s);
  }, 120_000);
});
