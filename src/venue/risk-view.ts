import { uuidFromName } from '../core/hash.ts';
import { formatMoney, type Money } from '../core/money.ts';
import { formatTimestamp } from '../core/time.ts';
import type { ApiRiskSnapshot, PositionRiskSnapshot, PositionView, SymbolRiskView } from '../wire/risk.ts';
import type { Account, AccountPosition } from './account.ts';
import type { Order } from './order.ts';

/** Money totals of an account at current marks: the one place both snapshots take them from. */
export interface RiskTotals {
  cash: Money;
  realized: Money;
  unrealized: Money;
  equity: Money;
  positionsIm: Money;
  openOrdersIm: Money;
  maintenance: Money;
}

export function riskTotals(account: Account): RiskTotals {
  let realized = 0n;
  let unrealized = 0n;
  for (const p of account.positionList) {
    realized += p.realized;
    unrealized += p.unrealized();
  }
  return {
    cash: account.cash,
    realized,
    unrealized,
    equity: account.cash + unrealized,
    positionsIm: account.positionsMargin('initial'),
    openOrdersIm: account.openOrdersIm,
    maintenance: account.positionsMargin('maintenance'),
  };
}

export function positionRiskSnapshot(account: Account, sec: number, nanos: number): PositionRiskSnapshot {
  const t = riskTotals(account);
  const totalIm = t.positionsIm + t.openOrdersIm;
  return {
    timestamp: formatTimestamp(sec, nanos),
    username: account.username,
    positions: account.positionList.map(positionView),
    cash_balance: formatMoney(t.cash),
    total_realized_pnl: formatMoney(t.realized),
    total_unrealized_pnl: formatMoney(t.unrealized),
    total_initial_margin: formatMoney(totalIm),
    total_maintenance_margin: formatMoney(t.maintenance),
    total_equity: formatMoney(t.equity),
    available_initial_margin: formatMoney(t.equity - totalIm),
    available_maintenance_margin: formatMoney(t.equity - t.maintenance),
  };
}

function positionView(p: AccountPosition): PositionView {
  const inst = p.market.instrument;
  const pos = p.position;
  const vwap = (notional: bigint, lots: number) => (lots === 0 ? '0' : inst.tick.formatRatioPrice(notional, BigInt(lots)));
  return {
    symbol: inst.symbol,
    net_quantity: String(pos.netLots),
    buy_quantity: String(pos.buyLots),
    buy_notional: formatMoney(pos.buyNotionalTicks * inst.tickLotMoney),
    realized_pnl: formatMoney(p.realized),
    sell_quantity: String(pos.sellLots),
    sell_notional: formatMoney(pos.sellNotionalTicks * inst.tickLotMoney),
    buy_vwap: vwap(pos.buyNotionalTicks, pos.buyLots),
    sell_vwap: vwap(pos.sellNotionalTicks, pos.sellLots),
    unrealized_pnl: formatMoney(p.unrealized()),
    initial_margin: formatMoney(p.margin(inst.initialMarginPct)),
    maintenance_margin: formatMoney(p.margin(inst.maintenanceMarginPct)),
    mark_price: inst.tick.toPrice(p.market.markTicks),
  };
}

/** `openOrders`: the account's open orders, oldest first. */
export function apiRiskSnapshot(account: Account, openOrders: readonly Order[], sec: number, nanos: number): ApiRiskSnapshot {
  const t = riskTotals(account);
  const perSymbol: Record<string, SymbolRiskView> = {};
  // Every market with a position, then every other market with open orders (oldest first).
  const markets = account.positionList.map((p) => p.market);
  for (const o of openOrders) if (o.market !== undefined && !markets.includes(o.market)) markets.push(o.market);
  for (const market of markets) {
    const inst = market.instrument;
    const p = account.findPosition(market);
    let openCount = 0;
    let openIm = 0n;
    for (const o of openOrders) {
      if (o.market !== market) continue;
      openCount++;
      openIm += o.reservedIm;
    }
    const net = p?.position.netLots ?? 0;
    perSymbol[inst.symbol] = {
      net_quantity: String(net),
      mark_price: inst.tick.toPrice(market.markTicks),
      average_entry_price: net === 0 ? '0' : inst.tick.formatRatioPrice(p!.position.openCostTicks, BigInt(Math.abs(net))),
      unrealized_pnl: formatMoney(p?.unrealized() ?? 0n),
      realized_pnl: formatMoney(p?.realized ?? 0n),
      initial_margin: formatMoney(p?.margin(inst.initialMarginPct) ?? 0n),
      maintenance_margin: formatMoney(p?.margin(inst.maintenanceMarginPct) ?? 0n),
      open_orders: openCount,
      initial_margin_required_for_open_orders: formatMoney(openIm),
    };
  }
  const totalIm = t.positionsIm + t.openOrdersIm;
  return {
    risk_snapshot: {
      balance_usd: formatMoney(t.cash),
      equity: formatMoney(t.equity),
      initial_margin_available: formatMoney(t.equity - totalIm),
      initial_margin_required_for_open_orders: formatMoney(t.openOrdersIm),
      initial_margin_required_for_positions: formatMoney(t.positionsIm),
      initial_margin_required_total: formatMoney(totalIm),
      maintenance_margin_available: formatMoney(t.equity - t.maintenance),
      maintenance_margin_required: formatMoney(t.maintenance),
      per_symbol: perSymbol,
      timestamp_ns: formatTimestamp(sec, nanos),
      unrealized_pnl: formatMoney(t.unrealized),
      user_id: uuidFromName(account.username),
    },
  };
}

