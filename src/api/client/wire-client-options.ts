/** How `WireExchangePort.connect` reaches and logs in to an exchange. */
export interface WireClientOptions {
  /** {base_url}: REST host, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** Base of the order websocket (`${wsUrl}/orders`); default: baseUrl with the ws / wss scheme. */
  wsUrl?: string;
  /** {ws_base_url}: base of the market-data websocket (`${mdWsUrl}/md/ws`); default: wsUrl. */
  mdWsUrl?: string;
  /** {app_url}: host of /api/risk-snapshot; default: baseUrl. */
  appUrl?: string;
  username: string;
  /** Log in with a password (POST /auth/get_user_token) … */
  password?: string;
  /** … or with an API key and secret (POST /auth/get_user_token_api_key) … */
  apiKey?: { key: string; secret: string };
  /** … or with a token already issued. */
  token?: string;
  /** Lifetime asked for the token; default 86,400 s. */
  tokenExpirationSeconds?: number;
  /** perpsim's admin token: enables `admin` and reads exchange time from the admin clock. */
  adminToken?: string;
  /** Limit for each REST call and websocket request; default {@link DEFAULT_TIMEOUT_MS}. */
  timeoutMs?: number;
  /**
   * Keep the session up (for long-running clients such as `perpsim live`): renew the token
   * before it expires (at 80 % of its life; needs a password or API key) and, when a socket
   * drops, reopen it, log in again, resubscribe and reconcile open orders (see {@link Reconnected}).
   */
  keepAlive?: boolean;
}

/** What a reconnect found: the socket that came back and the orders that closed while it was away. */
export interface Reconnected {
  socket: 'orders' | 'market data';
  /** Orders the port believed open that the exchange no longer lists (filled or canceled meanwhile). */
  closedWhileAway: string[];
}

/** Limit for each REST call and websocket request unless `timeoutMs` says otherwise. */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** The REST host (`baseUrl`). */
export function restUrl(options: WireClientOptions): string {
  return trimSlash(options.baseUrl);
}

/** The host of /api/risk-snapshot (`appUrl`, default `baseUrl`). */
export function appUrl(options: WireClientOptions): string {
  return trimSlash(options.appUrl ?? options.baseUrl);
}

/** The order websocket: `${wsUrl}/orders`, wsUrl defaulting to baseUrl with the ws / wss scheme. */
export function orderSocketUrl(options: WireClientOptions): string {
  return `${wsBase(options)}/orders`;
}

/** The market-data websocket: `${mdWsUrl}/md/ws`, mdWsUrl defaulting to the order websocket's base. */
export function marketDataSocketUrl(options: WireClientOptions): string {
  return `${trimSlash(options.mdWsUrl ?? wsBase(options))}/md/ws`;
}

function wsBase(options: WireClientOptions): string {
  return trimSlash(options.wsUrl ?? options.baseUrl.replace(/^http/, 'ws'));
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
