import type { SimClock } from '../clock/sim-clock.ts';
import { CounterIds, IdGenerator, ID_DIGITS, LIQUIDATION_ID_PREFIX, ORDER_ID_PREFIX, writeOrderIdBytes } from '../core/ids.ts';
import type { Money } from '../core/money.ts';
import type { Account } from './account.ts';
import { CommandLog } from './command-log.ts';
import type { Side } from '../core/types.ts';
import type { VenueListener } from './feeds.ts';
import type { Market } from './market.ts';
import type { OrderFeedType } from './order-events.ts';
import type { OrderEventRows } from './order-event-rows.ts';
import { B_IM_BIG, B_OFF_GRID, F_FILLED, F_MARKET, F_NANOS, F_PRICE, F_QTY, F_SEC, F_SEQ, OrderStore, ST_NEW, ST_PARTIAL } from './order-store.ts';
import { OrderView } from './order-view.ts';

/** Room `VenueState.writeOrderIdInto` needs: a two-character prefix and the id's digits. */
export const ORDER_ID_BYTES = 2 + ID_DIGITS;

/**
 * The state every part of the venue works on: clock, markets, accounts, the order records,
 * id generators, listeners. The parts (order flow, settlement, sessions) each get this one
 * object instead of reaching into each other.
 */
export class VenueState {
  readonly markets: Market[] = [];
  readonly marketBySymbol = new Map<string, Market>();
  readonly accounts: Account[] = [];
  readonly accountByName = new Map<string, Account>();
  /** Every order of the current command and every order resting on a book. */
  readonly orders = new OrderStore();
  readonly listeners: VenueListener[] = [];
  readonly orderIds = new IdGenerator(ORDER_ID_PREFIX);
  readonly liquidationIds = new IdGenerator(LIQUIDATION_ID_PREFIX);
  readonly executionIds = new CounterIds();
  readonly tradeIds = new CounterIds();
  /** Σ fees charged (maker rebates count negative), but for those the markets still count in tick·lots. */
  feesCollectedBase: Money = 0n;
  /** Number of times an account was liquidated. */
  liquidations = 0;
  /** Set while the venue processes a command: listeners must not re-enter. */
  busy = false;
  /** Makes each command all-or-nothing: its undo log, and what it tells listeners once it applied. */
  readonly log: CommandLog = new CommandLog(this);
  /** What the command's listeners will be told (`log.outbox`). */
  private readonly outbox = this.log.outbox;
  // Listeners with each hot hook, kept current by `listenersChanged` (no per-feed lookups).
  private orderListeners: VenueListener[] = [];
  private tradeListeners: VenueListener[] = [];

  constructor(readonly clock: SimClock) {}

  /** Σ fees charged (maker rebates count negative). */
  get feesCollected(): Money {
    let total = this.feesCollectedBase;
    for (const m of this.markets) total += m.pendingFees;
    return total;
  }

  /**
   * Collects a fill's fee as tick·lots in its market's counter (no bigint per fill), folding
   * the counter into `feesCollectedBase` first when it would pass 2^53. The caller checked that
   * `notionalTicks` is a safe integer and the market's fee factor whole.
   */
  collectFeeTicks(market: Market, notionalTicks: number, aggressor: boolean): void {
    if (!Number.isSafeInteger((aggressor ? market.takerFeeTicks : market.makerFeeTicks) + notionalTicks)) {
      this.feesCollectedBase += market.pendingFees;
      market.takerFeeTicks = 0;
      market.makerFeeTicks = 0;
    }
    if (aggressor) market.takerFeeTicks += notionalTicks;
    else market.makerFeeTicks += notionalTicks;
  }


  /** Call after changing `listeners`. */
  listenersChanged(): void {
    this.orderListeners = this.listeners.filter((l) => l.orderFeed !== undefined || l.orderEvent !== undefined);
    this.tradeListeners = this.listeners.filter((l) => l.trade !== undefined);
    // The book-change listeners live only in `hooked` (a field a snapshot keeps from the running
    // process, like the other listener lists: see EXTERNAL_KEYS in src/api/journal/object-graph.ts).
    Object.assign(this.hooked, { all: this.listeners, order: this.orderListeners, trade: this.tradeListeners, book: this.listeners.filter((l) => l.bookChanged !== undefined) });
  }

