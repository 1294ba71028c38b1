import type { RestOrder, NewOrder, OrderFeed } from '../../wire/order.ts';
import { formatTimestampNs, parseTimestamp } from '../../core/time.ts';
import type { ExchangePort } from '../../strategy/exchange-port.ts';
import type { MarketDataLevel, MarketDataMessage } from '../../wire/market-data.ts';
import type { CandleRecord, FundingRateRecord, InstrumentInfo, MarkPriceRecord } from '../../wire/records.ts';
import type { ApiRiskSnapshot, PositionRiskSnapshot } from '../../wire/risk.ts';
import { AdminClient } from './admin-client.ts';
import { obtainToken } from './auth.ts';
import { WireError } from './errors.ts';
import { ExchangeTime } from './exchange-time.ts';
import { MARKET_DATA_ENVELOPE, ORDER_ENVELOPE, RequestSocket, type Message } from './request-socket.ts';
import { RestClient } from './rest-client.ts';

/** How {@link WireExchangePort.connect} reaches and logs in to an exchange. */
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
  /** Limit for each REST call and websocket request; default 10,000 ms. */
  timeoutMs?: number;
}

const FEED_TYPES = new Set(['n', 'j', 'p', 'f', 'c', 'x', 'e', 'd', 'r']);
const MARKET_DATA_TYPES = new Set(['s', '1', '2', '3']);

/**
 * The ExchangePort over the wire, using only the interface document (REST + the order and
 * market-data websockets), so a strategy runs unchanged against perpsim or a live venue.
 *
 * - Orders: place (`p`) and cancel (`x`) on the order websocket, so their replies come before
 *   the feeds they cause; open orders and cancel-all over REST (they return the REST form).
 * - Errors: REST non-2xx → WireHttpError (status, detail); websocket error envelopes →
 *   WireSocketError (code); closed sockets and timeouts → WireError. Order-level failures
 *   (rejects, cancel rejects) arrive as feeds, as the document says.
 * - Time: `now()` is the latest exchange time seen — `ts`/`tn` of every feed, market-data
 *   message and heartbeat, risk snapshot timestamps and, with an admin token, the admin clock
 *   (read at connect and after every admin clock call). `setTimer` is on that exchange time:
 *   a timer fires when a message shows its time has come, so it follows a manual or fast clock
 *   exactly; its resolution is the message flow (perpsim sends heartbeats every 2 s of wall time).
 */
export class WireExchangePort implements ExchangePort {
  readonly username: string;
  /** perpsim's admin API, when an admin token was given. */
  readonly admin: AdminClient | undefined;
  private readonly time = new ExchangeTime();
  private readonly feedHandlers: ((feed: OrderFeed) => void)[] = [];
  private readonly mdHandlers: ((message: MarketDataMessage) => void)[] = [];
  private orders!: RequestSocket;
  private marketData!: RequestSocket;

  private constructor(
    private readonly rest: RestClient,
    private readonly appRest: RestClient,
    options: WireClientOptions,
  ) {
    this.username = options.username;
    this.admin = options.adminToken === undefined ? undefined : new AdminClient(new RestClient(options.baseUrl, options.timeoutMs ?? 10_000, options.adminToken), (ns) => this.time.observe(ns));
  }

  /** Gets a token, opens and logs in to both websockets, and reads the exchange time. */
  static async connect(options: WireClientOptions): Promise<WireExchangePort> {
    const timeoutMs = options.timeoutMs ?? 10_000;
    const rest = new RestClient(trimSlash(options.baseUrl), timeoutMs);
    const port = new WireExchangePort(rest, new RestClient(trimSlash(options.appUrl ?? options.baseUrl), timeoutMs), options);
    const token = await obtainToken(rest, options, options.tokenExpirationSeconds ?? 86_400);
    rest.setBearer(token);
    port.appRest.setBearer(token);
    const wsUrl = trimSlash(options.wsUrl ?? options.baseUrl.replace(/^http/, 'ws'));
    const mdWsUrl = trimSlash(options.mdWsUrl ?? wsUrl);
    port.orders = await RequestSocket.open(`${wsUrl}/orders`, ORDER_ENVELOPE, timeoutMs, (m) => port.onOrderMessage(m));
    try {
      port.marketData = await RequestSocket.open(`${mdWsUrl}/md/ws`, MARKET_DATA_ENVELOPE, timeoutMs, (m) => port.onMarketDataMessage(m));
      await port.orders.request('a', { u: options.username, k: token });
      await port.marketData.request('login', { username: options.username, token });
      await port.syncTime();
    } catch (e) {
      await port.close();
      throw e;
    }
    return port;
  }

  now(): bigint {
    return this.time.now();
  }

