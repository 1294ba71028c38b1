import type { Side } from '../core/types.ts';
import type { BookEvents } from './book-events.ts';
import { BookCore, CancelCode, Chunk, LevelRec, Mark, Rec, SideCode } from './book-core.ts';
import { smi } from './order-slots.ts';
import type { SideLevels } from './side-levels.ts';

/** One entry of a level's queue: an order, or the recorded quantity (owner: the external owner). */
export interface QueueEntry {
  orderId: number;
  ownerId: number;
  qtyLots: number;
}

/**
 * Recorded (external, replayed L2) quantity as a per-level lot total inside the book's level
 * records, and the matching that walks it.
 *
 * Why not one book order per recorded level (the design before): a recorded level change was
 * then an order's cancel, re-queue or in-place raise, each paying the id index, an order
 * record and a price → id map beside the book, ~75% of a replay's time. Here the level record
 * holds the recorded lots (`LevelSlots.extLots`, included in `total`), the id it shows
 * (`extId`) and its queue place (`Lv.Ext`: ring entries ahead of it), so a change finds the
 * level by price and stores a number. A level may hold recorded lots and no order.
 *
 * Observably it is that one order, exactly (`test/book/external-oracle.test.ts` drives both):
 * a decrease keeps its queue place; an increase goes behind every order there now with the
 * caller's new id; an increase at a new price that crosses account orders first trades with
 * them at their prices as the aggressor (taker: the new id and the external owner); an account
 * taker meets it in queue order, and a trade against it shows makerId = its id, makerOwnerId =
 * the external owner (`OrderBookOptions.externalOwner`), makerRemainingLots = what is left.
 * Views and the state hash show it as that order at its place. It is not an order for
 * `orderCount`, `has`, `openLots`, `cancel` or `reduce`: `setExternalInto` alone changes it.
 */
export abstract class BookExternal extends BookCore {
  /** True once any recorded quantity was set (never reset): a hot path tells a plain book by it, without a level lookup. */
  everHeldExternal = false;

  /** Recorded lots at a level (0 when none). */
  externalLots(side: Side, priceTicks: number): number {
    const level = this.levelAt(side, priceTicks);
    return level === Mark.None || this.levels.rec[level * LevelRec.Stride + LevelRec.Ext] === Mark.None ? 0 : this.levels.extLots[level]!;
  }

  /** The id the recorded quantity at a level shows, or undefined when it has none. */
  externalIdAt(side: Side, priceTicks: number): number | undefined {
    const level = this.levelAt(side, priceTicks);
    return level === Mark.None || this.levels.rec[level * LevelRec.Stride + LevelRec.Ext] === Mark.None ? undefined : this.levels.extId[level]!;
  }

  /**
   * Sets the recorded quantity at one level to `qtyLots` (0 removes it; a level left with no
   * order goes). A decrease keeps its queue place; an increase goes to the back with the id
   * `externalId` (unused otherwise), after trading with the opposite account orders it crosses
   * (their trades are appended to `out`; nothing else is). Opposite recorded quantity it would
   * cross must be removed first (the recording has moved past it): a RangeError, nothing changed.
   */
  setExternalInto(side: Side, priceTicks: number, qtyLots: number, externalId: number, out: BookEvents): void {
    checkRecorded(side, priceTicks, qtyLots);
    if (qtyLots > 0) this.everHeldExternal = true;
    const sideCode = side === 'B' ? SideCode.Buy : SideCode.Sell;
    const own = sideCode === SideCode.Buy ? this.bids : this.asks;
    const key = sideCode === SideCode.Buy ? priceTicks : -priceTicks;
    const level = own.levelOf(key);
    if (level === Mark.None) {
      if (qtyLots > 0) this.addExternalLevel(sideCode, own, key, priceTicks, qtyLots, externalId, out);
      return;
    }
    const levels = this.levels;
    const rec = levels.rec;
    const b = level * LevelRec.Stride;
    const shownLots = rec[b + LevelRec.Ext] === Mark.None ? 0 : levels.extLots[level]!;
    if (qtyLots < shownLots) {
      this.lowerLevel(level, shownLots, qtyLots);
      return;
    }
    if (qtyLots === shownLots) return;
    if (shownLots === 0 && own.empties !== 0) this.reviveLevel(own, level);
    // An increase: behind every entry there now (a level with orders never crosses).
    rec[b + LevelRec.Ext] = rec[b + LevelRec.Queued]!;
    levels.extLots[level] = smi(qtyLots);
    levels.extId[level] = smi(externalId);
    levels.total[level] = smi(levels.total[level]! + (qtyLots - shownLots));
    this.sideChanges[sideCode]!++;
  }

