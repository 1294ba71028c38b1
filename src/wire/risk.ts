/** One position of the user-based risk snapshot (GET /risk_manager/risk_snapshot); all strings. */
export interface PositionView {
  symbol: string;
  net_quantity: string;
  buy_quantity: string;
  buy_notional: string;
  realized_pnl: string;
  sell_quantity: string;
  sell_notional: string;
  buy_vwap: string;
  sell_vwap: string;
  unrealized_pnl: string;
  initial_margin: string;
  maintenance_margin: string;
  mark_price: string;
}

/** The user-based (position) risk snapshot of the interface document. */
export interface PositionRiskSnapshot {
  timestamp: string;
  username: string;
  positions: PositionView[];
  cash_balance: string;
  total_realized_pnl: string;
  total_unrealized_pnl: string;
  total_initial_margin: string;
  total_maintenance_margin: string;
  total_equity: string;
  available_initial_margin: string;
  available_maintenance_margin: string;
}

/** Per-symbol entry of the token-based snapshot (the document leaves its fields open). */
export interface SymbolRiskView {
  net_quantity: string;
  mark_price: string;
  average_entry_price: string;
  unrealized_pnl: string;
  realized_pnl: string;
  initial_margin: string;
  maintenance_margin: string;
  open_orders: number;
  initial_margin_required_for_open_orders: string;
}

/** The token-based snapshot (GET /api/risk-snapshot), wrapped under `risk_snapshot`. */
export interface ApiRiskSnapshot {
  risk_snapshot: {
    balance_usd: string;
    equity: string;
    initial_margin_available: string;
    initial_margin_required_for_open_orders: string;
    initial_margin_required_for_positions: string;
    initial_margin_required_total: string;
    maintenance_margin_available: string;
    maintenance_margin_required: string;
    per_symbol: Record<string, SymbolRiskView>;
    timestamp_ns: string;
    unrealized_pnl: string;
    user_id: string;
  };
}
