import type { TickSize } from '../core/price.ts';
import type { Side, TimeInForce } from '../core/types.ts';
import type { ExchangePort } from '../strategy/exchange-port.ts';
import type { OrderFeed } from '../wire/order.ts';
import { noteOfFeed, type OwnOrderNote, type TickFeeds } from '../strategy/tick-feeds.ts';
import { removeAt } from '../core/arrays.ts';
import { indexOf, newSymbolBook, removeOpen, type SymbolBook } from './symbol-book.ts';

/** One of the agent's open orders, as its feeds describe it. */
export interface OwnOrder {
  readonly id: string;
  /** Engine id where the port told it (cancels then skip parsing `id`), else NaN. */
  readonly seq: number;
  readonly symbol: string;
  readonly side: Side;
  readonly priceTicks: number;
  readonly tif: string;
  remainingLots: number;
  /** A cancel request is on its way. */
  canceling: boolean;
}

/**
 * An open order as `OwnOrders` keeps it. Its wire id is made from the engine id and insert
 * time only if read (`id`): agents find and cancel orders by engine id, and the text is read
 * only to name a cancel that finds no open order.
 */
class OpenOrder implements OwnOrder {
  canceling = false;

  constructor(
    private text: string,
    readonly seq: number,
    private readonly insertSec: number,
    private readonly insertNanos: number,
    private readonly ids: TickFeeds | undefined,
    readonly symbol: string,
    readonly side: Side,
    readonly priceTicks: number,
    readonly tif: string,
    public remainingLots: number,
  ) {}

  get id(): string {
    if (this.text === '') this.text = this.ids!.formatOrderId(this.seq, this.insertSec, this.insertNanos);
    return this.text;
  }
}

/** An insert sent but not yet answered. */
export interface InFlightOrder {
  readonly side: Side;
  readonly priceTicks: number;
}

/** What one feed meant for the agent. */
export type FeedOutcome =
  | { kind: 'accepted'; order: OwnOrder }
  | { kind: 'fill'; symbol: string; side: Side; priceTicks: number; qtyLots: number; done: boolean }
  | { kind: 'ended'; symbol: string; reason: 'canceled' | 'expired' | 'done-for-day' }
  | { kind: 'rejected'; symbol: string; reason: string }
  | { kind: 'other' };

const OTHER: FeedOutcome = { kind: 'other' };
const NONE: readonly InFlightOrder[] = Object.freeze([]);
const NO_ORDERS: readonly OwnOrder[] = Object.freeze([]);

/**
 * An agent's own orders and positions, kept from its order feeds alone (no queries): open
 * orders by id, inserts still in flight (so a requote does not duplicate them), and the net
 * position per symbol from fills. Sends orders through the port's one-way requests where it
 * has them (in ticks, no answer: `OneWayRequests`), else in ticks converted to exact price
 * text. Promises from the port are never awaited: in a simulation they settle only
 * after the clock stops, so everything an agent needs arrives as feeds. No handler is attached
 * either — each would queue a microtask that a long synchronous run keeps until its end — so
 * only well-formed requests are sent (a venue refusal arrives as a feed, not a rejection).
 *
 * The outcome `apply` / `applyNote` return is valid until the next call (one object per kind,
 * reused: an outcome per feed was the agents' largest allocation); the `OwnOrder` of an
 * `accepted` outcome is the agent's to keep.
 */
export class OwnOrders {
  private readonly books = new Map<string, SymbolBook>();
  private inFlightTotal = 0;
  /** The book `book` returned last (books are never removed): agents mostly trade one symbol. */
  private lastSymbol: string | undefined = undefined;
  private lastBook: SymbolBook | undefined = undefined;
  /** Settled in-flight records for reuse (the caller reads them during a call only: a live view). */
  private readonly spareInFlight: { side: Side; priceTicks: number }[] = [];
  private readonly accepted: { kind: 'accepted'; order: OwnOrder } = { kind: 'accepted', order: undefined as unknown as OwnOrder };
  private readonly fill: { kind: 'fill'; symbol: string; side: Side; priceTicks: number; qtyLots: number; done: boolean } = { kind: 'fill', symbol: '', side: 'B', priceTicks: 0, qtyLots: 0, done: false };
  private readonly ended: { kind: 'ended'; symbol: string; reason: 'canceled' | 'expired' | 'done-for-day' } = { kind: 'ended', symbol: '', reason: 'canceled' };
  private readonly rejected: { kind: 'rejected'; symbol: string; reason: string } = { kind: 'rejected', symbol: '', reason: '' };

  constructor(
    private readonly port: ExchangePort,
    private readonly tickOf: (symbol: string) => TickSize,
  ) {}

  /** Sends a new order (ticks → exact price text). Ignores non-positive or non-integer values. */
  place(symbol: string, side: Side, priceTicks: number, qtyLots: number, tif: TimeInForce, postOnly = false): void {
    if (!Number.isSafeInteger(priceTicks) || priceTicks <= 0 || !Number.isSafeInteger(qtyLots) || qtyLots <= 0) return;
    const f = this.spareInFlight.pop() ?? { side, priceTicks };
    f.side = side;
    f.priceTicks = priceTicks;
    this.book(symbol).inFlight.push(f);
    this.inFlightTotal++;
    const oneWay = this.port.oneWay;
    if (oneWay !== undefined) return oneWay.placeTicks(symbol, side, priceTicks, qtyLots, tif, postOnly);
    const price = this.tickOf(symbol).toPrice(priceTicks);
    void this.port.insertOrder({ symbol, price, quantity: qtyLots, side, timeInForce: tif, postOnly });
  }

