import { z } from 'zod';
import { INSTRUMENT_STATES, ORDER_STATES } from '../../core/types.ts';

/**
 * The response bodies of the REST wire as zod schemas, for /openapi.json (request bodies come
 * from the routes' own field rules, see validation.ts). Registered under the names the
 * document's `components.schemas` uses. `test/api/openapi/` checks that live answers match the
 * served document, and that these types equal the TypeScript types the handlers return.
 */

/** Where every named schema of the document is registered (id → `#/components/schemas/<id>`). */
export const schemaRegistry = z.registry<{ id: string; description?: string }>();

function named<T extends z.ZodType>(id: string, schema: T, description?: string): T {
  schemaRegistry.add(schema, description === undefined ? { id } : { id, description });
  return schema;
}

/** Decimal text in minimal form (`"49990"`, `"-0.5"`, `"0"`). */
export const decimalText = z.string().regex(/^-?\d+(\.\d+)?$/).meta({ description: 'decimal text, minimal form' });
/** RFC 3339 UTC with nanoseconds, e.g. `2026-01-01T00:00:00.000000000Z`. */
export const timestampText = z.iso.datetime();
const side = z.enum(['B', 'S']);

export const TokenResponse = named('TokenResponse', z.object({ token: z.string() }));

export const Instrument = named(
  'Instrument',
  z.object({
    symbol: z.string(),
    tick_size: decimalText,
    base_currency: z.string(),
    multiplier: z.int(),
    minimum_trade_quantity: z.int(),
    description: z.string(),
    product_id: z.string(),
    state: z.enum(INSTRUMENT_STATES),
    price_scale: z.int(),
  }),
);
export const InstrumentsResponse = named('InstrumentsResponse', z.object({ instruments: z.array(Instrument) }));

export const OrderIdResponse = named('OrderIdResponse', z.object({ order_id: z.string() }));
export const CancelOrderResponse = named('CancelOrderResponse', z.object({}), 'empty: the outcome is a Cancel Order (c) or Cancel Reject (e) feed');
export const Order = named(
  'Order',
  z.object({
    order_id: z.string(),
    username: z.string(),
    symbol: z.string(),
    price: decimalText,
    quantity: z.int(),
    traded_quantity: z.int(),
    average_traded_price: decimalText,
    remaining_quantity: z.int(),
    state: z.enum(ORDER_STATES),
    side,
    time_in_force: z.enum(['GTC', 'IOC', 'UNDEFINED']),
    is_liquidation: z.boolean(),
    insert_time: timestampText,
    insert_epoch_seconds: z.int(),
    insert_epoch_nanos: z.int(),
  }),
  'an order in REST form',
);
export const OpenOrdersResponse = named('OpenOrdersResponse', z.object({ orders: z.array(Order) }));
export const CancelAllResponse = named('CancelAllResponse', z.object({ successful_cancellations: z.array(z.string()), failed_cancellations: z.array(z.string()) }));

export const MarkPrice = named('MarkPrice', z.object({ timestamp: timestampText, symbol: z.string(), mtm_price: decimalText }));
export const MarkPrices = named('MarkPrices', z.array(MarkPrice));
export const FundingRate = named(
  'FundingRate',
  z.object({ timestamp: timestampText, symbol: z.string(), benchmark_price: decimalText, settlement_price: decimalText, funding_amount: decimalText, funding_rate: decimalText }),
);
export const FundingRates = named('FundingRates', z.array(FundingRate));
export const Candle = named(
  'Candle',
  z.object({ timestamp: timestampText, open: decimalText, high: decimalText, low: decimalText, close: decimalText, volume: decimalText, buy_volume: decimalText, sell_volume: decimalText }),
);
export const CandleResponse = named('CandleResponse', z.object({ market: z.string(), interval: z.string(), candles: z.array(Candle) }));

/** A shape of decimal-text fields. */
function decimals<const K extends string>(names: readonly K[]): Record<K, typeof decimalText> {
  return Object.fromEntries(names.map((name) => [name, decimalText])) as Record<K, typeof decimalText>;
}

export const Position = named(
  'Position',
  z.object({
    symbol: z.string(),
    ...decimals(['net_quantity', 'buy_quantity', 'buy_notional', 'realized_pnl', 'sell_quantity', 'sell_notional', 'buy_vwap', 'sell_vwap', 'unrealized_pnl', 'initial_margin', 'maintenance_margin', 'mark_price']),
  }),
);
export const PositionRiskSnapshot = named(
  'PositionRiskSnapshot',
  z.object({
    timestamp: timestampText,
    username: z.string(),
    positions: z.array(Position),
    ...decimals(['cash_balance', 'total_realized_pnl', 'total_unrealized_pnl', 'total_initial_margin', 'total_maintenance_margin', 'total_equity', 'available_initial_margin', 'available_maintenance_margin']),
  }),
  'the user-based risk snapshot (the document allows null; perpsim always answers one)',
);

export const SymbolRisk = named(
  'SymbolRisk',
  z.object({
    net_quantity: decimalText,
    mark_price: decimalText,
    average_entry_price: decimalText,
    unrealized_pnl: decimalText,
    realized_pnl: decimalText,
    initial_margin: decimalText,
    maintenance_margin: decimalText,
    open_orders: z.int(),
    initial_margin_required_for_open_orders: decimalText,
  }),
);
export const ApiRiskSnapshot = named(
  'ApiRiskSnapshot',
  z.object({
    risk_snapshot: z.object({
      balance_usd: decimalText,
      equity: decimalText,
      initial_margin_available: decimalText,
      initial_margin_required_for_open_orders: decimalText,
      initial_margin_required_for_positions: decimalText,
      initial_margin_required_total: decimalText,
      maintenance_margin_available: decimalText,
      maintenance_margin_required: decimalText,
      per_symbol: z.record(z.string(), SymbolRisk),
      timestamp_ns: timestampText,
      unrealized_pnl: decimalText,
      user_id: z.uuid(),
    }),
  }),
);
export const ApiKeyResponse = named('ApiKeyResponse', z.object({ api_key: z.string(), secret: z.string() }), 'the secret is shown once');

export const ClockStatus = named('ClockStatus', z.object({ now_ns: z.string().regex(/^\d+$/), speed: z.union([z.number(), z.literal('max')]), paused: z.boolean() }));
export const UserCreated = named('UserCreated', z.object({ username: z.string() }));
export const AdminCanceled = named('AdminCanceled', z.object({ canceled: z.literal(true) }));
export const StateHash = named('StateHash', z.object({ state_hash: z.string() }));

export const ValidationIssue = named(
  'ValidationError',
  z.object({ type: z.string(), loc: z.array(z.union([z.string(), z.int()])), msg: z.string(), input: z.unknown(), ctx: z.record(z.string(), z.unknown()).optional() }),
  "one failing field, in pydantic v2's format",
);
export const HTTPValidationError = named('HTTPValidationError', z.object({ detail: z.array(ValidationIssue) }), 'every failing field of the request');
export const HTTPError = named('HTTPError', z.object({ detail: z.string() }));