  /** True when some listener takes order events (else feeds need not even be described). */
  get wantsOrderEvents(): boolean {
    return this.orderListeners.length > 0;
  }

  get wantsTrades(): boolean {
    return this.tradeListeners.length > 0;
  }

  /**
   * A new order event of type `t` about the order in `slot` (-1 for `e`), written as a row of the
   * command's outbox (`rows`, see `OrderEventRows.add`: the caller sets what its type carries, then calls `told`), or -1 when
   * no listener takes order events. The row keeps the order's fill and state as of now.
   */
  orderRow(t: OrderFeedType, userId: number, slot: number, eid: number): number {
    if (this.orderListeners.length === 0) return -1;
    const o = this.orders;
    const filled = slot >= 0 ? o.filled(slot) : -1;
    const state = slot >= 0 ? o.state(slot) : -1;
    return this.outbox.events.add(t, userId, slot, eid, filled, state);
  }

  /** `orderRow` from a caller that knows the order's filled lots and state (the fast lane): the record is not read. */
  orderRowAs(t: OrderFeedType, userId: number, slot: number, eid: number, filled: number, state: number): number {
    if (this.orderListeners.length === 0) return -1;
    return this.outbox.events.add(t, userId, slot, eid, filled, state);
  }

  /** The rows `orderRow` writes. */
  get rows(): OrderEventRows {
    return this.outbox.events;
  }

  /** After an order event row is complete: inside a command it waits for the commit, outside one the listeners hear it now. */
  told(): void {
    if (!this.busy && this.outbox.pending) this.outbox.deliver(this.hooked);
  }

  /**
   * A trade, told to the trade listeners as a cursor over its row (no object per trade, see
   * trade-record.ts): after the command when inside one, now otherwise. `maker` / `taker`:
   * order slots (`NO_SLOT`: the external side, owned by `EXTERNAL_OWNER`).
   */
  emitTrade(market: Market, tradeNumber: number, priceTicks: number, qtyLots: number, takerSide: Side, maker: number, taker: number, makerUserId: number, takerUserId: number): void {
    const { nowSec, nowNanos } = this.clock;
    if (this.busy) this.outbox.tradeRow(market, tradeNumber, nowSec, nowNanos, priceTicks, qtyLots, takerSide, maker, taker, makerUserId, takerUserId);
    else this.outbox.tradeNow(this.tradeListeners, market, tradeNumber, nowSec, nowNanos, priceTicks, qtyLots, takerSide, maker, taker, makerUserId, takerUserId);
  }

  /** `announce('bookChanged', market)` without the lookup by name (once per command that moved a book), and nothing when nobody listens. */
  bookChanged(market: Market): void {
    const book = this.hooked.book;
    if (book.length === 0) return;
    if (this.busy) this.outbox.bookChanged(market);
    else for (const l of book) l.bookChanged!(market);
  }

  /** Calls `fn` on every listener that has the hook. */
  announce<K extends keyof VenueListener>(hook: K, ...args: Parameters<NonNullable<VenueListener[K]>>): void {
    if (this.busy) {
      this.outbox.announce(hook, args[0], args[1]);
      return;
    }
    for (const l of this.listeners) {
      const f = l[hook] as ((...a: unknown[]) => void) | undefined;
      if (f !== undefined) f.apply(l, args);
    }
  }

  /**
   * Runs a command with the re-entrancy guard, all or nothing (see `CommandLog`): when a step
   * throws, everything it changed is taken back and a `CommandFailedError` is thrown.
   */
  exclusive<T>(fn: () => T): T {
    this.enter();
    try {
      return fn();
    } catch (e) {
      throw this.fail(e);
    } finally {
      this.leave();
    }
  }

  /**
   * `exclusive` for hot commands that inline it (no closure per call):
   * `enter(); try { … } catch (e) { throw fail(e); } finally { leave(); }`.
   */
  enter(): void {
    if (this.busy) throw new Error('venue is busy: a listener must not call the venue synchronously; schedule the call on the clock');
    this.busy = true;
    this.log.begin();
  }

  /** The command threw: undo it (see `exclusive`). */
  fail(e: unknown): Error {
    return this.log.fail(e);
  }

