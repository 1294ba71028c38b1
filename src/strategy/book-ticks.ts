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

/** Where a side offered with `offerSideTicks` keeps its numbers: undefined once it no longer offers them. */
export interface TickSource {
  /** The side (the array a strategy is given) whose numbers these are. */
  readonly view: readonly BookLevel[] | undefined;
  ticks(): SideTicks | undefined;
}

/**
 * The sides offered last (`offerSideTicks`), newest at `newest`: a ring. A strategy reads the
 * sides of the update it was just given, so `sideTicks` finds them here by identity without
 * reading a key through the side's proxy (~1.4 k instructions a read: the trap is looked up and
 * called through V8's generic property path, and a symbol key on a proxy is never cached).
 * A side is offered when its update is sent and read when it arrives, after the market-data
 * latency, so the ring holds every side in flight: with 8 (4 updates), 7 % of the example
 * market maker's reads missed it (1,536 of ~21,900 per 900 sim-s of `default`); 32 hold 16.
 * The ring holds the sources only (each names its side): the ring is old and the source new, so
 * each store into it takes the write barrier's slow path (~50 instructions), one a side, not two.
 */
const OFFERED = 32;
const offered: (TickSource | undefined)[] = new Array(OFFERED).fill(undefined);
let newest = 0;

/**
 * A port that makes a side (`source.view`, which also answers `SIDE_TICKS`) says where its
 * numbers are: `sideTicks(source.view)` then asks `source` while it is among the last few
 * offered, and gives the same answer as the key would.
 */
export function offerSideTicks(source: TickSource): void {
  newest = (newest + 1) & (OFFERED - 1);
  offered[newest] = source;
}

/**
 * `levels` as numbers when the port that delivered them offers them, else undefined (a wire
 * port, or a side the strategy has written to): then read the levels' text as usual.
 */
export function sideTicks(levels: readonly BookLevel[]): SideTicks | undefined {
  for (let k = 0, i = newest; k < OFFERED; k++, i = (i - 1) & (OFFERED - 1)) {
    const source = offered[i];
    if (source !== undefined && source.view === levels) return source.ticks();
  }
  return (levels as { [SIDE_TICKS]?: SideTicks })[SIDE_TICKS];
}
