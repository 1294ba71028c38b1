import type { Market } from '../../venue/market.ts';

/** The Instrument resource: exactly the interface document's fields. */
export interface InstrumentView {
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

/** An instrument as the REST endpoints show it, with its current state. */
export function instrumentView(market: Market): InstrumentView {
  const inst = market.instrument;
  return {
    symbol: inst.symbol,
    tick_size: inst.tick.text,
    base_currency: inst.baseCurrency,
    multiplier: inst.multiplier,
    minimum_trade_quantity: inst.minimumTradeQuantity,
    description: inst.description,
    product_id: inst.productId,
    state: market.state,
    price_scale: inst.tick.priceScale,
  };
}
