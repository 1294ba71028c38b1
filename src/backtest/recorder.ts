import { parseMoney, type Money } from '../core/money.ts';
import { joinNs } from '../core/time.ts';
import type { Side, TimeNs } from '../core/types.ts';
import type { Account } from '../venue/account.ts';
import type { OrderFeed } from '../wire/order.ts';
import type { Market } from '../venue/market.ts';
import type { Venue } from '../venue/venue.ts';
import { tickLotsAtRate } from '../venue/money-rate.ts';
import { Position, tickLots } from '../risk/position.ts';
import { PortHub, type OrderSink } from '../sim/port-hub.ts';
import type { OrderEvent } from '../venue/order-events.ts';
import { touchOf, TouchTracker, type TouchTime } from './market-watch.ts';
import { MARKOUT_HORIZONS_S, MarkoutReader } from './markouts.ts';

/** One fill of the strategy, as the venue booked it. */
export interface FillRecord {
  tNs: TimeNs;
  symbol: string;
  orderId: string;
  tradeId: string;
  side: Side;
  /** Decimal text, the maker's price. */
  price: string;
  priceTicks: number;
  /** The touch right after the fill (decimal text, null for an empty side). */
  bid: string | null;
  ask: string | null;
  /** Mid × 2 in ticks `MARKOUT_HORIZONS_S` after the fill; null past the end of the run or on a one-sided book. */
  midAfterX2: (number | null)[];
  qty: number;
  /** price × qty × multiplier. */
  notional: Money;
  /** Fee charged on this fill (maker or taker rate). */
  fee: Money;
  /** Trading PnL this fill realized (FIFO), before fees. */
  realized: Money;
  /** True when the strategy's order provided liquidity. */
  maker: boolean;
  liquidation: boolean;
  /** Net position in `symbol` after the fill, lots. */
  positionAfter: number;
}

/** One funding settlement that touched the strategy's position. */
export interface FundingRecordOfRun {
  tNs: TimeNs;
  symbol: string;
  rate: string;
  /** Position during the settlement, lots. */
  positionLots: number;
  /** Received (> 0) or paid (< 0). */
  amount: Money;
}

/** The account at one instant of the fixed sampling grid. */
export interface EquitySample {
  tNs: TimeNs;
  /** cash + unrealized at the marks. */
  equity: Money;
  cash: Money;
  unrealized: Money;
  /** Net position per symbol (in `symbols` order), lots. */
  positions: number[];
  /** Mark price per symbol, decimal text. */
  marks: string[];
  /** Best bid and ask per symbol, decimal text (null for an empty side). */
  bids: (string | null)[];
  asks: (string | null)[];
  /** Σ |position| × mark × multiplier over symbols. */
  grossNotional: Money;
}

/** Order entry counts. */
export interface OrderCounts {
  /** Accepted (`n`) + rejected (`j`). */
  submitted: number;
  accepted: number;
  rejected: number;
  /** Σ quantity of accepted orders, lots. */
  acceptedLots: number;
  canceled: number;
  /** Rejects counted by reason (`r`, with the text for UNKNOWN). */
  rejectReasons: Record<string, number>;
}

/**
 * Watches the venue for one account: its fills (with exact fee and realized PnL, by the venue's
 * rules from each fill feed), order counts, funding payments, liquidations and an
 * equity sample every `intervalNs` of sim time. Reads only; never calls into the venue.
 */
export class BacktestRecorder {
  readonly fills: FillRecord[] = [];
  readonly funding: FundingRecordOfRun[] = [];
  readonly samples: EquitySample[] = [];
  readonly orders: OrderCounts = { submitted: 0, accepted: 0, rejected: 0, acceptedLots: 0, canceled: 0, rejectReasons: {} };
  /** One touch tracker per market, in the venue's market order. */
  private readonly touch: TouchTracker[];
  /** One markout reader per market, in the venue's market order. */
  private readonly markouts: MarkoutReader[];
  /** Instants (ns) at which the venue started liquidating the account. */
  private readonly liquidationInstants = new Set<bigint>();
  /** The account's positions as its fills built them (the strategy's account starts flat). */
  private readonly positions = new Map<Market, Position>();
  private readonly lastFunding = new Map<Market, Money>();
  private readonly detach: () => void;
  /** Routes the account's own order events here (and no one else's). */
  private readonly hub: PortHub;
  private readonly own: OrderSink;

