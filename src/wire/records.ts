/** An instrument as GET /auth/instruments returns it. */
export interface InstrumentInfo {
  symbol: string;
  tick_size: string;
  base_currency: string;
  multiplier: number;
  minimum_trade_quantity: number;
  description: string;
  product_id: string;
  state: string;
  price_scale: number;
}

/** One mark-to-market price (POST /settlement/get_mtm_prices); `timestamp` is RFC 3339 with ns. */
export interface MarkPriceRecord {
  timestamp: string;
  symbol: string;
  mtm_price: string;
}

/** One funding settlement (POST /settlement/get_funding_rates); prices and amounts are decimal text. */
export interface FundingRateRecord {
  timestamp: string;
  symbol: string;
  benchmark_price: string;
  settlement_price: string;
  funding_amount: string;
  funding_rate: string;
}

/** One candle (POST /candle/historical_candles); volumes are lots as decimal text. */
export interface CandleRecord {
  timestamp: string;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
  buy_volume: string;
  sell_volume: string;
}

/** The answer of POST /candle/historical_candles. */
export interface CandleHistory {
  market: string;
  interval: string;
  candles: CandleRecord[];
}
