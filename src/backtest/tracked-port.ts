import type { ExchangePort, MarketDataHandlerOptions, SubscribeOptions } from '../strategy/exchange-port.ts';
import type { MarketDataLevel, MarketDataMessage } from '../wire/market-data.ts';
import type { NewOrder, OrderFeed } from '../wire/order.ts';

/**
 * An ExchangePort wrapper that tells the backtest runner when a strategy may have async work
 * to finish at the current sim instant. The in-process port settles its promises inside clock
 * events; a strategy's `await port.insertOrder(...)` continues in a microtask, which must run
 * before the clock moves on, or the strategy would act at the wrong sim time.
 *
 * `outstanding` counts unsettled promises the strategy could be waiting on (port calls and
 * promises returned by its callbacks) over a port that does not count its settlements; `dirty`
 * is set when one settled or a callback returned a promise, i.e. when microtasks are queued that
 * the runner must drain before the next event.
 */
/** A port whose timers can call one function with an argument (`InProcessPort.setTimerWith`). */
interface TimersWith {
  setTimerWith<T>(delayNs: number, fn: (arg: T) => void, arg: T): () => void;
}

/**
 * A port that settles its promises itself, inside clock events, and counts them
 * (`InProcessPort.settlements`): the runner then knows right after an event whether one settled.
 */
interface CountsSettlements {
  readonly settlements: number;
}

export class TrackedPort implements ExchangePort {
  outstanding = 0;
  dirty = false;
  /** Errors thrown by promises the strategy's callbacks returned (the runner rethrows the first). */
  readonly errors: unknown[] = [];

  /** The inner port's timers with an argument, where it has them (the in-process port). */
  private readonly timersWith: TimersWith | undefined;
  /** The inner port's count of settled promises, where it keeps one (the in-process port). */
  private readonly counted: CountsSettlements | undefined;
  /** `counted.settlements` at the last `drained()`. */
  private seenSettlements = 0;
  /** A strategy callback ran since the last `drained()`. */
  private ran = false;

  constructor(private readonly inner: ExchangePort) {
    this.timersWith = typeof (inner as Partial<TimersWith>).setTimerWith === 'function' ? (inner as ExchangePort & TimersWith) : undefined;
    this.counted = typeof (inner as Partial<CountsSettlements>).settlements === 'number' ? (inner as ExchangePort & CountsSettlements) : undefined;
  }

  /**
   * Whether the runner knows at once, after each event, if the strategy may have continuations
   * queued (`mayContinue`): true over a port that counts its settlements (the in-process port).
   * Otherwise a settlement shows only a microtask later (`dirty`, set by `track`'s reactions).
   */
  get knowsSettlements(): boolean {
    return this.counted !== undefined;
  }

  /**
   * Over a port that counts its settlements: whether the events run since `drained()` may have
   * queued microtasks of the strategy's. Strategy code runs in an event only in a callback the
   * port calls (`call`: feeds, market data, timers) or in the reactions of a port promise the
   * event settled; with neither, the event queued none of its microtasks.
   */
  mayContinue(): boolean {
    return this.ran || this.dirty || this.counted!.settlements !== this.seenSettlements;
  }

  /** The runner let every queued microtask run: nothing is left to continue. */
  drained(): void {
    this.ran = false;
    this.dirty = false;
    if (this.counted !== undefined) this.seenSettlements = this.counted.settlements;
  }

  get username(): string {
    return this.inner.username;
  }

  now(): bigint {
    return this.inner.now();
  }

  instruments() {
    return this.track(this.inner.instruments());
  }

  insertOrder(order: NewOrder) {
    return this.track(this.inner.insertOrder(order));
  }

  cancelOrder(orderId: string) {
    return this.track(this.inner.cancelOrder(orderId));
  }

  cancelAll() {
    return this.track(this.inner.cancelAll());
  }

  openOrders() {
    return this.track(this.inner.openOrders());
  }

  riskSnapshot() {
    return this.track(this.inner.riskSnapshot());
  }

  mtmPrices(symbol: string, startNs: bigint, endNs: bigint) {
    return this.track(this.inner.mtmPrices(symbol, startNs, endNs));
  }

  fundingRates(symbol: string, startNs: bigint, endNs: bigint) {
    return this.track(this.inner.fundingRates(symbol, startNs, endNs));
  }

  candles(symbol: string, interval: string, startNs: bigint, endNs: bigint) {
    return this.track(this.inner.candles(symbol, interval, startNs, endNs));
  }

  subscribe(symbol: string, level: MarketDataLevel, options?: SubscribeOptions) {
    return this.track(this.inner.subscribe(symbol, level, options));
  }

  unsubscribe(symbol: string) {
    return this.track(this.inner.unsubscribe(symbol));
  }

  onOrderFeed(handler: (feed: OrderFeed) => void): () => void {
    return this.inner.onOrderFeed((feed) => this.call(handler, feed));
  }

  onMarketData(handler: (message: MarketDataMessage) => void, options?: MarketDataHandlerOptions): () => void {
    return this.inner.onMarketData((message) => this.call(handler, message), options);
  }

  setTimer(delayNs: number, fn: () => void): () => void {
    if (this.timersWith !== undefined) return this.timersWith.setTimerWith(delayNs, this.runTimer, fn);
    return this.inner.setTimer(delayNs, () => this.call(fn, undefined));
  }

  /** A strategy's timer firing: one function for every timer, the strategy's own as its argument. */
  private readonly runTimer = (fn: () => unknown): void => this.call(fn, undefined);

  /** Runs a strategy callback: an exception is kept for the runner rather than thrown into the clock. */
  private call<T>(fn: (arg: T) => unknown, arg: T): void {
    this.ran = true;
    try {
      this.watch(fn(arg));
    } catch (e) {
      this.errors.push(e);
      this.dirty = true;
    }
  }

  /** Tracks a value a strategy callback returned: a promise is async work in flight. */
  watch(result: unknown): void {
    if (result !== null && typeof result === 'object' && typeof (result as PromiseLike<unknown>).then === 'function') {
      this.dirty = true;
      this.track(Promise.resolve(result as PromiseLike<unknown>)).catch((e: unknown) => void this.errors.push(e));
    }
  }

  /**
   * Counts `promise` as outstanding until it settles, and marks the settlement. Over a port that
   * counts its settlements the runner reads that count instead (`mayContinue`), so the promise is
   * handed on as it is: no reaction and no second promise per request. Removing that one hop
   * delays nothing relative to anything else: every continuation of such a port's promise now
   * runs one microtask earlier, and an event settles at most one of them (so the order within a
   * drain is unchanged; the settling property test compares the run with the every-event rule).
   */
  track<T>(promise: Promise<T>): Promise<T> {
    if (this.counted !== undefined) return promise;
    this.outstanding++;
    return promise.then(this.settled, this.failed) as Promise<T>;
  }

  // `track`'s reactions, made once per port rather than twice per call.
  private readonly settled = (value: unknown): unknown => {
    this.outstanding--;
    this.dirty = true;
    return value;
  };
  private readonly failed = (error: unknown): never => {
    this.outstanding--;
    this.dirty = true;
    throw error;
  };
}