  /** `endNs`: the end of the run (markouts are measured only up to it). */
  constructor(
    private readonly venue: Venue,
    private readonly account: Account,
    endNs: bigint,
  ) {
    this.touch = venue.markets.map((m) => new TouchTracker(m, venue.clock.nowNs));
    this.markouts = venue.markets.map((m) => new MarkoutReader(venue.clock, m, endNs));
    // The account's own order events come through the hub, which routes each event to its
    // user's sinks only (after the account's port, which registers when it is made: the runner
    // makes the port before the recorder, so the port sends its feed first, as when this was a
    // venue listener of its own subscribed after the hub): the recorder is not told every
    // order event of the run to keep a few (4.7 k of 36.5 k per 900 sim-s of the example market maker).
    this.hub = PortHub.of(venue);
    this.own = { onOrderEvent: (e) => this.onOrderEvent(e) };
    this.hub.addUser(account.id, this.own);
    this.detach = venue.subscribe({
      fundingSettled: (market) => this.onFunding(market),
      bookChanged: (market) => this.onBookChanged(market),
    });
  }

  /** One of the account's own order events: events, not feeds (the feed is built for these only, once per event). */
  private onOrderEvent(e: OrderEvent): void {
    // An order off the tick grid (only ever rejected) has no plain market: it never rests.
    const market = e.plainMarket();
    if (market !== undefined) this.touch[market.index]?.onOrder(e, this.venue.clock);
    this.onFeed(e.feed());
  }

  /**
   * A book changed: the touch tracker and the markouts each want the touch, and only while the
   * account rests an order there or reads are pending; it is read once for both.
   */
  private onBookChanged(market: Market): void {
    const touch = this.touch[market.index];
    const markouts = this.markouts[market.index];
    if (touch === undefined || markouts === undefined) return;
    const wantsBid = touch.wantsBid || markouts.hasPending;
    const wantsAsk = touch.wantsAsk || markouts.hasPending;
    if (!wantsBid && !wantsAsk) return;
    const book = market.book;
    const bid = wantsBid ? book.bestBidTicks() : undefined;
    const ask = wantsAsk ? book.bestAskTicks() : undefined;
    touch.checkTouch(bid, ask, this.venue.clock);
    markouts.bookChanged(bid, ask);
  }

  /** Time at the touch per symbol, closed at the current sim time. */
  touchTimes(): TouchTime[] {
    for (const t of this.touch) t.close(this.venue.clock.nowNs);
    return this.touch.map((t) => ({ ...t.time }));
  }

  get symbols(): string[] {
    return this.venue.markets.map((m) => m.symbol);
  }

  get liquidations(): number {
    return this.liquidationInstants.size;
  }

  /** Samples the account now. */
  sample(): void {
    const markets = this.venue.markets;
    let unrealized = 0n;
    let gross = 0n;
    const positions: number[] = [];
    const marks: string[] = [];
    const bids: (string | null)[] = [];
    const asks: (string | null)[] = [];
    for (const m of markets) {
      const touch = touchOf(m);
      bids.push(touch.bidTicks === null ? null : m.instrument.tick.toPrice(touch.bidTicks));
      asks.push(touch.askTicks === null ? null : m.instrument.tick.toPrice(touch.askTicks));
      const p = this.account.findPosition(m);
      const net = p?.position.netLots ?? 0;
      positions.push(net);
      marks.push(m.instrument.tick.toPrice(m.markTicks));
      if (p !== undefined) unrealized += p.unrealized();
      gross += BigInt(Math.abs(net)) * BigInt(m.markTicks) * m.instrument.tickLotMoney;
    }
    const cash = this.account.cash;
    this.samples.push({ tNs: this.venue.clock.nowNs, equity: cash + unrealized, cash, unrealized, positions, marks, bids, asks, grossNotional: gross });
  }

