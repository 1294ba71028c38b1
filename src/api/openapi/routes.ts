import type { z } from 'zod';
import { ADMIN_CANCEL, ADMIN_INSTRUMENT_PATH, ADVANCE, CASH, INSTRUMENT_STATE, NEW_USER, SPEED_BODY } from '../rest/admin-routes.ts';
import { API_KEY } from '../rest/api-routes.ts';
import { API_KEY_TOKEN, INSTRUMENT_PATH, PASSWORD_TOKEN } from '../rest/auth-routes.ts';
import { CANDLES, SETTLEMENT } from '../rest/market-routes.ts';
import { CANCEL_ORDER, INSERT_ORDER, USER_ONLY } from '../rest/order-routes.ts';
import { RISK_QUERY } from '../rest/risk-routes.ts';
import type { Shape } from '../rest/validation.ts';
import * as S from './schemas.ts';

/** Who may call a route: anyone, a user's token, or the admin token. */
export type Access = 'public' | 'user' | 'admin';

/** One documented REST route. Inputs are the very shapes the handlers validate with. */
export interface RouteDoc {
  method: 'get' | 'post';
  /** OpenAPI form (`/auth/instruments/{symbol}`). */
  path: string;
  /** Which app serves it: {base_url} or {app_url} (see RestParts). */
  part: 'base' | 'app';
  tag: string;
  summary: string;
  description?: string;
  access: Access;
  body?: { id: string; shape: Shape };
  query?: Shape;
  params?: Shape;
  /** The 200 answer. */
  ok: z.ZodType;
  /** Error statuses beyond the automatic ones (422 with any input, 401 with access). */
  errors?: (403 | 404 | 409)[];
}

const route = (doc: RouteDoc): RouteDoc => doc;

