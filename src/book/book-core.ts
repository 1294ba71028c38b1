import type { PlaceCommand } from './events.ts';
import type { BookEvents } from './book-events.ts';
import { IdIndex, type OrderIndex } from './id-index.ts';
import type { OrderBookOptions } from './book-options.ts';

export type { OrderBookOptions, SelfTradePolicy } from './book-options.ts';
import { OrderSlots, smi } from './order-slots.ts';
import { LevelSlots } from './price-levels.ts';
import { SideLevels } from './side-levels.ts';

/**
 * The record layout and markers of `order-slots.ts` (`O_*`, `NONE`, `WIDE`), as const enums so
 * that the compiler writes them here as literals. Why not import those constants: in V8's
 * optimized code every use of a module-level constant, imported or not, is a load and a
 * small-integer check (and an offset sum becomes an add with an overflow check); on the hot
 * paths below that was ~10% of `book.mix`. `test/book/layout.test.ts` checks that the two agree.
 */
export const enum Rec {
  Qty = 0,
  Level = 1,
  Id = 2,
  Owner = 3,
}
export const enum Mark {
  None = -1,
  Wide = -2147483648,
  Int32Max = 2147483647,
}
/** A level's int32 fields in `LevelSlots.rec` (`Lv` of `price-levels.ts`). */
export const enum LevelRec {
  Head = 0,
  Queued = 1,
  Count = 2,
  Side = 3,
  Ext = 4,
  Tail = 5,
  Stride = 8,
}
/** Queue chunks in `LevelSlots.slab` (`K.ChunkMask`, `K.Link` of `price-levels.ts`). */
export const enum Chunk {
  Mask = 63,
  Link = 63,
}
/** The price → level cache of `SideLevels` (`K.CacheSize` of `side-levels.ts`). */
export const enum SideCache {
  Mask = 4095,
}
/** Side codes, in level records and events (`sideCode` of `book-events.ts`). */
export const enum SideCode {
  Buy = 0,
  Sell = 1,
}
/** Codes of `BookCancelReason`s in a canceled record (`CANCEL_*` of `book-events.ts`). */
export const enum CancelCode {
  Requested = 0,
  SelfTrade = 1,
}

/**
 * The matching engine of `OrderBook`: its storage and the three commands that change it,
 * written into a `BookEvents` buffer. Kept apart from the views and the value-returning API
 * (`order-book.ts`) because this is the code that has to be fast; see `OrderBook` for the
 * layout. Malformed commands (non-integer prices, duplicate ids) are caller bugs and throw.
 */
export abstract class BookCore {
  protected readonly orders = new OrderSlots();
  protected readonly levels = new LevelSlots();
  protected readonly bids = new SideLevels();
  protected readonly asks = new SideLevels();
  /**
   * Changes to each side's levels so far, by side code (bids 0, asks 1): counted wherever a
   * level's quantity changes or a level comes or goes, so a reader holding a copy of a side
   * (a LEVEL_2 capture) knows it is still current while the count stands, without reading the
   * side. Doubles: exact far past any run's changes. A count may move with nothing visible
   * changed (a level emptied and refilled); it never stands still when something did.
   */
  protected readonly sideChanges = new Float64Array(2);
  /** The book's own id index (empty when the caller keeps one). */
  protected readonly ownIds = new IdIndex();
  /**
   * The caller's index (`OrderBookOptions.ids`), or null. Hot paths call one of two fields, each
   * of one class: one field of either class made their call sites polymorphic, not inlined, in a
   * process with both kinds of book (the bare book run after a venue ~40 % slower in CPU).
   */
  protected readonly callerIds: OrderIndex | null;
  /** Whichever index is in use, for the paths that are not hot. */
  protected readonly ids: OrderIndex;
  protected readonly cancelSelfTrades: boolean;
  protected readonly externalOwner: number;

  constructor(options: OrderBookOptions = {}) {
    this.cancelSelfTrades = (options.selfTrade ?? 'allow') === 'cancel-resting';
    this.externalOwner = smi(options.externalOwner ?? -1);
    this.callerIds = options.ids ?? null;
    this.ids = options.ids ?? this.ownIds;
  }

  /** Fills the taker against a level holding recorded quantity (`book-external.ts`); returns the lots left. */
  protected abstract matchRecordedLevel(level: number, takerId: number, takerOwnerId: number, takerSideCode: number, qtyLots: number, out: BookEvents): number;

