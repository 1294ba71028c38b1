import type { SimClock } from '../clock/sim-clock.ts';
import { Fnv1a64 } from '../core/hash.ts';
import { formatMoney, type Money } from '../core/money.ts';
import { joinNs } from '../core/time.ts';
import type { TimeNs } from '../core/types.ts';
import { CANDLE_INTERVALS, isCandleInterval } from '../market/candles.ts';
import type { ApiRiskSnapshot, PositionRiskSnapshot } from '../wire/risk.ts';
import type { CandleHistory, FundingRateRecord, MarkPriceRecord } from '../wire/records.ts';
import type { Account } from './account.ts';
import type { Market } from './market.ts';
import type { Order } from './order.ts';
import type { OrderFlow } from './order-flow.ts';
import { F_SEQ, F_USER, NO_SLOT } from './order-store.ts';
import { apiRiskSnapshot, positionRiskSnapshot } from './risk-view.ts';
import type { VenueState } from './venue-state.ts';
import { candleRecord, fundingRateRecord, markPriceRecord } from './wire-forms.ts';
import { openSlotsByUser, openSlotsOf } from './order-scans.ts';

/**
 * What the venue answers about its state without changing it: markets and accounts, open
 * orders, the history queries (mark prices, funding, candles), risk snapshots, the state hash
 * and the money totals. `Venue` extends `VenueReads` with the commands (venue.ts), so its hot
 * entry points stay direct methods and the reads live apart.
 */
export abstract class VenueReads {
  protected constructor(
    readonly clock: SimClock,
    protected readonly s: VenueState,
    protected readonly flow: OrderFlow,
  ) {}

  /** Markets in listing order. */
  get markets(): readonly Market[] {
    return this.s.markets;
  }

  market(symbol: string): Market | undefined {
    return this.s.marketBySymbol.get(symbol);
  }

  get accounts(): readonly Account[] {
    return this.s.accounts;
  }

  account(username: string): Account | undefined {
    return this.s.account(username);
  }

  /** Σ fees charged by the venue (for conservation checks). */
  get feesCollected(): Money {
    return this.s.feesCollected;
  }

  get liquidationCount(): number {
    return this.s.liquidations;
  }

  /** The wire id of the order with engine id `seq` inserted at (sec, nanos): an order's `oid`, made from its numbers. */
  formatOrderId(seq: number, sec: number, nanos: number): string {
    return this.s.formatOrderId(seq, sec, nanos);
  }

  /** True when engine id `seq` is an open order of `account` (what a cancel by engine id finds). */
  holdsOpenOrder(account: Account, seq: number): boolean {
    const slot = this.s.orders.slotOf(seq);
    return slot !== NO_SLOT && this.s.orders.field(slot, F_USER) === account.id;
  }

  /** Wire id of an open order by engine id, or undefined. */
  orderIdOf(seq: number): string | undefined {
    const slot = this.s.orders.slotOf(seq);
    return slot === NO_SLOT ? undefined : this.s.orderId(slot);
  }

  /** Open orders of the account, oldest first. */
  openOrders(account: Account): Order[] {
    return openSlotsOf(this.s.orders, account.id).map((slot) => this.s.view(slot));
  }

  /** An open order by wire id, if it belongs to `account`. */
  findOpenOrder(account: Account, orderId: string): Order | undefined {
    const order = this.openOrder(orderId);
    return order?.userId === account.id ? order : undefined;
  }

  /** Any user's open order by wire id (replay queue models track orders of every account). */
  openOrder(orderId: string): Order | undefined {
    const slot = this.flow.findOpen(orderId);
    return slot === NO_SLOT ? undefined : this.s.view(slot);
  }

  mtmPrices(symbol: string, startNs: TimeNs, endNs: TimeNs): MarkPriceRecord[] {
    return mtmPricesOf(this.s, symbol, startNs, endNs);
  }

  fundingRates(symbol: string, startNs: TimeNs, endNs: TimeNs): FundingRateRecord[] {
    return fundingRatesOf(this.s, symbol, startNs, endNs);
  }

  /** Candles of `market` at `interval` overlapping [start, end]; empty intervals are omitted. */
  candles(marketSymbol: string, interval: string, startNs: TimeNs, endNs: TimeNs): CandleHistory {
    return candlesOf(this.s, marketSymbol, interval, startNs, endNs);
  }

  /** The user-based risk snapshot (positions, margins, equity) at the current marks. */
  riskSnapshot(account: Account): PositionRiskSnapshot {
    return positionRiskSnapshot(account, this.clock.nowSec, this.clock.nowNanos);
  }

