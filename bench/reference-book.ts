/**
 * The floor for `book.mix`: about the simplest fast limit order book one can write in
 * TypeScript for that workload, so `book.mix` can print how far `OrderBook` is from it in the
 * same run.
 *
 * Same semantics as `OrderBook` with `selfTrade: 'allow'`: price-time priority, partial fills,
 * GTC orders rest and IOC remainders expire, cancels by id (a miss for an unknown or filled id),
 * order ids any integers below 2^31 (found through a hash table, as `OrderBook` must). What it
 * leaves out is what makes `OrderBook` general, not what makes it correct: no events (only
 * counters and a checksum of the trades), no owners, no post-only, no views, and prices must
 * lie in a range fixed up front (a level is an array index, no sorted level list).
 *
 * Orders are records of `STRIDE` int32s (open lots, level, next in queue, id) from a free list;
 * queues are singly linked FIFOs through them; a cancel zeroes the open lots and matching drops
 * such entries when it reaches them (as `OrderBook` does with its rings). The id table holds
 * (id, record) pairs, linear probing, at most half full, deletion by backward shift.
 */
const Q = 0; // open lots; 0 = not resting (never placed, filled, canceled)
const LEVEL = 1; // price index
const NEXT = 2; // next record in the level's queue, 0 = none
const ID = 3;
const STRIDE = 4;

export class TypedReferenceBook {
  /** Trades so far, lots traded, and a checksum of (maker, taker, lots) in trade order. */
  trades = 0;
  tradedLots = 0;
  checksum = 0;
  /** Live resting orders. */
  resting = 0;
  private orders = new Int32Array(1024 * STRIDE);
  private highWater = STRIDE; // record 0 is "none"
  private freeHead = 0;
  private table = new Int32Array(2 << 10); // (id, record) pairs; record 0 = empty cell
  private mask = (1 << 10) - 1;
  private readonly head: Int32Array;
  private readonly tail: Int32Array;
  private readonly live: Int32Array;
  private readonly lots: Float64Array;
  private bestBid = -1; // price index, -1 = no bids
  private bestAsk: number; // price index, levels = no asks

  /** Prices minTicks..maxTicks. */
  constructor(
    private readonly minTicks: number,
    maxTicks: number,
  ) {
    const levels = maxTicks - minTicks + 1;
    this.head = new Int32Array(levels);
    this.tail = new Int32Array(levels);
    this.live = new Int32Array(levels);
    this.lots = new Float64Array(levels);
    this.bestAsk = levels;
  }

  /** A limit order: matches, then rests (GTC) or expires the rest (IOC). */
  place(orderId: number, isBuy: boolean, priceTicks: number, qtyLots: number, ioc: boolean): void {
    const p = priceTicks - this.minTicks;
    let remaining = qtyLots;
    if (isBuy) {
      while (remaining > 0 && this.bestAsk <= p) {
        remaining = this.matchLevel(this.bestAsk, orderId, remaining);
        if (this.live[this.bestAsk] === 0) this.bestAsk = this.nextAsk(this.bestAsk + 1);
      }
    } else {
      while (remaining > 0 && this.bestBid >= p && this.bestBid >= 0) {
        remaining = this.matchLevel(this.bestBid, orderId, remaining);
        if (this.live[this.bestBid] === 0) this.bestBid = this.nextBid(this.bestBid - 1);
      }
    }
    if (remaining === 0 || ioc) return;
    const o = this.allocate();
    const orders = this.orders;
    orders[o + Q] = remaining;
    orders[o + LEVEL] = p;
    orders[o + NEXT] = 0;
    orders[o + ID] = orderId;
    if (this.head[p] === 0) this.head[p] = o;
    else orders[this.tail[p]! + NEXT] = o;
    this.tail[p] = o;
    this.live[p]!++;
    this.lots[p]! += remaining;
    this.resting++;
    this.index(orderId, o);
    if (isBuy && p > this.bestBid) this.bestBid = p;
    if (!isBuy && p < this.bestAsk) this.bestAsk = p;
  }