  /**
   * `OrderBook.place`, with the outcomes appended to `out` as records. Resting is written in
   * here rather than called: a call passes its arguments tagged and re-checks every object it
   * reaches, and this function's inlining budget would not take it.
   */
  placeInto(cmd: PlaceCommand, out: BookEvents): void {
    let { orderId, ownerId, priceTicks, qtyLots } = cmd;
    // One range check for the common case: every number an int32 (id and owner neither -0 nor
    // the `Wide` marker), so each is stored and copied into events as itself. It proves what
    // `Number.isSafeInteger`, `smi` and `fitsInt32` check field by field on the general path
    // (~50 instructions a place there, as float conversions and compares); `x | 0` then makes
    // each a small integer.
    const narrow =
      (orderId | 0) === orderId &&
      (ownerId | 0) === ownerId &&
      (priceTicks | 0) === priceTicks &&
      (qtyLots | 0) === qtyLots &&
      qtyLots > 0 &&
      orderId !== Mark.Wide &&
      ownerId !== Mark.Wide &&
      (orderId !== 0 || 1 / orderId > 0) &&
      (ownerId !== 0 || 1 / ownerId > 0) &&
      (priceTicks !== 0 || 1 / priceTicks > 0);
    if (narrow) {
      orderId |= 0;
      ownerId |= 0;
      priceTicks |= 0;
      qtyLots |= 0;
    } else {
      if (!Number.isSafeInteger(priceTicks) || !Number.isSafeInteger(qtyLots) || qtyLots <= 0) {
        throw new RangeError(`order ${orderId}: price ${priceTicks} and quantity ${qtyLots} must be integers, quantity > 0`);
      }
      orderId = smi(orderId);
      ownerId = smi(ownerId);
      priceTicks = smi(priceTicks);
      qtyLots = smi(qtyLots);
    }
    const ids = this.ownIds;
    const callerIds = this.callerIds;
    const sideCode = cmd.side === 'B' ? SideCode.Buy : SideCode.Sell;
    // A level crosses when its key (price for bids, -price for asks) reaches this.
    const crossKey = sideCode === SideCode.Buy ? -priceTicks : priceTicks;
    // Most orders do not cross: the touch alone says so, without a call.
    const opposite = sideCode === SideCode.Buy ? this.asks : this.bids;
    const n = opposite.length;
    const crosses = n > 0 && opposite.keys[n - 1]! >= crossKey;
    // The duplicate-id check comes before anything changes. A GTC order that does not cross, on
    // the book's own index, changes nothing before it rests: its check is the index insert there
    // (one probe instead of two).
    // Each field of the command is read once: a caller's command objects may come in several
    // shapes, and every read of a field dispatches on them.
    const ioc = cmd.tif === 'IOC';
    const insertLate = !crosses && callerIds === null && !ioc;
    if (!insertLate && (callerIds === null ? !ids.absent(orderId) : !callerIds.absent(orderId))) throw duplicateId(orderId);
    if (crosses && cmd.postOnly) {
      out.rejected(orderId);
      return;
    }
    const remaining = crosses ? this.match(orderId, ownerId, sideCode, crossKey, qtyLots, out) : qtyLots;
    if (remaining === 0) return;
    if (ioc) {
      out.expired(orderId, remaining);
      return;
    }
    // Rest: a record, the index, the level (found through the side's cache, or new), the queue.
    const orders = this.orders;
    const o = orders.allocate();
    if (insertLate && !ids.insert(orderId, o)) {
      orders.release(o);
      throw duplicateId(orderId);
    }
    // The record's fields before the level lookup, whose calls (on a miss) make the compiler
    // load and check `data` again. Values beyond int32 go beside the record, exactly (see
    // `OrderSlots`).
    if (narrow) {
      const data = orders.data;
      data[o + Rec.Qty] = remaining;
      data[o + Rec.Id] = orderId;
      data[o + Rec.Owner] = ownerId;
    } else {
      orders.setField(o, Rec.Qty, remaining);
      orders.setField(o, Rec.Id, orderId);
      orders.setField(o, Rec.Owner, ownerId);
    }
    const own = sideCode === SideCode.Buy ? this.bids : this.asks;
    const levels = this.levels;
    // The cache hit of `own.levelOf`, written out (a call here is not inlined).
    const key = -crossKey;
    const bucket = key & SideCache.Mask;
    const cached = own.cachedLevel[bucket]!;
    let level = cached !== Mark.None && own.cachedKey[bucket] === key ? cached : own.levelOf(key);
    if (level === Mark.None) {
      level = levels.allocate(priceTicks, sideCode);
      own.insert(key, level);
    } else if (own.empties !== 0) this.reviveLevel(own, level);
    orders.data[o + Rec.Level] = level;
    // The level's counts and total before the (rare) call that links a new chunk.
    const rec = levels.rec;
    const b = level * LevelRec.Stride;
    rec[b + LevelRec.Queued]!++;
    rec[b + LevelRec.Count]!++;
    // A sum of small integers is one (or exceeds int32, where the array holds doubles anyway).
    levels.total[level] = narrow ? levels.total[level]! + remaining : smi(levels.total[level]! + remaining);
    this.sideChanges[sideCode]!++;
    const tail = rec[b + LevelRec.Tail]!;
    levels.slab[tail] = o;
    if (((tail + 1) & Chunk.Mask) === Chunk.Link) levels.nextChunk(level, tail + 1);
    else rec[b + LevelRec.Tail] = tail + 1;
    if (!insertLate) {
      if (callerIds === null) ids.add(orderId, o);
      else callerIds.add(orderId, o);
    }
    out.rested(orderId, sideCode, priceTicks, remaining);
  }