  /**
   * `setExternalInto` for a level whose recorded quantity does not grow (a decrease, a removal or
   * no change; no events), in one lookup; an increase is left alone (nothing changes). Returns
   * the recorded lots there before either way: a caller that applies a batch's decreases first
   * and its increases after (`setExternalInto`) tells them apart without a second lookup.
   */
  lowerExternal(side: Side, priceTicks: number, qtyLots: number): number {
    checkRecorded(side, priceTicks, qtyLots);
    const level = this.levelAt(side, priceTicks);
    if (level === Mark.None || this.levels.rec[level * LevelRec.Stride + LevelRec.Ext] === Mark.None) return 0;
    const shownLots = this.levels.extLots[level]!;
    if (qtyLots < shownLots) this.lowerLevel(level, shownLots, qtyLots);
    return shownLots;
  }

  /**
   * Makes a level hold exactly `entries`, in that order: orders are canceled and placed again
   * (their events appended to `out`), the one entry owned by the external owner becomes the
   * recorded quantity at its place. For undo and restore from `levelQueue` entries.
   */
  restoreLevelInto(side: Side, priceTicks: number, entries: readonly QueueEntry[], out: BookEvents): void {
    if (entries.filter((e) => e.ownerId === this.externalOwner).length > 1) {
      throw new RangeError(`level ${side} ${priceTicks}: at most one recorded entry`);
    }
    this.setExternalInto(side, priceTicks, 0, 0, out);
    const level = this.levelAt(side, priceTicks);
    if (level !== Mark.None) for (const o of this.liveOrders(level)) this.cancelInto(this.orders.field(o, Rec.Id), out);
    for (const e of entries) {
      if (e.ownerId === this.externalOwner) this.setExternalInto(side, priceTicks, e.qtyLots, e.orderId, out);
      else this.placeInto({ orderId: e.orderId, ownerId: e.ownerId, side, priceTicks, qtyLots: e.qtyLots, tif: 'GTC', postOnly: false }, out);
    }
  }

  /** The orders ahead of the recorded quantity, it, then the orders behind it. */
  protected matchRecordedLevel(level: number, takerId: number, takerOwnerId: number, takerSideCode: number, qtyLots: number, out: BookEvents): number {
    const rec = this.levels.rec; // matching never allocates
    const b = level * LevelRec.Stride;
    let remaining = qtyLots;
    while (remaining > 0) {
      const ext = rec[b + LevelRec.Ext]!;
      if (ext === Mark.None) return rec[b + LevelRec.Count]! > 0 ? this.matchLevel(level, takerId, takerOwnerId, takerSideCode, remaining, out) : remaining;
      if (ext === 0) {
        remaining = this.takeRecorded(level, takerId, takerOwnerId, takerSideCode, remaining, out);
        continue;
      }
      const queued = rec[b + LevelRec.Queued]!;
      remaining = this.takeHead(level, takerId, takerOwnerId, takerSideCode, remaining, out);
      // A maker ahead partially filled stays at the head: the taker is done.
      if (rec[b + LevelRec.Queued] === queued) break;
      rec[b + LevelRec.Ext] = ext - 1;
    }
    return remaining;
  }

  /** The level at a price on a side, or None. */
  protected levelAt(side: Side, priceTicks: number): number {
    return side === 'B' ? this.bids.levelOf(priceTicks) : this.asks.levelOf(-priceTicks);
  }

  /** The records of a level's live orders, in queue order. */
  private liveOrders(level: number): number[] {
    const { slab, rec } = this.levels;
    const b = level * LevelRec.Stride;
    const data = this.orders.data;
    const live: number[] = [];
    for (let k = 0, at = rec[b + LevelRec.Head]!; k < rec[b + LevelRec.Queued]!; k++) {
      const o = slab[at++]!;
      if ((at & Chunk.Mask) === Chunk.Link) at = slab[at]!;
      if (data[o + Rec.Qty] !== 0) live.push(o);
    }
    return live;
  }

  /**
   * A recorded decrease, in place; at 0 the quantity goes, and a level left without orders goes
   * off its side when it is the best, else stays there empty (`SideLevels.empties`: no search
   * and move now, nor when the recording fills the price again) until empties are half the side.
   */
  private lowerLevel(level: number, shownLots: number, qtyLots: number): void {
    const levels = this.levels;
    levels.total[level] = smi(levels.total[level]! - (shownLots - qtyLots));
    this.sideChanges[levels.rec[level * LevelRec.Stride + LevelRec.Side]!]!++;
    if (qtyLots > 0) {
      levels.extLots[level] = smi(qtyLots);
      return;
    }
    const b = level * LevelRec.Stride;
    levels.rec[b + LevelRec.Ext] = Mark.None;
    if (levels.rec[b + LevelRec.Count] !== 0) return;
    const side = levels.rec[b + LevelRec.Side] === SideCode.Buy ? this.bids : this.asks;
    if (side.levels[side.length - 1] === level) {
      this.removeLevel(level);
      return;
    }
    if (++side.empties > 64 && 2 * side.empties > side.length) {
      const rec = levels.rec;
      side.purge(
        (l) => rec[l * LevelRec.Stride + LevelRec.Count] === 0 && rec[l * LevelRec.Stride + LevelRec.Ext] === Mark.None,
        (l) => this.freeLevel(l),
      );
    }
  }

