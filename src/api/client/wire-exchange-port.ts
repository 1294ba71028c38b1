import type { RestOrder, NewOrder, OrderFeed } from '../../wire/order.ts';
import { formatTimestampNs, parseTimestamp } from '../../core/time.ts';
import type { ExchangePort, SubscribeOptions } from '../../strategy/exchange-port.ts';
import { addHandler } from '../../strategy/handlers.ts';
import type { MarketDataLevel, MarketDataMessage } from '../../wire/market-data.ts';
import type { CandleRecord, FundingRateRecord, InstrumentInfo, MarkPriceRecord } from '../../wire/records.ts';
import type { ApiRiskSnapshot, PositionRiskSnapshot } from '../../wire/risk.ts';
import { AdminClient } from './admin-client.ts';
import { obtainToken } from './auth.ts';
import { WireError } from './errors.ts';
import { ExchangeTime } from './exchange-time.ts';
import { MARKET_DATA_ENVELOPE, ORDER_ENVELOPE, RequestSocket, type Message } from './request-socket.ts';
import { RestClient } from './rest-client.ts';
import { appUrl, DEFAULT_TIMEOUT_MS, marketDataSocketUrl, orderSocketUrl, restUrl, type Reconnected, type WireClientOptions } from './wire-client-options.ts';

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
  private token = '';
  private closing = false;
  private renewTimer: NodeJS.Timeout | undefined;
  /** Subscriptions to restore after a reconnect. */
  private readonly subscriptions = new Map<string, { symbol: string; level: MarketDataLevel; depth?: number }>();
  /** Orders open as the feeds tell (n adds; f, c, x, j, d remove), reconciled after a reconnect. */
  private readonly openOrderIds = new Set<string>();
  private readonly reconnectHandlers: ((r: Reconnected) => void)[] = [];
  private readonly options: WireClientOptions;

  private constructor(
    private readonly rest: RestClient,
    private readonly appRest: RestClient,
    options: WireClientOptions,
  ) {
    this.username = options.username;
    this.options = options;
    this.admin = options.adminToken === undefined ? undefined : new AdminClient(new RestClient(options.baseUrl, options.timeoutMs ?? DEFAULT_TIMEOUT_MS, options.adminToken), (ns) => this.time.observe(ns));
  }

  /** Gets a token, opens and logs in to both websockets, and reads the exchange time. */
  static async connect(options: WireClientOptions): Promise<WireExchangePort> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const port = new WireExchangePort(new RestClient(restUrl(options), timeoutMs), new RestClient(appUrl(options), timeoutMs), options);
    await port.renewToken();
    try {
      port.orders = await port.openOrderSocket();
      port.marketData = await port.openMarketDataSocket();
      await port.syncTime();
    } catch (e) {
      await port.close();
      throw e;
    }
    return port;
  }

  /** Registers a handler called after a dropped socket came back (keepAlive); returns its remover. */
  onReconnect(handler: (r: Reconnected) => void): () => void {
    return addHandler(this.reconnectHandlers, handler);
  }

  /** Gets a fresh token for REST and later logins; with keepAlive, schedules the next renewal. */
  private async renewToken(): Promise<void> {
    const lifeSeconds = this.options.tokenExpirationSeconds ?? 86_400;
    this.token = await obtainToken(this.rest, this.options, lifeSeconds);
    this.rest.setBearer(this.token);
    this.appRest.setBearer(this.token);
    const renewable = this.options.password !== undefined || this.options.apiKey !== undefined;
    if (this.options.keepAlive !== true || !renewable || this.closing) return;
    clearTimeout(this.renewTimer);
    this.renewTimer = setTimeout(() => void this.renewToken().catch(() => this.retryLater(() => this.renewToken())), lifeSeconds * 800);
    this.renewTimer.unref();
  }

  private async openOrderSocket(): Promise<RequestSocket> {
    const socket = await RequestSocket.open(orderSocketUrl(this.options), ORDER_ENVELOPE, this.timeoutMs, (m) => this.onOrderMessage(m), () => this.onDropped('orders'));
    await socket.request('a', { u: this.username, k: this.token });
    return socket;
  }

  private async openMarketDataSocket(): Promise<RequestSocket> {
    const socket = await RequestSocket.open(marketDataSocketUrl(this.options), MARKET_DATA_ENVELOPE, this.timeoutMs, (m) => this.onMarketDataMessage(m), () => this.onDropped('market data'));
    await socket.request('login', { username: this.username, token: this.token });
    return socket;
  }

  private get timeoutMs(): number {
    return this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** A socket closed: unless the client closed it, reopen it (keepAlive). */
  private onDropped(socket: Reconnected['socket']): void {
    if (this.closing || this.options.keepAlive !== true) return;
    const reopen = async (): Promise<void> => {
      if (this.closing) return;
      let closedWhileAway: string[] = [];
      if (socket === 'orders') {
        this.orders = await this.openOrderSocket();
        const open = new Set((await this.openOrders()).map((o) => o.order_id));
        closedWhileAway = [...this.openOrderIds].filter((id) => !open.has(id));
        this.openOrderIds.clear();
        for (const id of open) this.openOrderIds.add(id);
      } else {
        this.marketData = await this.openMarketDataSocket();
        // The exchange answers each subscribe with stats and the current book: the strategy's view is fresh again.
        for (const fields of this.subscriptions.values()) await this.marketData.request('subscribe', fields);
      }
      for (const h of [...this.reconnectHandlers]) h({ socket, closedWhileAway });
    };
    this.retryLater(reopen);
  }

  /** Runs `attempt` after a short wall delay, again (doubling the delay, at most 5 s) until it succeeds or the port closes. */
  private retryLater(attempt: () => Promise<void>, delayMs = 100): void {
    if (this.closing) return;
    const timer = setTimeout(() => {
      attempt().catch(() => this.retryLater(attempt, Math.min(delayMs * 2, 5000)));
    }, delayMs);
    timer.unref();
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

  async subscribe(symbol: string, level: MarketDataLevel, options?: SubscribeOptions): Promise<void> {
    // `depth` only when asked for: a server without perpsim's extension never sees the field.
    const fields = options?.depth === undefined ? { symbol, level } : { symbol, level, depth: options.depth };
    await this.marketData.request('subscribe', fields);
    this.subscriptions.set(symbol, fields);
  }

  async unsubscribe(symbol: string): Promise<void> {
    await this.marketData.request('unsubscribe', { symbol });
    this.subscriptions.delete(symbol);
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
    this.closing = true;
    clearTimeout(this.renewTimer);
    this.time.clear();
    this.feedHandlers.length = 0;
    this.mdHandlers.length = 0;
    await Promise.all([this.orders?.close(), this.marketData?.close()]);
  }

  private onOrderMessage(message: Message): void {
    this.time.observeMessage(message);
    if (typeof message.t === 'string' && FEED_TYPES.has(message.t)) {
      const feed = message as unknown as OrderFeed;
      if (feed.o !== undefined) {
        if (feed.t === 'n') this.openOrderIds.add(feed.o.oid);
        else if (feed.t !== 'p' && feed.t !== 'e') this.openOrderIds.delete(feed.o.oid);
      }
      for (const h of [...this.feedHandlers]) h(feed);
    }
  }

  private onMarketDataMessage(message: Message): void {
    this.time.observeMessage(message);
    if (typeof message.t === 'string' && MARKET_DATA_TYPES.has(message.t)) {
      for (const h of [...this.mdHandlers]) h(message as unknown as MarketDataMessage);
    }
  }
}
