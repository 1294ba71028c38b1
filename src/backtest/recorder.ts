import { parseMoney, type Money } from '../core/money.ts';
import { joinNs } from '../core/time.ts';
import type { Side, TimeNs } from '../core/types.ts';
import type { Account } from '../venue/account.ts';
import type { OrderFeed } from '../wire/order.ts';
import type { Market } from '../venue/market.ts';
import type { Venue } from '../venue/venue.ts';

/** One fill of the strategy, as the venue booked it. */
export interface FillRecord {
  tNs: TimeNs;
  symbol: string;
  orderId: string;
  tradeId: string;
  side: Side;
  /** Decimal text, the maker's price. */
  price: string;
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
}

/**
 * Watches the venue for one account: its fills (with exact fee and realized PnL, read from the
 * account as the venue books each fill), order counts, funding payments, liquidations and an
 * equity sample every `intervalNs` of sim time. Reads only; never calls into the venue.
 */
export class BacktestRecorder {
  readonly fills: FillRecord[] = [];
  readonly funding: FundingRecordOfRun[] = [];
  readonly samples: EquitySample[] = [];
  readonly orders: OrderCounts = { submitted: 0, accepted: 0, rejected: 0, acceptedLots: 0, canceled: 0 };
  /** Instants (ns) at which the venue started liquidating the account. */
  private readonly liquidationInstants = new Set<bigint>();
  private readonly lastFees = new Map<Market, Money>();
  private readonly lastTrading = new Map<Market, Money>();
  private readonly lastFunding = new Map<Market, Money>();
  private readonly detach: () => void;

  constructor(
    private readonly venue: Venue,
    private readonly account: Account,
  ) {
    this.detach = venue.subscribe({
      orderFeed: (userId, feed) => {
        if (userId === account.id) this.onFeed(feed);
      },
      fundingSettled: (market) => this.onFunding(market),
    });
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
    for (const m of markets) {
      const p = this.account.findPosition(m);
      const net = p?.position.netLots ?? 0;
      positions.push(net);
      marks.push(m.instrument.tick.toPrice(m.markTicks));
      if (p !== undefined) unrealized += p.unrealized();
      gross += BigInt(Math.abs(net)) * BigInt(m.markTicks) * m.instrument.tickLotMoney;
    }
    const cash = this.account.cash;
    this.samples.push({ tNs: this.venue.clock.nowNs, equity: cash + unrealized, cash, unrealized, positions, marks, grossNotional: gross });
  }

  stop(): void {
    this.detach();
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

  private onFill(feed: OrderFeed): void {
    const xs = feed.xs!;
    const market = this.venue.market(xs.s)!;
    const p = this.account.positionIn(market);
    const fee = p.fees - (this.lastFees.get(market) ?? 0n);
    const realized = p.tradingPnl - (this.lastTrading.get(market) ?? 0n);
    this.lastFees.set(market, p.fees);
    this.lastTrading.set(market, p.tradingPnl);
    this.fills.push({
      tNs: joinNs(feed.ts, feed.tn),
      symbol: xs.s,
      orderId: feed.o!.oid,
      tradeId: xs.tid,
      side: xs.d,
      price: xs.p,
      qty: xs.q,
      notional: parseMoney(xs.p) * BigInt(xs.q) * BigInt(market.instrument.multiplier),
      fee,
      realized,
      maker: !xs.agg,
      liquidation: feed.o!.liq,
      positionAfter: p.position.netLots,
    });
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