  /** Recorded quantity at a price with no level: trades with the account orders it crosses, rests the rest. */
  private addExternalLevel(sideCode: number, own: SideLevels, key: number, priceTicks: number, qtyLots: number, externalId: number, out: BookEvents): void {
    const id = smi(externalId);
    const crossKey = -key;
    const opposite = sideCode === SideCode.Buy ? this.asks : this.bids;
    let remaining = smi(qtyLots);
    if (opposite.length > 0 && opposite.keys[opposite.length - 1]! >= crossKey) {
      this.refuseCrossingRecorded(opposite, crossKey, priceTicks);
      remaining = this.match(id, this.externalOwner, sideCode, crossKey, remaining, out);
      if (remaining === 0) return;
    }
    const levels = this.levels;
    const level = levels.allocate(priceTicks, sideCode);
    own.insert(key, level);
    levels.rec[level * LevelRec.Stride + LevelRec.Ext] = 0;
    levels.extLots[level] = remaining;
    levels.extId[level] = id;
    levels.total[level] = remaining;
    this.sideChanges[sideCode]!++;
  }

  /** Throws when an opposite level that `crossKey` reaches holds recorded quantity. */
  private refuseCrossingRecorded(opposite: SideLevels, crossKey: number, priceTicks: number): void {
    const rec = this.levels.rec;
    for (let i = opposite.length - 1; i >= 0 && opposite.keys[i]! >= crossKey; i--) {
      const level = opposite.levels[i]!;
      if (rec[level * LevelRec.Stride + LevelRec.Ext] !== Mark.None) {
        throw new RangeError(`recorded quantity at ${priceTicks} would cross recorded quantity at ${this.levels.price[level]}: remove that first`);
      }
    }
  }

  /** The taker against the recorded quantity at the front of the level. Returns the lots left unfilled. */
  private takeRecorded(level: number, takerId: number, takerOwnerId: number, takerSideCode: number, qtyLots: number, out: BookEvents): number {
    const levels = this.levels;
    const lots = levels.extLots[level]!;
    const traded = lots < qtyLots ? lots : qtyLots;
    const leftLots = lots - traded;
    const remaining = qtyLots - traded;
    levels.total[level] = smi(levels.total[level]! - traded);
    if (leftLots > 0) levels.extLots[level] = leftLots;
    else levels.rec[level * LevelRec.Stride + LevelRec.Ext] = Mark.None;
    out.trade(levels.extId[level]!, this.externalOwner, takerId, takerOwnerId, takerSideCode, levels.price[level]!, traded, leftLots, remaining);
    return remaining;
  }

  /**
   * The taker against the head entry of the level's ring: a live order trades (or is canceled
   * by self-trade prevention), a canceled one is dropped. The entry leaves the ring unless it
   * was only partly filled. Returns the lots left unfilled. The slow path of `matchLevel`.
   */
  private takeHead(level: number, takerId: number, takerOwnerId: number, takerSideCode: number, qtyLots: number, out: BookEvents): number {
    const { levels, orders } = this;
    const rec = levels.rec;
    const b = level * LevelRec.Stride;
    const head = rec[b + LevelRec.Head]!;
    const maker = levels.slab[head]!;
    const makerLots = orders.field(maker, Rec.Qty);
    let remaining = qtyLots;
    if (makerLots > 0) {
      const makerId = orders.field(maker, Rec.Id);
      const ownerId = orders.field(maker, Rec.Owner);
      if (this.cancelSelfTrades && ownerId === takerOwnerId) {
        levels.total[level] = smi(levels.total[level]! - makerLots);
        out.canceled(makerId, makerLots, CancelCode.SelfTrade);
      } else {
        const traded = makerLots < remaining ? makerLots : remaining;
        const leftLots = makerLots - traded;
        remaining -= traded;
        orders.setField(maker, Rec.Qty, leftLots);
        levels.total[level] = smi(levels.total[level]! - traded);
        out.trade(makerId, ownerId, takerId, takerOwnerId, takerSideCode, levels.price[level]!, traded, leftLots, remaining);
        if (leftLots > 0) return remaining;
      }
      this.takeId(makerId);
      rec[b + LevelRec.Count]!--;
    }
    if (((head + 1) & Chunk.Mask) === Chunk.Link) {
      rec[b + LevelRec.Head] = levels.slab[head + 1]!;
      levels.freeChunk(head + 1 - Chunk.Link);
    } else rec[b + LevelRec.Head] = head + 1;
    rec[b + LevelRec.Queued]!--;
    orders.release(maker);
    return remaining;
  }
}

/** A recorded level's price and quantity are integers, the quantity not negative (a caller bug otherwise). */
function checkRecorded(side: Side, priceTicks: number, qtyLots: number): void {
  if (!Number.isSafeInteger(priceTicks) || !Number.isSafeInteger(qtyLots) || qtyLots < 0) {
    throw new RangeError(`recorded level ${side} ${priceTicks}: price and quantity ${qtyLots} must be integers, quantity >= 0`);
  }
}