  /** Cancels a resting order; false when it is not resting (a miss). */
  cancel(orderId: number): boolean {
    const o = this.unindex(orderId);
    if (o === 0) return false;
    const qty = this.orders[o + Q]!;
    const p = this.orders[o + LEVEL]!;
    this.orders[o + Q] = 0; // freed when matching or an emptied level passes it
    this.lots[p]! -= qty;
    this.resting--;
    if (--this.live[p]! === 0) {
      this.freeQueue(p); // every entry left in the queue is canceled
      if (p === this.bestBid) this.bestBid = this.nextBid(p - 1);
      if (p === this.bestAsk) this.bestAsk = this.nextAsk(p + 1);
    }
    return true;
  }

  /** Fills the taker against level `p`, oldest first; returns the lots left. */
  private matchLevel(p: number, takerId: number, qtyLots: number): number {
    const orders = this.orders;
    let remaining = qtyLots;
    let o = this.head[p]!;
    while (remaining > 0 && o !== 0) {
      const makerLots = orders[o + Q]!;
      if (makerLots > 0) {
        const traded = makerLots < remaining ? makerLots : remaining;
        orders[o + Q] = makerLots - traded;
        remaining -= traded;
        this.lots[p]! -= traded;
        this.trades++;
        this.tradedLots += traded;
        this.checksum = (Math.imul(this.checksum, 31) + Math.imul(orders[o + ID]!, 7) + Math.imul(takerId, 13) + traded) | 0;
        if (makerLots > traded) break; // the maker stays at the head
        this.unindex(orders[o + ID]!);
        this.live[p]!--;
        this.resting--;
      }
      const next = orders[o + NEXT]!;
      this.release(o);
      o = next;
    }
    this.head[p] = o;
    return remaining;
  }

  private freeQueue(p: number): void {
    for (let o = this.head[p]!; o !== 0; ) {
      const next = this.orders[o + NEXT]!;
      this.release(o);
      o = next;
    }
    this.head[p] = 0;
  }

  private allocate(): number {
    const o = this.freeHead;
    if (o !== 0) {
      this.freeHead = this.orders[o + NEXT]!;
      return o;
    }
    if (this.highWater === this.orders.length) {
      const grown = new Int32Array(this.orders.length * 2);
      grown.set(this.orders);
      this.orders = grown;
    }
    this.highWater += STRIDE;
    return this.highWater - STRIDE;
  }

  private release(o: number): void {
    this.orders[o + NEXT] = this.freeHead;
    this.freeHead = o;
  }

  private index(id: number, o: number): void {
    if (2 * (this.resting + 1) > this.mask) this.rehash(this.mask * 2 + 1);
    let i = id & this.mask;
    while (this.table[2 * i + 1] !== 0) i = (i + 1) & this.mask;
    this.table[2 * i] = id;
    this.table[2 * i + 1] = o;
  }

  /** Removes `id` from the table; its record, or 0 when absent. */
  private unindex(id: number): number {
    const t = this.table;
    const mask = this.mask;
    let hole = id & mask;
    while (t[2 * hole] !== id || t[2 * hole + 1] === 0) {
      if (t[2 * hole + 1] === 0) return 0;
      hole = (hole + 1) & mask;
    }
    const o = t[2 * hole + 1]!;
    for (let j = (hole + 1) & mask; t[2 * j + 1] !== 0; j = (j + 1) & mask) {
      if (((j - (t[2 * j]! & mask)) & mask) >= ((j - hole) & mask)) {
        t[2 * hole] = t[2 * j]!;
        t[2 * hole + 1] = t[2 * j + 1]!;
        hole = j;
      }
    }
    t[2 * hole + 1] = 0;
    return o;
  }

  private rehash(mask: number): void {
    const old = this.table;
    this.table = new Int32Array(2 * (mask + 1));
    this.mask = mask;
    for (let i = 0; i < old.length; i += 2) {
      if (old[i + 1] === 0) continue;
      let j = old[i]! & mask;
      while (this.table[2 * j + 1] !== 0) j = (j + 1) & mask;
      this.table[2 * j] = old[i]!;
      this.table[2 * j + 1] = old[i + 1]!;
    }
  }

  private nextAsk(from: number): number {
    let p = from;
    while (p < this.live.length && this.live[p] === 0) p++;
    return p;
  }

  private nextBid(from: number): number {
    let p = from;
    while (p >= 0 && this.live[p] === 0) p--;
    return p;
  }
}
