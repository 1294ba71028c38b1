import type { BigRational } from '../../market/rational.ts';
import { parseMoney, MONEY_ONE } from '../../core/money.ts';
import type { SimClock } from '../../clock/sim-clock.ts';
import type { TickSize } from '../../core/price.ts';
import type { Market } from '../../venue/market.ts';
import type { Venue } from '../../venue/venue.ts';
import { RecordedFeedDelay } from './feed-delay.ts';
import type { L2BookEvent, L2Event, L2TickerEvent, L2TradeEvent } from './l2-event.ts';
import type { QueueModel } from './queue-model.ts';
import { QueueTracker } from './queue-tracker.ts';

/** Counts of what a replay applied (for summaries and tests). */
export interface L2ReplayStats {
  events: number;
  bookEvents: number;
  recordedTrades: number;
  /** Lots of account orders filled by recorded trades. */
  ownFillLots: number;
  tickers: number;
}

/**
 * Plays recorded L2 events into the venue on the sim clock, each at its exchange time: level
 * changes restate the external liquidity (`venue.external`), recorded trades print and fill
 * account orders the queue model says they reached, derivative tickers set the recorded mark
 * and funding rate (the index comes through the scenario's recorded index process). Market
 * data the venue sends out meanwhile is delayed by the recorded feed delay
 * (`feedDelay`, the ports' market-data latency). Pure in-memory and deterministic.
 */
export class L2Replayer {
  readonly tracker: QueueTracker;
  readonly feedDelay: RecordedFeedDelay;
  readonly stats: L2ReplayStats = { events: 0, bookEvents: 0, recordedTrades: 0, ownFillLots: 0, tickers: 0 };
  private cursor = 0;
  /** Last recorded mark (ticks) and funding rate per market, kept across tickers that omit one. */
  private readonly recorded = new Map<Market, { mark: number | undefined; rate: BigRational | undefined }>();

  constructor(
    private readonly venue: Venue,
    /** The replayed markets; events name them by index. */
    readonly markets: readonly Market[],
    /** Each market's recorded price step (one step = one instrument tick), for ticker prices. */
    private readonly recordedTicks: readonly TickSize[],
    private readonly events: readonly L2Event[],
    model: QueueModel,
    feedDelay: RecordedFeedDelay = new RecordedFeedDelay(events),
  ) {
    this.tracker = new QueueTracker(venue, model, new Set(markets));
    this.feedDelay = feedDelay;
  }

  private get clock(): SimClock {
    return this.venue.clock;
  }

  /** Events not yet applied. */
  get remaining(): number {
    return this.events.length - this.cursor;
  }

  /** Exchange time of the first and last event, if any. */
  get span(): { firstNs: bigint; lastNs: bigint } | undefined {
    const first = this.events[0];
    const last = this.events[this.events.length - 1];
    return first === undefined || last === undefined ? undefined : { firstNs: first.tsNs, lastNs: last.tsNs };
  }

  /** Schedules the replay (events before the clock's time are applied at once, in order). */
  start(): void {
    this.scheduleNext();
  }

  private scheduleNext(): void {
    const next = this.events[this.cursor];
    if (next === undefined) return;
    this.clock.scheduleAt(next.tsNs > this.clock.nowNs ? next.tsNs : this.clock.nowNs, this.step);
  }

  /** Applies every event of this instant, then schedules the next instant. */
  private readonly step = (): void => {
    const now = this.clock.nowNs;
    for (let e = this.events[this.cursor]; e !== undefined && e.tsNs <= now; e = this.events[this.cursor]) {
      this.cursor++;
      this.apply(e);
    }
    this.scheduleNext();
  };

  private apply(e: L2Event): void {
    this.stats.events++;
    this.feedDelay.observe(e);
    const market = this.markets[e.market]!;
    if (e.kind === 'book') this.applyBook(market, e);
    else if (e.kind === 'trade') this.applyTrade(market, e);
    else this.applyTicker(market, e);
  }

  private applyBook(market: Market, e: L2BookEvent): void {
    this.stats.bookEvents++;
    const before = this.tracker.displayedBefore(market, e.updates, e.reset);
    this.venue.exclusive(() => this.venue.external.applyLevels(market, e.updates, e.reset));
    this.tracker.levelsChanged(market, before);
  }

  private applyTrade(market: Market, e: L2TradeEvent): void {
    this.stats.recordedTrades++;
    const { fills, restLots } = e.takerSide === undefined ? { fills: [], restLots: e.qtyLots } : this.tracker.recordedTrade(market, e.priceTicks, e.qtyLots, e.takerSide);
    this.venue.exclusive(() => {
      for (const f of fills) {
        const order = this.venue.openOrder(f.orderId)!;
        this.venue.external.fillFromRecordedTrade(order, f.lots, f.priceTicks);
        this.stats.ownFillLots += f.lots;
      }
      if (restLots > 0) this.venue.external.printRecordedTrade(market, e.priceTicks, restLots, e.takerSide ?? 'B');
    });
  }

  private applyTicker(market: Market, e: L2TickerEvent): void {
    this.stats.tickers++;
    const last = this.recorded.get(market) ?? { mark: undefined, rate: undefined };
    this.recorded.set(market, last);
    if (e.markPrice !== undefined) last.mark = recordedPriceTicks(this.recordedTicks[e.market]!, e.markPrice);
    if (e.fundingRate !== undefined) last.rate = { num: parseMoney(e.fundingRate), den: MONEY_ONE };
    if (e.markPrice === undefined && e.fundingRate === undefined) return;
    this.venue.setRecordedMarkAndFunding(market, last.mark, last.rate);
  }
}

/** A recorded decimal price (not necessarily on the grid) to the nearest recorded step, half to even. */
export function recordedPriceTicks(step: TickSize, price: string): number {
  return Math.max(1, step.fromMoneyRounded(parseMoney(price)));
}
