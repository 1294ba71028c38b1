import { Fnv1a64 } from '../core/hash.ts';
import { formatMoney } from '../core/money.ts';
import { joinNs } from '../core/time.ts';
import type { TimeNs } from '../core/types.ts';
import { CANDLE_INTERVALS, isCandleInterval } from '../market/candles.ts';
import type { CandleHistory, FundingRateRecord, MarkPriceRecord } from '../wire/records.ts';
import type { Market } from './market.ts';
import { F_SEQ } from './order-store.ts';
import type { VenueState } from './venue-state.ts';
import { candleRecord, fundingRateRecord, markPriceRecord } from './wire-forms.ts';

/**
 * What the venue answers about its state without changing it: the history queries (mark prices,
 * funding, candles), the state hash and the money totals (`Venue` delegates here).
 */

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

export function mtmPricesOf(s: VenueState, symbol: string, startNs: TimeNs, endNs: TimeNs): MarkPriceRecord[] {
  const market = queryMarket(s, symbol, startNs, endNs);
  return inRange(market.markHistory, startNs, endNs).map((r) => markPriceRecord(market, r));
}

export function fundingRatesOf(s: VenueState, symbol: string, startNs: TimeNs, endNs: TimeNs): FundingRateRecord[] {
  const market = queryMarket(s, symbol, startNs, endNs);
  return inRange(market.fundingHistory, startNs, endNs).map((r) => fundingRateRecord(market, r));
}

/** Candles of `market` at `interval` overlapping [start, end]; empty intervals are omitted. */
export function candlesOf(s: VenueState, marketSymbol: string, interval: string, startNs: TimeNs, endNs: TimeNs): CandleHistory {
  const market = queryMarket(s, marketSymbol, startNs, endNs, 'market');
  if (!isCandleInterval(interval)) {
    throw new VenueQueryError('interval', `interval must be one of ${Object.keys(CANDLE_INTERVALS).join(', ')}`);
  }
  const candles = market.candles.query(interval, Number(startNs / NS_PER_S), Number(endNs / NS_PER_S));
  return { market: marketSymbol, interval, candles: candles.map((c) => candleRecord(market, c)) };
}

/** `Venue.stateHash`. */
export function stateHashOf(s: VenueState): string {
  const h = new Fnv1a64();
  h.update(`now:${s.clock.nowNs}`);
  for (const m of s.markets) {
    h.update(`${m.symbol}|${m.state}|${m.indexTicks}|${m.markTicks}|${m.book.stateHash()}|${m.markHistory.length}|${m.fundingHistory.length}`);
    for (const f of m.fundingHistory) h.update(`${f.sec}|${f.fundingAmount}|${f.fundingRate}`);
  }
  for (const a of s.accounts) {
    h.update(`${a.username}|${a.cash}|${a.openOrdersIm}|${a.openSlots(s.orders).map((slot) => s.orders.field(slot, F_SEQ)).join(',')}`);
    for (const p of a.positionList) {
      const pos = p.position;
      h.update(`${p.market.symbol}|${pos.netLots}|${pos.buyLots}|${pos.sellLots}|${pos.openCostTicks}|${p.tradingPnl}|${p.fees}|${p.funding}`);
    }
  }
  h.update(`fees:${s.feesCollected}|liq:${s.liquidations}|ids:${s.orderIds.count}|${s.executionIds.count}`);
  return h.hex();
}

/** `Venue.moneyTotals`. */
export function moneyTotalsOf(s: VenueState): { cash: string; fees: string; unrealized: string } {
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
