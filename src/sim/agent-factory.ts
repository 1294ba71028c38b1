import type { AgentEnvironment, IndexOracle } from '../agents/environment.ts';
import { InformedTrader } from '../agents/informed-trader.ts';
import type { MarketConditions } from '../agents/market-conditions.ts';
import { MarketMaker } from '../agents/market-maker.ts';
import { MeanReversionTrader } from '../agents/mean-reversion-trader.ts';
import { MomentumTrader } from '../agents/momentum-trader.ts';
import { NoiseTrader } from '../agents/noise-trader.ts';
import type { AgentSpec } from '../scenario/schema.ts';
import type { Strategy } from '../strategy/strategy.ts';

/**
 * The strategy for one member of an agent group. Parameters the scenario leaves out take the
 * agent's documented defaults; market makers also listen to the scenario's liquidity shocks.
 */
export function createAgent(spec: AgentSpec, env: AgentEnvironment & { index: IndexOracle }, conditions: MarketConditions): Strategy {
  switch (spec.kind) {
    case 'market-maker':
      return new MarketMaker(env, spec.params, conditions);
    case 'noise-trader':
      return new NoiseTrader(env, spec.params);
    case 'momentum-trader':
      return new MomentumTrader(env, spec.params);
    case 'mean-reversion-trader':
      return new MeanReversionTrader(env, spec.params);
    case 'informed-trader':
      return new InformedTrader(env, spec.params);
  }
}