  /** Refreshes `now()` from the admin clock, or else from a risk snapshot's timestamp. */
  async syncTime(): Promise<bigint> {
    if (this.admin !== undefined) await this.admin.clock();
    else await this.riskSnapshot();
    return this.time.now();
  }

  async instruments(): Promise<InstrumentInfo[]> {
    return (await this.rest.get<{ instruments: InstrumentInfo[] }>('/auth/instruments')).instruments;
  }

  async insertOrder(order: NewOrder): Promise<string> {
    const reply = await this.orders.request('p', { s: order.symbol, d: order.side, q: order.quantity, p: order.price, tif: order.timeInForce, po: order.postOnly ?? false });
    return String((reply.res as { oid: unknown }).oid);
  }

  async cancelOrder(orderId: string): Promise<void> {
    await this.orders.request('x', { oid: orderId });
  }

  async cancelAll(): Promise<{ successful: string[]; failed: string[] }> {
    const r = await this.rest.post<{ successful_cancellations: string[]; failed_cancellations: string[] }>('/orders/cancel_all', { username: this.username });
    return { successful: r.successful_cancellations, failed: r.failed_cancellations };
  }

  async openOrders(): Promise<RestOrder[]> {
    return (await this.rest.post<{ orders: RestOrder[] }>('/orders/get_open_orders', { username: this.username })).orders;
  }

  /** The user-based snapshot (GET /risk_manager/risk_snapshot); a null answer is a WireError. */
  async riskSnapshot(): Promise<PositionRiskSnapshot> {
    const snapshot = await this.rest.get<PositionRiskSnapshot | null>('/risk_manager/risk_snapshot', { username: this.username });
    if (snapshot === null) throw new WireError(`no risk snapshot for ${this.username}`);
    const tNs = parseTimestamp(snapshot.timestamp);
    if (tNs !== undefined) this.time.observe(tNs);
    return snapshot;
  }

  /** The token-based snapshot ({app_url}/api/risk-snapshot), as the wire wraps it: `{risk_snapshot: {…}}`. */
  apiRiskSnapshot(): Promise<ApiRiskSnapshot> {
    return this.appRest.get<ApiRiskSnapshot>('/api/risk-snapshot');
  }

  mtmPrices(symbol: string, startNs: bigint, endNs: bigint): Promise<MarkPriceRecord[]> {
    return this.rest.post<MarkPriceRecord[]>('/settlement/get_mtm_prices', { symbol, start_time: formatTimestampNs(startNs), end_time: formatTimestampNs(endNs) });
  }

  fundingRates(symbol: string, startNs: bigint, endNs: bigint): Promise<FundingRateRecord[]> {
    return this.rest.post<FundingRateRecord[]>('/settlement/get_funding_rates', { symbol, start_time: formatTimestampNs(startNs), end_time: formatTimestampNs(endNs) });
  }

  async candles(symbol: string, interval: string, startNs: bigint, endNs: bigint): Promise<CandleRecord[]> {
    const body = { market: symbol, interval, start_time: formatTimestampNs(startNs), end_time: formatTimestampNs(endNs) };
    return (await this.rest.post<{ candles: CandleRecord[] }>('/candle/historical_candles', body)).candles;
  }

  async subscribe(symbol: string, level: MarketDataLevel): Promise<void> {
    await this.marketData.request('subscribe', { symbol, level });
  }

  async unsubscribe(symbol: string): Promise<void> {
    await this.marketData.request('unsubscribe', { symbol });
  }

  onOrderFeed(handler: (feed: OrderFeed) => void): () => void {
    return addHandler(this.feedHandlers, handler);
  }

  onMarketData(handler: (message: MarketDataMessage) => void): () => void {
    return addHandler(this.mdHandlers, handler);
  }

  setTimer(delayNs: number, fn: () => void): () => void {
    return this.time.setTimer(delayNs, fn);
  }

  /** Drops every timer and handler and closes both websockets. */
  async close(): Promise<void> {
    this.time.clear();
    this.feedHandlers.length = 0;
    this.mdHandlers.length = 0;
    await Promise.all([this.orders?.close(), this.marketData?.close()]);
  }

  private onOrderMessage(message: Message): void {
    this.time.observeMessage(message);
    if (typeof message.t === 'string' && FEED_TYPES.has(message.t)) {
      for (const h of [...this.feedHandlers]) h(message as unknown as OrderFeed);
    }
  }

  private onMarketDataMessage(message: Message): void {
    this.time.observeMessage(message);
    if (typeof message.t === 'string' && MARKET_DATA_TYPES.has(message.t)) {
      for (const h of [...this.mdHandlers]) h(message as unknown as MarketDataMessage);
    }
  }
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

function addHandler<T>(list: T[], handler: T): () => void {
  list.push(handler);
  return () => {
    const i = list.indexOf(handler);
    if (i >= 0) list.splice(i, 1);
  };
}
