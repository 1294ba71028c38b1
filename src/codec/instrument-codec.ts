import type { InstrumentInfo } from '../strategy/exchange-port.ts';
import type { Market } from '../venue/market.ts';

/** An instrument in the interface document's form (GET /auth/instruments). */
export function toInstrumentInfo(market: Market): InstrumentInfo {
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
