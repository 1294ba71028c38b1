/**
 * Scheduled conditions that change how liquidity providers behave: a liquidity-withdrawal
 * shock sets them for a while. The simulation writes them; market makers read them and are
 * told when they change. Plain state, no clock.
 */
export interface LiquidityState {
  /** Multiplies quoted spreads and level spacing (1 = normal). */
  spreadFactor: number;
  /** Multiplies quoted sizes (1 = normal; 0 pulls every quote). */
  sizeFactor: number;
}

/** Liquidity conditions per symbol, with change listeners. */
export class MarketConditions {
  private readonly states = new Map<string, LiquidityState>();
  private readonly listeners: ((symbol: string) => void)[] = [];

  /** The current conditions of `symbol` (normal unless a shock is active). */
  liquidity(symbol: string): LiquidityState {
    return this.states.get(symbol) ?? NORMAL;
  }

  /** Sets the conditions of `symbol` and tells listeners. */
  setLiquidity(symbol: string, state: LiquidityState): void {
    if (!(state.spreadFactor > 0) || !(state.sizeFactor >= 0)) throw new RangeError('spreadFactor must be > 0 and sizeFactor >= 0');
    this.states.set(symbol, { ...state });
    for (const fn of this.listeners) fn(symbol);
  }

  /** Back to normal for `symbol`. */
  reset(symbol: string): void {
    this.setLiquidity(symbol, NORMAL);
  }

  /** Calls `fn(symbol)` after every change; returns a remover. */
  onChange(fn: (symbol: string) => void): () => void {
    this.listeners.push(fn);
    return () => {
      const i = this.listeners.indexOf(fn);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }
}

const NORMAL: LiquidityState = Object.freeze({ spreadFactor: 1, sizeFactor: 1 });