  /** The command is over: the listeners hear of it (after a failure, of nothing), slots of ended orders are freed. */
  leave(): void {
    try {
      this.log.commit(this.hooked);
    } finally {
      this.busy = false;
    }
  }

  /** Frees an ended order's slot, at the end of the command when inside one. */
  free(slot: number): void {
    if (this.busy) this.log.freeLater(slot);
    else this.orders.free(slot);
  }

  /** The listeners by hook, for the outbox's delivery (`CommandListeners`). */
  private readonly hooked = {
    all: [] as readonly VenueListener[],
    order: [] as readonly VenueListener[],
    trade: [] as readonly VenueListener[],
    book: [] as readonly VenueListener[],
  };

  /** Account by username, or undefined. */
  account(username: string): Account | undefined {
    return this.accountByName.get(username);
  }

  // --- what an order record shows on the wire, built when read ------------------------------

  /** Wire id of the order in `slot` (`O-`/`L-` + time + counter), made on first read. */
  orderId(slot: number): string {
    const o = this.orders;
    const cached = o.cachedId(slot);
    if (cached !== '') return cached;
    const id = this.formatOrderId(o.field(slot, F_SEQ), o.field(slot, F_SEC), o.field(slot, F_NANOS));
    o.setSideId(slot, id);
    return id;
  }

  /**
   * Writes the wire id of the order in `slot` (`orderId`'s text) as ASCII at `out[at]` and
   * returns the end: from its numbers, without making the text (the text when it was made
   * already). Needs `ORDER_ID_BYTES` of room.
   */
  writeOrderIdInto(slot: number, out: Uint8Array, at: number): number {
    const o = this.orders;
    const cached = o.cachedId(slot);
    if (cached !== '') {
      for (let i = 0; i < cached.length; i++) out[at + i] = cached.charCodeAt(i);
      return at + cached.length;
    }
    const seq = o.field(slot, F_SEQ);
    const nanos = o.field(slot, F_NANOS);
    return writeOrderIdBytes(out, at, seq, o.field(slot, F_SEC) * 1000 + Math.floor(nanos / 1_000_000));
  }

  /** The wire id of engine id `seq` inserted at (sec, nanos). */
  formatOrderId(seq: number, sec: number, nanos: number): string {
    const ms = sec * 1000 + Math.floor(nanos / 1_000_000);
    return seq > 0 ? this.orderIds.format(ms, seq) : this.liquidationIds.format(ms, -seq);
  }

  marketOf(slot: number): Market | undefined {
    return this.markets[this.orders.field(slot, F_MARKET)];
  }

  symbolOf(slot: number): string {
    return this.orders.oddTexts(slot)?.symbol ?? this.marketOf(slot)!.symbol;
  }

  priceTextOf(slot: number): string {
    const cached = this.orders.cachedPriceText(slot);
    if (cached !== '') return cached;
    const odd = this.orders.oddTexts(slot);
    const text = odd !== undefined ? odd.priceText : this.marketOf(slot)!.instrument.tick.toPrice(this.orders.field(slot, F_PRICE));
    this.orders.setSidePriceText(slot, text);
    return text;
  }

  /** Initial margin reserved by the open order in `slot` (0n once it ended). */
  reservedImOf(slot: number): Money {
    const o = this.orders;
    if (o.has(slot, B_IM_BIG)) return o.reservedIm[slot]!;
    const state = o.state(slot);
    if (state !== ST_NEW && state !== ST_PARTIAL) return 0n;
    return this.marketOf(slot)!.initialMarginOf(o.field(slot, F_PRICE), o.field(slot, F_QTY) - o.field(slot, F_FILLED));
  }

  /** The caller-facing `Order` of `slot` (one per slot, kept; see order-view.ts). */
  view(slot: number): OrderView {
    let v = this.orders.views[slot] as OrderView | undefined;
    if (v === undefined) {
      this.orders.setSideView(slot, (v = new OrderView(this, slot)));
    }
    return v;
  }

  /** True when the order in `slot` has a price on its market's tick grid. */
  onGrid(slot: number): boolean {
    return !this.orders.has(slot, B_OFF_GRID);
  }
}
