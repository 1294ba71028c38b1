/**
 * Read-only views of the book's storage: L1/L2/L3 and the state hash. Kept apart from the
 * matching code, which is the part that has to be fast; these build plain objects for callers.
 * A level's recorded quantity shows as an order (its id, the external owner `extOwner`) at its
 * queue place (see `book-external.ts`); level totals include it.
 */
import type { Fnv1a64 } from '../core/hash.ts';
import type { L3LevelView, LevelView } from './events.ts';
import { O_ID, O_OWNER, O_QTY, type OrderSlots } from './order-slots.ts';
import { K, Lv, type LevelSlots } from './price-levels.ts';
import type { SideLevels } from './side-levels.ts';

/** Best level of a side, or undefined when the side is empty. */
export function topView(levels: LevelSlots, side: SideLevels): LevelView | undefined {
  if (side.length === 0) return undefined;
  const level = side.levels[side.length - 1]!;
  return { priceTicks: levels.price[level]!, qtyLots: levels.total[level]! };
}

/**
 * The best `depth` levels of a side (all when `depth` is Infinity), best first. Here and below,
 * levels left empty by recorded liquidity (total 0; see `SideLevels.empties`) are skipped.
 */
export function sideL2(levels: LevelSlots, side: SideLevels, depth: number): LevelView[] {
  const n = Math.min(side.length - side.empties, depth);
  const view: LevelView[] = new Array(n);
  const { price, total } = levels;
  const sideLevels = side.levels;
  for (let i = 0, at = side.length - 1; i < n; at--) {
    const level = sideLevels[at]!;
    if (total[level] !== 0) view[i++] = { priceTicks: price[level]!, qtyLots: total[level]! };
  }
  return view;
}

/** A side's levels, best first, into columns (as many as they hold); returns the count. */
export function sideL2Into(levels: LevelSlots, side: SideLevels, priceTicks: Float64Array, qtyLots: Float64Array): number {
  const n = Math.min(side.length - side.empties, priceTicks.length, qtyLots.length);
  const { price, total } = levels;
  const sideLevels = side.levels;
  // The side keeps its best level last.
  for (let i = 0, at = side.length - 1; i < n; at--) {
    const level = sideLevels[at]!;
    if (total[level] === 0) continue;
    priceTicks[i] = price[level]!;
    qtyLots[i++] = total[level]!;
  }
  return n;
}

/**
 * A side's best `depth` levels (all when Infinity), best first, as two new number arrays. For a
 * capture a strategy keeps (`lazy-book-levels.ts`): two small arrays of integers are made in
 * optimized code without a builtin call, where typed-array views into a shared buffer took one
 * each (`subarray`, ~700 instructions a view).
 */
export function sideL2Arrays(levels: LevelSlots, side: SideLevels, depth: number): { priceTicks: number[]; qtyLots: number[] } {
  const n = Math.min(side.length - side.empties, depth);
  const priceTicks = new Array<number>(n);
  const qtyLots = new Array<number>(n);
  const { price, total } = levels;
  const sideLevels = side.levels;
  for (let i = 0, at = side.length - 1; i < n; at--) {
    const level = sideLevels[at]!;
    const qty = total[level]!;
    if (qty === 0) continue;
    priceTicks[i] = price[level]!;
    qtyLots[i++] = qty;
  }
  return { priceTicks, qtyLots };
}

/** Like `sideL2`, with each level's orders (and recorded quantity) in queue order. */
export function sideL3(levels: LevelSlots, side: SideLevels, orders: OrderSlots, depth: number): L3LevelView[] {
  const n = Math.min(side.length - side.empties, depth);
  const view: L3LevelView[] = new Array(n);
  const { price, total } = levels;
  const data = orders.data;
  for (let i = 0, at = side.length - 1; i < n; at--) {
    const level = side.levels[at]!;
    if (total[level] === 0) continue;
    const queue: { orderId: number; qtyLots: number }[] = [];
    forEachLive(
      levels,
      level,
      data,
      (o) => queue.push({ orderId: orders.field(o, O_ID), qtyLots: orders.field(o, O_QTY) }),
      () => queue.push({ orderId: levels.extId[level]!, qtyLots: levels.extLots[level]! }),
    );
    view[i++] = { priceTicks: price[level]!, qtyLots: total[level]!, orders: queue };
  }
  return view;
}

/** One level's live orders (and recorded quantity, owned by `extOwner`) in queue order, with owners. */
export function levelQueue(levels: LevelSlots, level: number, orders: OrderSlots, extOwner: number): { orderId: number; ownerId: number; qtyLots: number }[] {
  const data = orders.data;
  const queue: { orderId: number; ownerId: number; qtyLots: number }[] = [];
  forEachLive(
    levels,
    level,
    data,
    (o) => queue.push({ orderId: orders.field(o, O_ID), ownerId: orders.field(o, O_OWNER), qtyLots: orders.field(o, O_QTY) }),
    () => queue.push({ orderId: levels.extId[level]!, ownerId: extOwner, qtyLots: levels.extLots[level]! }),
  );
  return queue;
}

/**
 * Feeds a side's levels, best first, and each level's queue into `h` (the `stateHash` format):
 * recorded quantity hashes as the order of `extOwner` it stands for.
 */
export function hashSide(h: Fnv1a64, name: string, levels: LevelSlots, side: SideLevels, orders: OrderSlots, extOwner: number): void {
  const { price, total } = levels;
  const data = orders.data;
  h.update(name);
  for (let i = side.length - 1; i >= 0; i--) {
    const level = side.levels[i]!;
    if (total[level] === 0) continue;
    h.update(`${price[level]!}:${total[level]!}`);
    forEachLive(
      levels,
      level,
      data,
      (o) => h.update(`${orders.field(o, O_ID)}/${orders.field(o, O_OWNER)}/${orders.field(o, O_QTY)}`),
      () => h.update(`${levels.extId[level]!}/${extOwner}/${levels.extLots[level]!}`),
    );
  }
}

/** Sum of the open lots of a side's levels, worst level first (the order of the sum matters
 * only beyond 2^53 lots, but it is kept for identical results). */
export function sideLots(levels: LevelSlots, side: SideLevels, sum: number): number {
  const total = levels.total;
  for (let i = 0; i < side.length; i++) sum += total[side.levels[i]!]!;
  return sum;
}

/**
 * Calls `fn` with each live order of a level (canceled entries skipped), oldest first, and
 * `ext` at the recorded quantity's place when the level has some.
 */
function forEachLive(levels: LevelSlots, level: number, data: Int32Array, fn: (o: number) => void, ext: () => void): void {
  const slab = levels.slab;
  let at = levels.rec[level * Lv.Stride + Lv.Head]!;
  const n = levels.rec[level * Lv.Stride + Lv.Queued]!;
  const extAt = levels.rec[level * Lv.Stride + Lv.Ext]!;
  for (let k = 0; k < n; k++) {
    if (k === extAt) ext();
    const o = slab[at++]!;
    if ((at & K.ChunkMask) === K.Link) at = slab[at]!;
    if (data[o + O_QTY] !== 0) fn(o);
  }
  if (extAt === n) ext();
}
