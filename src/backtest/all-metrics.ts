import { formatMoney } from '../core/money.ts';
import { makerMarkoutsBps, touchShares } from './maker-stats.ts';
import { annualizedReturn, calmar, fillRatio, makerShare, maxDrawdown, periodReturns, periodsPerYear, pnlParts, positionStats, returnOnEquity, sharpe, sortino, timeInMarket, turnover, volume } from './metrics.ts';
import type { BacktestResult } from './runner.ts';
import { roundTrips, sideExposure, tradeStats } from './trade-stats.ts';

/** Every metric of a backtest, as report.json carries it. */
export interface BacktestMetrics {
  starting_equity: string;
  ending_equity: string;
  net_pnl: string;
  realized_trading_pnl: string;
  fees: string;
  funding_received: string;
  funding_paid: string;
  unrealized_pnl: string;
  return_on_equity: number | null;
  annualized_return: number | null;
  sharpe_annualized: number | null;
  sortino_annualized: number | null;
  max_drawdown: string;
  max_drawdown_pct: number;
  max_drawdown_duration_s: number;
  calmar: number | null;
  orders: number;
  orders_accepted: number;
  orders_rejected: number;
  orders_canceled: number;
  fills: number;
  fill_ratio: number | null;
  volume_lots: number;
  volume_notional: string;
  maker_share: number | null;
  turnover: number | null;
  avg_position_notional: string;
  max_position_notional: string;
  max_position_lots: Record<string, number>;
  time_in_market: number;
  liquidations: number;
  rejects_by_reason: Record<string, number>;
  round_trips: number;
  win_rate: number | null;
  profit_factor: number | null;
  avg_win: string | null;
  avg_loss: string | null;
  avg_holding_s: number | null;
  time_long: number;
  time_short: number;
  markout_1s_bps: number | null;
  markout_10s_bps: number | null;
  markout_60s_bps: number | null;
  touch_share_bid: Record<string, number>;
  touch_share_ask: Record<string, number>;
}

/** All metrics of a run. */
export function computeMetrics(r: BacktestResult): BacktestMetrics {
  const pnl = pnlParts(r.final, r.funding);
  const roe = returnOnEquity(pnl.net, r.startingCash);
  const returns = periodReturns(r.samples, r.sampleIntervalNs);
  const perYear = periodsPerYear(r.sampleIntervalNs);
  const dd = maxDrawdown(r.samples);
  const annual = roe === null ? null : annualizedReturn(roe, r.endNs - r.startNs);
  const v = volume(r.fills);
  const pos = positionStats(r.samples, r.fills, r.symbols);
  const trades = tradeStats(roundTrips(r.fills));
  const exposure = sideExposure(r.fills, r.startNs, r.endNs);
  const [m1 = null, m10 = null, m60 = null] = makerMarkoutsBps(r.fills);
  const touch = touchShares(r.touchTimes, r.symbols, r.endNs - r.startNs);
  return {
    starting_equity: formatMoney(r.startingCash),
    ending_equity: formatMoney(r.startingCash + pnl.net),
    net_pnl: formatMoney(pnl.net),
    realized_trading_pnl: formatMoney(pnl.realizedTrading),
    fees: formatMoney(pnl.fees),
    funding_received: formatMoney(pnl.fundingReceived),
    funding_paid: formatMoney(pnl.fundingPaid),
    unrealized_pnl: formatMoney(pnl.unrealized),
    return_on_equity: roe,
    annualized_return: annual,
    sharpe_annualized: sharpe(returns, perYear),
    sortino_annualized: sortino(returns, perYear),
    max_drawdown: formatMoney(dd.value),
    max_drawdown_pct: dd.fraction * 100,
    max_drawdown_duration_s: Number(dd.durationNs / 1_000_000n) / 1000,
    calmar: annual === null ? null : calmar(annual, dd.fraction),
    orders: r.orders.submitted,
    orders_accepted: r.orders.accepted,
    orders_rejected: r.orders.rejected,
    orders_canceled: r.orders.canceled,
    fills: r.fills.length,
    fill_ratio: fillRatio(v.lots, r.orders.acceptedLots),
    volume_lots: v.lots,
    volume_notional: formatMoney(v.notional),
    maker_share: makerShare(v),
    turnover: turnover(v, r.startingCash),
    avg_position_notional: formatMoney(pos.avgNotional),
    max_position_notional: formatMoney(pos.maxNotional),
    max_position_lots: pos.maxLots,
    time_in_market: timeInMarket(r.fills, r.startNs, r.endNs),
    liquidations: r.liquidations,
    rejects_by_reason: sortedCounts(r.orders.rejectReasons),
    round_trips: trades.trips,
    win_rate: trades.winRate,
    profit_factor: trades.profitFactor,
    avg_win: trades.avgWin === null ? null : formatMoney(trades.avgWin),
    avg_loss: trades.avgLoss === null ? null : formatMoney(trades.avgLoss),
    avg_holding_s: trades.avgHoldingNs === null ? null : Number(trades.avgHoldingNs / 1_000_000n) / 1000,
    time_long: exposure.long,
    time_short: exposure.short,
    markout_1s_bps: m1,
    markout_10s_bps: m10,
    markout_60s_bps: m60,
    touch_share_bid: touch.bid,
    touch_share_ask: touch.ask,
  };
}

/** Counts by key, most frequent first (ties by key), so report.json is stable. */
function sortedCounts(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
}
