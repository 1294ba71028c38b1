import type { Side, TimeInForce } from '../core/types.ts';
import type { Account } from '../venue/account.ts';
import type { Market } from '../venue/market.ts';
import type { Venue } from '../venue/venue.ts';
import type { OneWayRequests } from '../strategy/exchange-port.ts';
import type { MarketDataLevel } from '../wire/market-data.ts';
import type { InProcessPort } from './in-process-port.ts';
import { InFlightRing } from './in-flight-ring.ts';

/** A one-way insert on its way to the venue (a reused record: see `InFlightRing`). */
class TicksOrder {
  symbol = '';
  side: Side = 'B';
  priceTicks = 0;
  qtyLots = 0;
  tif: TimeInForce = 'GTC';
  postOnly = false;
}

/**
 * The in-process port's one-way requests (`OneWayRequests`): the agents' inserts, cancels and
 * book glances. Each travels to the venue after the same order-latency sample as the promise
 * call, runs there at that instant, and then draws the sample its answer would have taken
 * (`InProcessPort.answered`) — so the random streams, the channels and every feed stay as they
 * were — but schedules no answer, makes no promise and no closure per request. The request's
 * arguments travel as the clock event's argument to a handler made once per port.
 *
 * An insert is placed by ticks through the venue's engine-id path (`placeOrderSeq`): the same
 * rules and feeds as a wire-shaped request, without the price text the agent would format
 * and the venue parse back.
 */
export class OneWayPort implements OneWayRequests {
  /** Inserts and cancels by engine id on their way, in sending order (the request channel is FIFO): no object each. */
  private readonly inserts = new InFlightRing(() => new TicksOrder());
  private readonly cancels = new InFlightRing((): { seq: number; orderId: string | { readonly id: string } } => ({ seq: 0, orderId: '' }));

  constructor(
    private readonly port: InProcessPort,
    private readonly venue: Venue,
    private readonly account: Account,
  ) {}

  placeTicks(symbol: string, side: Side, priceTicks: number, qtyLots: number, tif: TimeInForce, postOnly: boolean): void {
    const o = this.inserts.push();
    o.symbol = symbol;
    o.side = side;
    o.priceTicks = priceTicks;
    o.qtyLots = qtyLots;
    o.tif = tif;
    o.postOnly = postOnly;
    this.port.request(this.runPlace, undefined);
  }

  cancel(orderId: string): void {
    this.port.request(this.runCancel, orderId);
  }

  cancelSeq(seq: number, orderId: string | { readonly id: string }): void {
    const c = this.cancels.push();
    c.seq = seq;
    c.orderId = orderId;
    this.port.request(this.runCancelSeq, undefined);
  }

  subscribe(symbol: string, level: MarketDataLevel): void {
    this.port.request(level === 'LEVEL_1' ? this.runSubscribeL1 : level === 'LEVEL_2' ? this.runSubscribeL2 : this.runSubscribeL3, symbol);
  }

  unsubscribe(symbol: string): void {
    this.port.request(this.runUnsubscribe, symbol);
  }

  private readonly runPlace = (): void => {
    const o = this.inserts.peek();
    this.inserts.drop(); // read below before anything could send another insert
    const market = this.marketOf(o.symbol);
    if (market === undefined) throw new RangeError(`${this.account.username}: unknown symbol ${o.symbol}`); // agents trade only their markets
    this.venue.placeOrderSeq(this.account, market, o.side, o.priceTicks, o.qtyLots, o.tif, o.postOnly);
    this.port.answered();
  };

  /** The market last placed in (agents trade one or two; markets are never removed): no lookup by symbol per insert. */
  private lastSymbol = '';
  private lastMarket: Market | undefined = undefined;

  private marketOf(symbol: string): Market | undefined {
    if (symbol === this.lastSymbol) return this.lastMarket;
    const market = this.venue.market(symbol);
    if (market !== undefined) (this.lastSymbol = symbol), (this.lastMarket = market);
    return market;
  }

  private readonly runCancel = (orderId: string): void => {
    this.venue.cancelOrder(this.account, orderId);
    this.port.answered();
  };

  private readonly runCancelSeq = (): void => {
    const c = this.cancels.peek();
    const { seq, orderId } = c;
    c.orderId = ''; // the record is reused: keep no order alive
    this.cancels.drop(); // read above before anything could send another cancel
    // The wire id only names a cancel that finds no open order: made only then.
    const named = typeof orderId === 'string' || this.venue.holdsOpenOrder(this.account, seq) ? orderId : orderId.id;
    this.venue.cancelOrderSeq(this.account, seq, typeof named === 'string' ? named : undefined);
    this.port.answered();
  };

  private readonly runSubscribeL1 = (symbol: string): void => this.subscribed(symbol, 'LEVEL_1');
  private readonly runSubscribeL2 = (symbol: string): void => this.subscribed(symbol, 'LEVEL_2');
  private readonly runSubscribeL3 = (symbol: string): void => this.subscribed(symbol, 'LEVEL_3');

  private subscribed(symbol: string, level: MarketDataLevel): void {
    this.port.subscribeNow(symbol, level);
    this.port.answered();
  }

  private readonly runUnsubscribe = (symbol: string): void => {
    this.port.unsubscribeNow(symbol);
    this.port.answered();
  };
}