  /** The token-based risk snapshot (`risk_snapshot` with `per_symbol`). */
  apiRiskSnapshot(account: Account): ApiRiskSnapshot {
    return apiRiskSnapshot(account, this.openOrders(account), this.clock.nowSec, this.clock.nowNanos);
  }

  /**
   * Hash of the whole venue state: clock, markets (state, index, mark, book, histories),
   * accounts (cash, positions, open orders), fee and liquidation totals. Two runs with the
   * same scenario and seed give the same hash.
   */
  stateHash(): string {
    return stateHashOf(this.s);
  }

  /** Total of everything money-like, for conservation checks and summaries. */
  moneyTotals(): { cash: string; fees: string; unrealized: string } {
    return moneyTotalsOf(this.s);
  }
}

/** A business error of a query (unknown symbol, bad range): the wire turns it into 422/404. */
export class VenueQueryError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

const NS_PER_S = 1_000_000_000n;

function mtmPricesOf(s: VenueState, symbol: string, startNs: TimeNs, endNs: TimeNs): MarkPriceRecord[] {
  const market = queryMarket(s, symbol, startNs, endNs);
  return inRange(market.markHistory, startNs, endNs).map((r) => markPriceRecord(market, r));
}

function fundingRatesOf(s: VenueState, symbol: string, startNs: TimeNs, endNs: TimeNs): FundingRateRecord[] {
  const market = queryMarket(s, symbol, startNs, endNs);
  return inRange(market.fundingHistory, startNs, endNs).map((r) => fundingRateRecord(market, r));
}

/** Candles of `market` at `interval` overlapping [start, end]; empty intervals are omitted. */
function candlesOf(s: VenueState, marketSymbol: string, interval: string, startNs: TimeNs, endNs: TimeNs): CandleHistory {
  const market = queryMarket(s, marketSymbol, startNs, endNs, 'market');
  if (!isCandleInterval(interval)) {
    throw new VenueQueryError('interval', `interval must be one of ${Object.keys(CANDLE_INTERVALS).join(', ')}`);
  }
  const candles = market.candles.query(interval, Number(startNs / NS_PER_S), Number(endNs / NS_PER_S));
  return { market: marketSymbol, interval, candles: candles.map((c) => candleRecord(market, c)) };
}

/** `VenueReads.stateHash`. */
function stateHashOf(s: VenueState): string {
  const h = new Fnv1a64();
  h.update(`now:${s.clock.nowNs}`);
  for (const m of s.markets) {
    h.update(`${m.symbol}|${m.state}|${m.indexTicks}|${m.markTicks}|${m.book.stateHash()}|${m.markHistory.length}|${m.fundingHistory.length}`);
    for (const f of m.fundingHistory) h.update(`${f.sec}|${f.fundingAmount}|${f.fundingRate}`);
  }
  // Every account's open orders from one scan of the records, oldest first (as `openSlots`).
  const open = openSlotsByUser(s.orders, s.accounts.length);
  for (const a of s.accounts) {
    h.update(`${a.username}|${a.cash}|${a.openOrdersIm}|${open[a.id]!.map((slot) => s.orders.field(slot, F_SEQ)).join(',')}`);
    for (const p of a.positionList) {
      const pos = p.position;
      h.update(`${p.market.symbol}|${pos.netLots}|${pos.buyLots}|${pos.sellLots}|${pos.openCostTicks}|${p.tradingPnl}|${p.fees}|${p.funding}`);
    }
  }
  h.update(`fees:${s.feesCollected}|liq:${s.liquidations}|ids:${s.orderIds.count}|${s.executionIds.count}`);
  return h.hex();
}

/** `VenueReads.moneyTotals`. */
function moneyTotalsOf(s: VenueState): { cash: string; fees: string; unrealized: string } {
  let cash = 0n;
  let unrealized = 0n;
  for (const a of s.accounts) {
    cash += a.cash;
    for (const p of a.positionList) unrealized += p.unrealized();
  }
  return { cash: formatMoney(cash), fees: formatMoney(s.feesCollected), unrealized: formatMoney(unrealized) };
}

function queryMarket(s: VenueState, symbol: string, startNs: TimeNs, endNs: TimeNs, field = 'symbol'): Market {
  const market = s.marketBySymbol.get(symbol);
  if (market === undefined) throw new VenueQueryError(field, `unknown ${field} ${symbol}`);
  if (endNs < startNs) throw new VenueQueryError('end_time', 'end_time must not be before start_time');
  return market;
}

/** Records whose time lies in [startNs, endNs] (records are in time order). */
function inRange<T extends { sec: number; nanos: number }>(records: T[], startNs: TimeNs, endNs: TimeNs): T[] {
  return records.filter((r) => {
    const t = joinNs(r.sec, r.nanos);
    return t >= startNs && t <= endNs;
  });
}