  /** The run reached its end (every event up to it ran): the markouts still pending read the last touch. */
  finishMarkouts(): void {
    for (const m of this.markouts) m.finish();
  }

  stop(): void {
    this.detach();
    this.hub.removeUserSink(this.own);
  }

  private onFeed(feed: OrderFeed): void {
    const o = feed.o;
    switch (feed.t) {
      case 'n':
        this.orders.submitted++;
        this.orders.accepted++;
        this.orders.acceptedLots += o?.q ?? 0;
        if (o?.liq === true) this.liquidationInstants.add(joinNs(feed.ts, feed.tn));
        break;
      case 'j':
        this.orders.submitted++;
        this.orders.rejected++;
        this.countReject(feed);
        break;
      case 'c':
        this.orders.canceled++;
        break;
      case 'p':
      case 'f':
        this.onFill(feed);
        break;
    }
  }

  /**
   * Fee, realized PnL and position of one fill, worked out from the feed with the venue's own
   * rules (fee rate of the side, FIFO lots) rather than read from the account: the venue tells
   * listeners after a whole command, so the account already shows every fill of it.
   */
  private onFill(feed: OrderFeed): void {
    const xs = feed.xs!;
    const market = this.venue.market(xs.s)!;
    const inst = market.instrument;
    const priceTicks = inst.tick.toTicks(xs.p) ?? 0;
    let mirror = this.positions.get(market);
    if (mirror === undefined) this.positions.set(market, (mirror = new Position()));
    const realized = mirror.applyFill(xs.d, priceTicks, xs.q) * inst.tickLotMoney;
    const fee = tickLotsAtRate(tickLots(priceTicks, xs.q), inst.tickLotMoney, xs.agg ? inst.takerFee : inst.makerFee);
    const touch = touchOf(market);
    const tick = market.instrument.tick;
    const midAfterX2: (number | null)[] = MARKOUT_HORIZONS_S.map(() => null);
    this.markouts[market.index]!.afterFill(midAfterX2);
    this.fills.push({
      tNs: joinNs(feed.ts, feed.tn),
      symbol: xs.s,
      orderId: feed.o!.oid,
      tradeId: xs.tid,
      side: xs.d,
      price: xs.p,
      priceTicks: tick.toTicks(xs.p) ?? 0,
      bid: touch.bidTicks === null ? null : tick.toPrice(touch.bidTicks),
      ask: touch.askTicks === null ? null : tick.toPrice(touch.askTicks),
      midAfterX2,
      qty: xs.q,
      notional: parseMoney(xs.p) * BigInt(xs.q) * BigInt(market.instrument.multiplier),
      fee,
      realized,
      maker: !xs.agg,
      liquidation: feed.o!.liq,
      positionAfter: mirror.netLots,
    });
  }

  private countReject(feed: OrderFeed): void {
    const reason = rejectReasonOf(feed);
    this.orders.rejectReasons[reason] = (this.orders.rejectReasons[reason] ?? 0) + 1;
  }

  private onFunding(market: Market): void {
    const p = this.account.findPosition(market);
    if (p === undefined) return;
    const amount = p.funding - (this.lastFunding.get(market) ?? 0n);
    this.lastFunding.set(market, p.funding);
    if (amount === 0n && p.position.netLots === 0) return;
    const record = market.fundingHistory[market.fundingHistory.length - 1]!;
    this.funding.push({ tNs: this.venue.clock.nowNs, symbol: market.symbol, rate: record.fundingRate, positionLots: p.position.netLots, amount });
  }
}

/** The key a rejected order (`j` feed) is counted under in `rejects_by_reason`: its `r`, with the text for `UNKNOWN`. */
export function rejectReasonOf(feed: OrderFeed): string {
  return feed.r === undefined || feed.r === 'UNKNOWN' ? (feed.txt === undefined ? (feed.r ?? 'UNKNOWN') : `UNKNOWN (${feed.txt})`) : feed.r;
}
