import { noteOfFeed, type OwnOrderNote, type TickFeeds, type TopTicks } from '../strategy/tick-feeds.ts';
import type { Side } from '../core/types.ts';
import type { OrderFeed } from '../wire/order.ts';
import type { OrderEvent } from '../venue/order-events.ts';
import type { Venue } from '../venue/venue.ts';

/**
 * An `OwnOrderNote` an in-process port fills and reuses (`InFlightRing`). Its `oid` is made
 * from the order's numbers when first read (most notes' never is: agents find their orders by
 * engine id), so no id text is made for an order nobody outside reads.
 */
export class NoteRecord implements OwnOrderNote {
  t: OrderFeed['t'] = 'n';
  /** The wire id, or undefined: made from `seq` and the insert time on first read. */
  oidText: string | undefined = '';
  seq = Number.NaN;
  insertSec = Number.NaN;
  insertNanos = Number.NaN;
  symbol = '';
  side: Side = 'B';
  priceTicks = Number.NaN;
  tif = 'GTC';
  remainingLots = 0;
  reason: string | undefined = undefined;
  fillLots = 0;
  fillPriceTicks = Number.NaN;

  /** @param ids the port, which makes an order's wire id from its numbers. */
  constructor(private readonly ids: Pick<TickFeeds, 'formatOrderId'>) {}

  get oid(): string {
    return (this.oidText ??= this.ids.formatOrderId(this.seq, this.insertSec, this.insertNanos));
  }
}

/** A `TopTicks` an in-process port fills and reuses. */
export class TopRecord implements TopTicks {
  s = '';
  /** The market's `index`: where the port finds its subscription on delivery (private: a strategy sees the `TopTicks` fields only). */
  #marketIndex = -1;

  get marketIndex(): number {
    return this.#marketIndex;
  }

  set marketIndex(index: number) {
    this.#marketIndex = index;
  }
  bidTicks: number | undefined = undefined;
  bidLots = 0;
  askTicks: number | undefined = undefined;
  askLots = 0;
}

/**
 * Writes the note of an order event (`TickFeeds.onOwnOrder`) into `out`, read from the order's
 * record: no feed object, no price text. An event the records cannot describe (an order off
 * the tick grid or of an unknown symbol) goes through its feed, as `noteOfFeed` reads it; an
 * `e` names no order.
 */
export function writeNote(out: NoteRecord, e: OrderEvent, venue: Venue): void {
  const t = e.t;
  out.t = t;
  out.reason = e.reason;
  const market = t === 'e' ? undefined : e.plainMarket();
  if (market === undefined) {
    const note = t === 'e' ? EMPTY : noteOfFeed(e.feed(), (symbol, text) => venue.market(symbol)?.instrument.tick.toTicks(text));
    out.oidText = note.oid;
    out.seq = note.seq;
    out.insertSec = note.insertSec;
    out.insertNanos = note.insertNanos;
    out.symbol = note.symbol;
    out.side = note.side;
    out.priceTicks = note.priceTicks;
    out.tif = note.tif;
    out.remainingLots = note.remainingLots;
    out.fillLots = note.fillLots;
    out.fillPriceTicks = note.fillPriceTicks;
    return;
  }
  const fill = t === 'p' || t === 'f';
  out.oidText = undefined; // made from the numbers if read
  out.seq = e.engineId();
  out.insertSec = e.insertSec();
  out.insertNanos = e.insertNanos();
  out.symbol = market.symbol;
  out.side = e.side();
  out.priceTicks = e.priceTicks();
  out.tif = e.tif();
  out.remainingLots = e.remainingLots();
  out.fillLots = fill ? e.fillLots : 0;
  out.fillPriceTicks = fill ? e.fillPriceTicks : Number.NaN;
}

/** What a feed without an order (`e`) says besides its type and reason. */
const EMPTY = noteOfFeed({ t: 'e', ts: 0, tn: 0 } as OrderFeed, () => undefined);