  /** `OrderBook.cancel`, with the outcome appended to `out` as a record. */
  cancelInto(orderId: number, out: BookEvents): void {
    const o = this.takeId(orderId);
    if (o === Mark.None) {
      out.cancelRejected(smi(orderId));
      return;
    }
    const orders = this.orders;
    const data = orders.data;
    const rawLots = data[o + Rec.Qty]!;
    const qtyLots = rawLots === Mark.Wide ? orders.field(o, Rec.Qty) : rawLots;
    const level = data[o + Rec.Level]!;
    // The record is marked canceled (quantity 0) for the ring to drop later; the level goes when
    // this was its last order, and its ring is compacted when canceled entries outnumber live ones.
    data[o + Rec.Qty] = 0;
    const levels = this.levels;
    levels.total[level]! -= qtyLots;
    const rec = levels.rec;
    const b = level * LevelRec.Stride;
    const live = --rec[b + LevelRec.Count]!;
    this.sideChanges[rec[b + LevelRec.Side]!]!++;
    // A level with recorded quantity stays when its last order goes.
    if (live === 0 && rec[b + LevelRec.Ext] === Mark.None) this.removeLevel(level);
    else if (rec[b + LevelRec.Queued]! > 2 * live + 16) levels.compact(level, orders);
    out.canceled(smi(orderId), qtyLots, CancelCode.Requested);
  }

  /** Fills the taker against the opposite side; returns the lots left unfilled. */
  protected match(takerId: number, takerOwnerId: number, sideCode: number, crossKey: number, qtyLots: number, out: BookEvents): number {
    const side = sideCode === SideCode.Buy ? this.asks : this.bids;
    // Called only when the taker reaches the side's best level, whose quantity then changes.
    this.sideChanges[sideCode ^ 1]!++;
    let remaining = qtyLots;
    while (remaining > 0 && side.length > 0 && side.keys[side.length - 1]! >= crossKey) {
      const level = side.levels[side.length - 1]!;
      remaining = this.matchLevel(level, takerId, takerOwnerId, sideCode, remaining, out);
      const b = level * LevelRec.Stride;
      const rec = this.levels.rec;
      if (rec[b + LevelRec.Count] === 0 && rec[b + LevelRec.Ext] === Mark.None) {
        side.pop();
        this.freeLevel(level);
        if (side.empties !== 0) this.dropEmptyTop(side);
      }
    }
    return remaining;
  }

