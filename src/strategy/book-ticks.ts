import type { BookLevel } from '../wire/market-data.ts';

/**
 * The numbers behind one side of a book update: level i's price in ticks and quantity in lots,
 * best first, exactly the levels the side lists. Where a port has them (the in-process port's
 * LEVEL_2 view), a strategy reads them instead of parsing each level's price text back into
 * ticks; the levels themselves, and so the wire form, are unchanged.
 */
export interface SideTicks {
  readonly length: number;
  readonly priceTicks: ArrayLike<number>;
  readonly qtyLots: ArrayLike<number>;
}

/** The key under which a book side carries its `SideTicks` (a symbol: JSON and iteration never see it). */
export const SIDE_TICKS: unique symbol = Symbol('perpsim.sideTicks');

/**
 * `levels` as numbers when the port that delivered them offers them, else undefined (a wire
 * port, or a side the strategy has written to): then read the levels' text as usual.
 */
export function sideTicks(levels: readonly BookLevel[]): SideTicks | undefined {
  return (levels as { [SIDE_TICKS]?: SideTicks })[SIDE_TICKS];
}
