import type { AgentEnvironment } from '../agents/environment.ts';
import { LeveragedTrader } from '../agents/leveraged-trader.ts';
import type { MarketConditions } from '../agents/market-conditions.ts';
import { parseDuration, parseTimestamp } from '../core/time.ts';
import type { ShockSpec } from '../scenario/schema.ts';
import type { Strategy } from '../strategy/strategy.ts';
import type { IndexActor } from './index-actor.ts';
import type { Simulation } from './simulation.ts';

/** Adds an agent (its own user, port and index feed) to the run; supplied by the builder. */
export type AddAgent = (name: string, symbols: string[], cash: string, make: (env: AgentEnvironment) => Strategy) => void;

/** When a shock happens: a duration after the run's start, or an absolute date-time. */
export function shockTimeNs(at: string, startNs: bigint): bigint {
  const offset = parseDuration(at);
  if (offset !== undefined) return startNs + offset;
  const t = parseTimestamp(at);
  if (t === undefined) throw new RangeError(`shock time ${JSON.stringify(at)} is neither a duration nor a date-time`);
  return t;
}

/**
 * Installs the scenario's shocks: index jumps become level shifts of the index actors;
 * liquidity withdrawals set and later reset the market conditions makers read; a liquidation
 * cascade adds a crowd of leveraged traders who open positions before the shock, then moves
 * the index against them.
 */
export function installShocks(sim: Simulation, shocks: readonly ShockSpec[], actors: ReadonlyMap<string, IndexActor>, conditions: MarketConditions, addAgent: AddAgent): void {
  shocks.forEach((shock, i) => {
    const atNs = shockTimeNs(shock.at, sim.startNs);
    const atSec = Number(atNs) / 1e9;
    const targets = (symbol: string | undefined) => (symbol === undefined ? [...actors.values()] : [actors.get(symbol)!]);
    switch (shock.kind) {
      case 'index-jump':
        for (const actor of targets(shock.symbol)) actor.addShift(atSec, shock.pct, shock.rampSec ?? 0);
        break;
      case 'liquidity-withdrawal': {
        const symbols = shock.symbols ?? [...actors.keys()];
        const state = { spreadFactor: shock.spreadFactor ?? 4, sizeFactor: shock.sizeFactor ?? 0.25 };
        sim.onStart(() => {
          sim.clock.scheduleAt(atNs, () => symbols.forEach((s) => conditions.setLiquidity(s, state)));
          sim.clock.scheduleAt(atNs + BigInt(Math.round(shock.durationSec * 1e9)), () => symbols.forEach((s) => conditions.reset(s)));
        });
        break;
      }
      case 'liquidation-cascade': {
        const actor = actors.get(shock.symbol)!;
        const { crowd } = shock;
        actor.addShift(atSec, crowd.side === 'B' ? -shock.dropPct : shock.dropPct, shock.rampSec ?? 0);
        const rng = sim.streams.get(`shock-${i}`);
        const startPrice = actor.level;
        const qtyLots = Math.max(1, Math.round(Number(crowd.notional) / startPrice));
        const windowStartSec = Math.max(0, Number(atNs - sim.startNs) / 1e9 - crowd.openBeforeSec);
        const windowSec = Math.min(crowd.openBeforeSec, Number(atNs - sim.startNs) / 1e9) * 0.9;
        for (let k = 1; k <= crowd.count; k++) {
          const leverage = crowd.leverageMin + (crowd.leverageMax - crowd.leverageMin) * rng.next();
          const cash = ((qtyLots * startPrice) / leverage).toFixed(2);
          const openAfterSec = windowStartSec + windowSec * rng.next();
          const params = { symbol: shock.symbol, side: crowd.side, qtyLots, openAfterSec, slippageBps: 50, retries: 3 };
          addAgent(`crowd-${i}-${k}`, [shock.symbol], cash, (env) => new LeveragedTrader(env, params));
        }
        break;
      }
    }
  });
}