  /** Fills the taker against one level's queue, oldest first; returns the lots left unfilled. */
  protected matchLevel(level: number, takerId: number, takerOwnerId: number, takerSideCode: number, qtyLots: number, out: BookEvents): number {
    const levels = this.levels;
    const rec = levels.rec;
    const b = level * LevelRec.Stride;
    // Recorded quantity takes its own path: one load a level tells, none an order.
    if (rec[b + LevelRec.Ext] !== Mark.None) return this.matchRecordedLevel(level, takerId, takerOwnerId, takerSideCode, qtyLots, out);
    const orders = this.orders;
    const data = orders.data; // matching never allocates, so `data` stays current
    const priceTicks = levels.price[level]!;
    const slab = levels.slab; // matching never allocates, so `slab` stays current too
    let head = rec[b + LevelRec.Head]!;
    let queued = rec[b + LevelRec.Queued]!;
    let live = rec[b + LevelRec.Count]!;
    let totalLots = levels.total[level]!;
    let remaining = qtyLots;
    // While the level has live orders one of them is in the ring; canceled entries before it
    // are dropped on the way.
    while (remaining > 0 && live > 0) {
      const maker = slab[head]!;
      const rawLots = data[maker + Rec.Qty]!;
      const makerLots = rawLots === Mark.Wide ? orders.field(maker, Rec.Qty) : rawLots;
      if (makerLots > 0 && !(this.cancelSelfTrades && orders.field(maker, Rec.Owner) === takerOwnerId)) {
        const traded = makerLots < remaining ? makerLots : remaining;
        const makerRemainingLots = makerLots - traded;
        if (rawLots === Mark.Wide) orders.setField(maker, Rec.Qty, makerRemainingLots);
        else data[maker + Rec.Qty] = makerRemainingLots;
        totalLots -= traded;
        remaining -= traded;
        const rawId = data[maker + Rec.Id]!;
        const makerId = rawId === Mark.Wide ? orders.field(maker, Rec.Id) : rawId;
        const rawOwner = data[maker + Rec.Owner]!;
        const makerOwnerId = rawOwner === Mark.Wide ? orders.field(maker, Rec.Owner) : rawOwner;
        out.trade(makerId, makerOwnerId, takerId, takerOwnerId, takerSideCode, priceTicks, traded, makerRemainingLots, remaining);
        // The taker is done; the maker stays at the head.
        if (makerRemainingLots > 0) break;
        this.takeId(makerId);
        live--;
      } else if (makerLots > 0) {
        // Self-trade prevention: the resting order goes, untraded.
        const orderId = orders.field(maker, Rec.Id);
        this.takeId(orderId);
        live--;
        totalLots -= makerLots;
        out.canceled(orderId, makerLots, CancelCode.SelfTrade);
      }
      // The head entry is done with: filled, self-trade canceled, or canceled earlier. A chunk
      // the head leaves goes back.
      if ((++head & Chunk.Mask) === Chunk.Link) {
        const next = slab[head]!;
        levels.freeChunk(head - Chunk.Link);
        head = next;
      }
      queued--;
      orders.release(maker);
    }
    rec[b + LevelRec.Head] = head;
    rec[b + LevelRec.Queued] = queued;
    rec[b + LevelRec.Count] = live;
    levels.total[level] = totalLots;
    return remaining;
  }

  /** Removes `id` from the index in use and returns its record, or -1 (see `callerIds`). */
  protected takeId(id: number): number {
    const callerIds = this.callerIds;
    return callerIds === null ? this.ownIds.take(id) : callerIds.take(id);
  }

  /** Takes a level whose last live order (or recorded quantity) went off its side, and frees it. */
  protected removeLevel(level: number): void {
    const priceTicks = this.levels.price[level]!;
    const side = this.levels.rec[level * LevelRec.Stride + LevelRec.Side] === SideCode.Buy ? this.bids : this.asks;
    const wasBest = side.remove(side === this.bids ? priceTicks : -priceTicks);
    this.freeLevel(level);
    if (wasBest && side.empties !== 0) this.dropEmptyTop(side);
  }

  /** Takes empty levels (left by recorded liquidity: `SideLevels.empties`) off the top of `side`. */
  protected dropEmptyTop(side: SideLevels): void {
    const rec = this.levels.rec;
    while (side.length > 0) {
      const level = side.levels[side.length - 1]!;
      const b = level * LevelRec.Stride;
      if (rec[b + LevelRec.Count] !== 0 || rec[b + LevelRec.Ext] !== Mark.None) return;
      side.pop();
      side.empties--;
      this.freeLevel(level);
    }
  }

  /** An order or recorded quantity comes to a level of `side`: it is no longer an empty one. */
  protected reviveLevel(side: SideLevels, level: number): void {
    const b = level * LevelRec.Stride;
    if (this.levels.rec[b + LevelRec.Count] === 0 && this.levels.rec[b + LevelRec.Ext] === Mark.None) side.empties--;
  }

  /** Frees a level with no live orders left, with the canceled records still in its ring. */
  protected freeLevel(level: number): void {
    this.levels.compact(level, this.orders);
    this.levels.release(level);
  }
}

/** The error of a place command whose id is already on the book (a caller bug). */
function duplicateId(orderId: number): RangeError {
  return new RangeError(`order ${orderId} is already on the book`);
}
