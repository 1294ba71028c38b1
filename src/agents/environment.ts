import type { TickSize } from '../core/price.ts';

/**
 * What an agent gets besides its ExchangePort: its own random stream, the instruments it
 * trades, and an outside view of index prices (the spot markets a real trader watches).
 * Agents see only src/strategy and src/core; the simulation supplies these.
 */

/** The random draws agents use. `RandomStream` (src/random) satisfies it. */
export interface AgentRandom {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  /** Exponential with the given mean. */
  exponential(mean: number): number;
  /** Normal with mean `mu` and standard deviation `sigma`. */
  normal(mu?: number, sigma?: number): number;
  /** Pareto with scale `xm` and shape `alpha`. */
  pareto(xm: number, alpha: number): number;
}

/** An instrument an agent trades. */
export interface AgentMarket {
  symbol: string;
  tick: TickSize;
  /** Minimum (and granularity of) order quantity, lots. */
  minQtyLots: number;
}

/**
 * Index prices as an agent sees them: the latest published level per symbol, in price units
 * (a float), arriving after the agent's own market-data delay.
 */
export interface IndexFeed {
  /** The latest index level the agent has seen, or undefined before the first one. */
  indexPrice(symbol: string): number | undefined;
  /** Calls `fn` whenever a new level of `symbol` reaches the agent; returns a remover. */
  onUpdate(fn: (symbol: string, price: number) => void): () => void;
}

/**
 * An index feed that also sees ahead: what an informed trader with faster access to the
 * underlying knows before the venue does.
 */
export interface IndexOracle extends IndexFeed {
  /**
   * The index level `aheadSec` seconds after now (at most the simulation's look-ahead
   * horizon; clamped to it), or undefined when unknown.
   */
  peek(symbol: string, aheadSec: number): number | undefined;
}

/** Everything an agent is built with. */
export interface AgentEnvironment {
  /** The agent's name (also its venue username and random-stream name). */
  name: string;
  rng: AgentRandom;
  markets: AgentMarket[];
  index: IndexFeed;
}

/** The market of `symbol` in `env`, or a RangeError naming the agent (`kind` says what it is: `noise trader`). */
export function marketOf(env: AgentEnvironment, symbol: string, kind: string): AgentMarket {
  const m = env.markets.find((x) => x.symbol === symbol);
  if (m === undefined) throw new RangeError(`${kind} ${env.name} does not trade ${symbol}`);
  return m;
}

/** Rounds a quantity to a positive multiple of the minimum quantity (at least one). */
export function roundLots(lots: number, minQtyLots: number): number {
  return Math.max(1, Math.round(lots / minQtyLots)) * minQtyLots;
}