  /** Asks to cancel an open order (once). */
  cancel(order: OwnOrder): void {
    if (order.canceling) return;
    order.canceling = true;
    const oneWay = this.port.oneWay;
    if (oneWay !== undefined) {
      if (Number.isNaN(order.seq)) oneWay.cancel(order.id);
      else oneWay.cancelSeq(order.seq, order); // `order.id` is made only if the cancel finds nothing
    }
    else void this.port.cancelOrder(order.id);
  }

  /** Cancels every open order of `symbol` (or of every symbol). */
  cancelAllIn(symbol?: string): void {
    for (const [sym, b] of this.books) if (symbol === undefined || sym === symbol) for (const o of b.open) this.cancel(o);
  }

  /** Updates orders and positions from one of the agent's feeds; says what it meant. */
  apply(feed: OrderFeed): FeedOutcome {
    return this.applyNote(noteOfFeed(feed, this.textTicks));
  }

  /** `apply` for a feed as numbers (what an in-process port sends: `TickFeeds`). */
  applyNote(note: OwnOrderNote): FeedOutcome {
    // A note with an engine id is about an order; without one, an empty `oid` says there is none.
    if (Number.isNaN(note.seq) && note.oid === '') return OTHER;
    switch (note.t) {
      case 'n': {
        const b = this.book(note.symbol);
        this.settleInFlight(b, note.side, note.priceTicks);
        // Where the port can make the id from the numbers, the note's text is not read (nor made).
        const ids = Number.isNaN(note.insertSec) ? undefined : this.port.ticks;
        const order = new OpenOrder(ids === undefined ? note.oid : '', note.seq, note.insertSec, note.insertNanos, ids, note.symbol, note.side, note.priceTicks, note.tif, note.remainingLots);
        if (note.remainingLots > 0) {
          // As a map's set: a second acceptance of one order replaces it where it stands.
          const at = note.seq > b.maxSeq ? -1 : indexOf(b, note);
          if (at >= 0) {
            if (!(b.open[at]!.seq === note.seq)) b.sorted = false; // found by wire id: the engine id may differ
            b.open[at] = order;
          } else {
            const open = b.open;
            if (!(open.length === 0 || note.seq > open[open.length - 1]!.seq)) b.sorted = false; // NaN included
            open.push(order);
            if (note.seq > b.maxSeq) b.maxSeq = note.seq;
          }
        }
        this.accepted.order = order;
        return this.accepted;
      }
      case 'j': {
        this.settleInFlight(this.book(note.symbol), note.side, note.priceTicks);
        const out = this.rejected;
        out.symbol = note.symbol;
        out.reason = note.reason ?? 'UNKNOWN';
        return out;
      }
      case 'p':
      case 'f': {
        const b = this.book(note.symbol);
        b.position += note.side === 'B' ? note.fillLots : -note.fillLots;
        const at = indexOf(b, note);
        if (at >= 0) {
          if (note.t === 'f' || note.remainingLots === 0) removeOpen(b, at);
          else b.open[at]!.remainingLots = note.remainingLots;
        }
        const out = this.fill;
        out.symbol = note.symbol;
        out.side = note.side;
        out.priceTicks = note.fillPriceTicks;
        out.qtyLots = note.fillLots;
        out.done = note.t === 'f';
        return out;
      }
      case 'c':
      case 'x':
      case 'd': {
        const b = this.book(note.symbol);
        const at = indexOf(b, note);
        if (at >= 0) removeOpen(b, at);
        const out = this.ended;
        out.symbol = note.symbol;
        out.reason = note.t === 'c' ? 'canceled' : note.t === 'x' ? 'expired' : 'done-for-day';
        return out;
      }
      default:
        return OTHER;
    }
  }

  /** Net position in `symbol`, lots (long > 0). */
  position(symbol: string): number {
    return this.existing(symbol)?.position ?? 0;
  }

  /** Open orders of `symbol`, in acceptance order (a live view: do not hold across calls). */
  orders(symbol: string): readonly OwnOrder[] {
    return this.existing(symbol)?.open ?? NO_ORDERS;
  }

  /** Number of open orders over every symbol. */
  get openCount(): number {
    let n = 0;
    for (const b of this.books.values()) n += b.open.length;
    return n;
  }

  /** Inserts of `symbol` in flight (a live view). */
  inFlightOrders(symbol: string): readonly InFlightOrder[] {
    return this.existing(symbol)?.inFlight ?? NONE;
  }

  /** Number of inserts in flight over every symbol. */
  get inFlightCount(): number {
    return this.inFlightTotal;
  }

  private book(symbol: string): SymbolBook {
    if (symbol === this.lastSymbol) return this.lastBook!;
    let b = this.books.get(symbol);
    if (b === undefined) this.books.set(symbol, (b = newSymbolBook()));
    this.lastSymbol = symbol;
    this.lastBook = b;
    return b;
  }

  /** The book of `symbol` if it has one (none made). */
  private existing(symbol: string): SymbolBook | undefined {
    return symbol === this.lastSymbol ? this.lastBook : this.books.get(symbol);
  }

  private settleInFlight(b: SymbolBook, side: Side, priceTicks: number): void {
    const list = b.inFlight;
    for (let i = 0; i < list.length; i++) {
      const f = list[i]!;
      if (f.side === side && f.priceTicks === priceTicks) {
        removeAt(list, i);
        this.spareInFlight.push(f as { side: Side; priceTicks: number });
        this.inFlightTotal--;
        return;
      }
    }
    // Not ours to settle: e.g. a liquidation order the venue placed for us.
  }

  private readonly textTicks = (symbol: string, priceText: string): number | undefined => this.tickOf(symbol).toTicks(priceText);
}
