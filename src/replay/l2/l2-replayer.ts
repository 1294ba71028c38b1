import type { BigRational } from '../../market/rational.ts';
import { parseMoney, MONEY_ONE } from '../../core/money.ts';
import type { SimClock } from '../../clock/sim-clock.ts';
import type { TickSize } from '../../core/price.ts';
import type { Market } from '../../venue/market.ts';
import type { Venue } from '../../venue/venue.ts';
import type { Side } from '../../core/types.ts';
import type { LevelColumns } from '../../venue/external-liquidity.ts';
import type { RecordedFeedDelay } from './feed-delay.ts';
import { L2_BOOK, L2_TRADE, sideOfCode, type L2Batch } from './l2-batch.ts';
import type { L2TickerEvent } from './l2-event.ts';
import type { L2Feed } from './l2-feed.ts';
import type { RecordedTouch } from '../l1/recorded-touch.ts';
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
 * Plays recorded L2 events into the venue on the sim clock, each at its exchange time, pulling
 * them from `feed` a batch at a time as the clock reaches them (the whole recording is never
 * in memory unless the feed holds it): level
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
  /** The batch being replayed and the next row of it (undefined: the recording is over). */
  private batch: L2Batch | undefined;
  private row = 0;
  private started = false;
  /** The current book event's levels (one object, repointed per event). */
  private readonly levels: LevelColumns = { side: new Uint8Array(0), priceTicks: new Float64Array(0), qtyLots: new Float64Array(0), from: 0, to: 0 };
  /** Last recorded mark (ticks) and funding rate per market, kept across tickers that omit one. */
  private readonly recorded = new Map<Market, { mark: number | undefined; rate: BigRational | undefined }>();

  constructor(
    private readonly venue: Venue,
    /** The replayed markets; events name them by index. */
    readonly markets: readonly Market[],
    /** Each market's recorded price step (one step = one instrument tick), for ticker prices. */
    private readonly recordedTicks: readonly TickSize[],
    /** The recording, pulled a batch at a time as the clock reaches it. */
    private readonly feed: L2Feed,
    model: QueueModel,
    feedDelay: RecordedFeedDelay,
    /** An L1 replay's recorded touch (src/replay/l1): levels behind it are unknown to the queue estimate. */
    private readonly touch?: RecordedTouch,
  ) {
    this.tracker = new QueueTracker(venue, model, new Set(markets), touch?.hidden);
    this.feedDelay = feedDelay;
  }

  private get clock(): SimClock {
    return this.venue.clock;
  }

  /** Whether recorded events are left to apply. */
  get done(): boolean {
    return this.started && this.batch === undefined;
  }

  /** Schedules the replay (events before the clock's time are applied at once, in order). */
  start(): void {
    this.started = true;
    this.batch = this.pull();
    this.scheduleNext();
  }

  /** Stops reading the recording (a run that ends before it does). */
  close(): void {
    this.batch = undefined;
    this.feed.close();
  }

  private pull(): L2Batch | undefined {
    for (let b = this.feed.next(); b !== undefined; b = this.feed.next()) {
      if (b.length > 0) {
        this.row = 0;
        return b;
      }
    }
    this.feed.close();
    return undefined;
  }

  private scheduleNext(): void {
    const b = this.batch;
    if (b === undefined) return;
    const next = b.tsNs[this.row]!;
    this.clock.scheduleAt(next > this.clock.nowNs ? next : this.clock.nowNs, this.step);
  }

  /** Applies every event of this instant (across batches), then schedules the next instant. */
  private readonly step = (): void => {
    const now = this.clock.nowNs;
    for (let b = this.batch; b !== undefined && b.tsNs[this.row]! <= now; b = this.batch) {
      const i = this.row++;
      this.apply(b, i);
      if (this.row === b.length) this.batch = this.pull();
    }
    this.scheduleNext();
  };

  private apply(b: L2Batch, i: number): void {
    this.stats.events++;
    this.feedDelay.observe(b.feedDelayNs[i]!);
    const market = this.markets[b.market[i]!]!;
    const kind = b.kind[i];
    if (kind === L2_BOOK) this.applyBook(market, b, i);
    else if (kind === L2_TRADE) this.applyTrade(market, b.priceTicks[i]!, b.qtyLots[i]!, sideOfCode(b.side[i]!));
    else this.applyTicker(market, b.tickers.get(i)!);
  }

  private applyBook(market: Market, b: L2Batch, i: number): void {
    this.stats.bookEvents++;
    const levels = this.levels;
    levels.side = b.levelSide;
    levels.priceTicks = b.levelPrice;
    levels.qtyLots = b.levelQty;
    levels.from = b.levelStart[i]!;
    levels.to = b.levelEnd[i]!;
    const reset = b.reset[i] === 1;
    const before = this.tracker.displayedBefore(market, levels, reset);
    this.venue.exclusive(() => this.venue.external.applyLevelColumns(market, levels, reset));
    this.touch?.observe(market, levels);
    this.tracker.levelsChanged(market, before);
  }

  private applyTrade(market: Market, priceTicks: number, qtyLots: number, takerSide: Side | undefined): void {
    this.stats.recordedTrades++;
    const { fills, restLots } = takerSide === undefined ? { fills: [], restLots: qtyLots } : this.tracker.recordedTrade(market, priceTicks, qtyLots, takerSide);
    this.venue.exclusive(() => {
      for (const f of fills) {
        const order = this.venue.openOrder(f.orderId)!;
        this.venue.external.fillFromRecordedTrade(order, f.lots, f.priceTicks);
        this.stats.ownFillLots += f.lots;
      }
      if (restLots > 0) this.venue.external.printRecordedTrade(market, priceTicks, restLots, takerSide ?? 'B');
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
