import { describe, expect, it } from 'vitest';
import { marketOf, type AgentEnvironment } from '../../src/agents/environment.ts';
import { LeveragedTrader } from '../../src/agents/leveraged-trader.ts';
import { NoiseTrader } from '../../src/agents/noise-trader.ts';
import { TickSize } from '../../src/core/price.ts';
import type { ExchangePort } from '../../src/strategy/exchange-port.ts';

const btc = { symbol: 'BTCUSD-PERP', tick: new TickSize('0.5'), minQtyLots: 1 };
const env = { name: 'crowd-1', rng: undefined, markets: [btc], index: undefined } as unknown as AgentEnvironment;

describe("an agent's markets", () => {
  it('are found by symbol, and a symbol the agent does not trade is a RangeError naming the agent and its kind', () => {
    expect(marketOf(env, 'BTCUSD-PERP', 'noise trader')).toBe(btc);
    expect(() => marketOf(env, 'ETHUSD-PERP', 'noise trader')).toThrow(new RangeError('noise trader crowd-1 does not trade ETHUSD-PERP'));
  });

  it('are checked when a leveraged trader is built for one symbol', () => {
    const params = { side: 'B' as const, qtyLots: 1, openAfterSec: 1, slippageBps: 10, retries: 0 };
    expect(() => new LeveragedTrader(env, { ...params, symbol: 'BTCUSD-PERP' })).not.toThrow();
    expect(() => new LeveragedTrader(env, { ...params, symbol: 'ETHUSD-PERP' })).toThrow(new RangeError('leveraged trader crowd-1 does not trade ETHUSD-PERP'));
  });

  it("give an agent's orders their price text where the port takes text (no one-way requests)", () => {
    const inserted: { symbol: string; price: string }[] = [];
    const timers: (() => void)[] = [];
    const never = () => new Promise<never>(() => undefined);
    const port = {
      oneWay: undefined,
      nowSeconds: () => 0,
      setTimer: (_ns: number, fn: () => void) => (timers.push(fn), () => undefined),
      subscribe: never,
      unsubscribe: never,
      insertOrder: (o: { symbol: string; price: string }) => (inserted.push({ symbol: o.symbol, price: o.price }), never()),
    } as unknown as ExchangePort;
    // Always a sell, always passive, resting 1 tick behind the ask.
    const rng = { chance: () => false, exponential: () => 1, pareto: () => 1 };
    const noise = new NoiseTrader({ ...env, rng } as unknown as AgentEnvironment);
    noise.onStart(port);
    timers[0]!(); // the first arrival: it looks at the book…
    noise.onTop({ s: 'BTCUSD-PERP', bidTicks: 100, bidLots: 1, askTicks: 102, askLots: 1 });
    // …and sells at 103 ticks of 0.5.
    expect(inserted).toEqual([{ symbol: 'BTCUSD-PERP', price: '51.5' }]);
  });
});