/** Every REST route of the server, in the order the document lists them. */
export const ROUTES: readonly RouteDoc[] = [
  route({ method: 'post', path: '/auth/get_user_token', part: 'base', tag: 'auth', summary: 'A user token from username and password', access: 'public', body: { id: 'GetUserTokenRequest', shape: PASSWORD_TOKEN }, ok: S.TokenResponse }),
  route({ method: 'post', path: '/auth/get_user_token_api_key', part: 'base', tag: 'auth', summary: 'A user token from an API key and secret', access: 'public', body: { id: 'GetUserTokenApiKeyRequest', shape: API_KEY_TOKEN }, ok: S.TokenResponse }),
  route({ method: 'get', path: '/auth/instruments', part: 'base', tag: 'instruments', summary: 'All instruments', access: 'user', ok: S.InstrumentsResponse }),
  route({ method: 'get', path: '/auth/instruments/{symbol}', part: 'base', tag: 'instruments', summary: 'One instrument', access: 'user', params: INSTRUMENT_PATH, ok: S.Instrument, errors: [404] }),
  route({
    method: 'post',
    path: '/orders/insert_order',
    part: 'base',
    tag: 'orders',
    summary: 'Insert an order',
    description: 'Schema violations are a 422 before any order exists; business rules (tick grid, quantity, price band, margin, post-only) are a Rejected Order feed (j) after the order id.',
    access: 'user',
    body: { id: 'InsertOrderRequest', shape: INSERT_ORDER },
    ok: S.OrderIdResponse,
    errors: [403],
  }),
  route({ method: 'post', path: '/orders/cancel_order', part: 'base', tag: 'orders', summary: 'Cancel an order (outcome: feed c or e)', access: 'user', body: { id: 'CancelOrderRequest', shape: CANCEL_ORDER }, ok: S.CancelOrderResponse, errors: [403] }),
  route({ method: 'post', path: '/orders/get_open_orders', part: 'base', tag: 'orders', summary: "The user's open orders", access: 'user', body: { id: 'UserRequest', shape: USER_ONLY }, ok: S.OpenOrdersResponse, errors: [403] }),
  route({ method: 'post', path: '/orders/cancel_all', part: 'base', tag: 'orders', summary: "Cancel all the user's open orders", access: 'user', body: { id: 'UserRequest', shape: USER_ONLY }, ok: S.CancelAllResponse, errors: [403] }),
  route({ method: 'post', path: '/settlement/get_mtm_prices', part: 'base', tag: 'settlement', summary: 'Mark-to-market price records in a time range', access: 'public', body: { id: 'SettlementRequest', shape: SETTLEMENT }, ok: S.MarkPrices }),
  route({ method: 'post', path: '/settlement/get_funding_rates', part: 'base', tag: 'settlement', summary: 'Funding records in a time range', access: 'public', body: { id: 'SettlementRequest', shape: SETTLEMENT }, ok: S.FundingRates }),
  route({
    method: 'post',
    path: '/candle/historical_candles',
    part: 'base',
    tag: 'candles',
    summary: 'Candles of a market at an interval',
    description: 'interval: 1s, 5s, 1m, 5m, 15m, 1h or 1d; market: a symbol. Intervals without trades are omitted.',
    access: 'public',
    body: { id: 'CandlesRequest', shape: CANDLES },
    ok: S.CandleResponse,
  }),
  route({ method: 'get', path: '/risk_manager/risk_snapshot', part: 'base', tag: 'risk', summary: 'The user-based risk snapshot (positions)', access: 'user', query: RISK_QUERY, ok: S.PositionRiskSnapshot, errors: [403] }),
  route({ method: 'get', path: '/api/risk-snapshot', part: 'app', tag: 'risk', summary: 'The token-based risk snapshot (per_symbol)', access: 'user', ok: S.ApiRiskSnapshot }),
  route({
    method: 'post',
    path: '/api/api-keys',
    part: 'app',
    tag: 'auth',
    summary: 'Create an API key and secret',
    description: "Needs the token's user's password, and a TOTP code (RFC 6238) for users with 2FA. A wrong password or code is a 401.",
    access: 'user',
    body: { id: 'CreateApiKeyRequest', shape: API_KEY },
    ok: S.ApiKeyResponse,
    errors: [403],
  }),
  route({ method: 'get', path: '/admin/clock', part: 'base', tag: 'admin', summary: 'The simulation clock', access: 'admin', ok: S.ClockStatus }),
  route({ method: 'post', path: '/admin/clock/advance', part: 'base', tag: 'admin', summary: 'Advance sim time (every event up to it runs first)', access: 'admin', body: { id: 'AdvanceRequest', shape: ADVANCE }, ok: S.ClockStatus }),
  route({ method: 'post', path: '/admin/clock/pause', part: 'base', tag: 'admin', summary: 'Pause the clock', access: 'admin', ok: S.ClockStatus }),
  route({ method: 'post', path: '/admin/clock/resume', part: 'base', tag: 'admin', summary: 'Resume the clock (409 on a manual clock)', access: 'admin', ok: S.ClockStatus, errors: [409] }),
  route({ method: 'post', path: '/admin/clock/speed', part: 'base', tag: 'admin', summary: 'Set the clock speed (sim seconds per wall second, or "max")', access: 'admin', body: { id: 'SpeedRequest', shape: SPEED_BODY }, ok: S.ClockStatus }),
  route({ method: 'post', path: '/admin/users', part: 'base', tag: 'admin', summary: 'Add a user with cash', access: 'admin', body: { id: 'NewUserRequest', shape: NEW_USER }, ok: S.UserCreated, errors: [409] }),
  route({ method: 'post', path: '/admin/cash', part: 'base', tag: 'admin', summary: "Adjust a user's cash", access: 'admin', body: { id: 'CashRequest', shape: CASH }, ok: S.PositionRiskSnapshot, errors: [404] }),
  route({ method: 'post', path: '/admin/orders/cancel', part: 'base', tag: 'admin', summary: 'Cancel any order (feed c, xr EXCHANGE_OPTION)', access: 'admin', body: { id: 'AdminCancelRequest', shape: ADMIN_CANCEL }, ok: S.AdminCanceled, errors: [404] }),
  route({
    method: 'post',
    path: '/admin/instruments/{symbol}/state',
    part: 'base',
    tag: 'admin',
    summary: "Set an instrument's state",
    access: 'admin',
    params: ADMIN_INSTRUMENT_PATH,
    body: { id: 'InstrumentStateRequest', shape: INSTRUMENT_STATE },
    ok: S.Instrument,
    errors: [404],
  }),
  route({ method: 'get', path: '/admin/state_hash', part: 'base', tag: 'admin', summary: 'Hash of the whole venue state', access: 'admin', ok: S.StateHash }),
];
