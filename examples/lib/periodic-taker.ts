/**
 * The skeleton the taker examples share: follows one symbol's LEVEL_1 touch and the
 * strategy's own position, calls `check()` every `checkSec` of exchange time, and trades by
 * crossing the touch with an IOC limited to `slippageTicks` through it.
 */
import type { TickSize } from '../../src/core/price.ts';
import type { Side } from '../../src/core/types.ts';
import type { ExchangePort } from '../../src/strategy/exchange-port.ts';
import type { BookUpdate } from '../../src/wire/market-data.ts';
import type { Strategy } from '../../src/strategy/strategy.ts';
import type { OrderFeed } from '../../src/wire/order.ts';
import { fillDelta, tickSizeOf, touchOf, type Touch } from './market.ts';

export interface PeriodicTakerParams {
  symbol: string;
  checkSec: number;
  slippageTicks: number;
}

export abstract class PeriodicTaker implements Strategy {
  protected port!: ExchangePort;
  protected tick!: TickSize;
  protected touch: Touch = {};
  /** Net position in lots, from the strategy's own fills. */
  protected position = 0;

  constructor(private readonly base: PeriodicTakerParams) {}

  async onStart(port: ExchangePort): Promise<void> {
    this.port = port;
    this.tick = await tickSizeOf(port, this.base.symbol);
    await port.subscribe(this.base.symbol, 'LEVEL_1');
    this.every();
  }

  onBook(book: BookUpdate): void {
    if (book.s === this.base.symbol && this.tick !== undefined) this.touch = touchOf(book, this.tick);
  }

  onOrderFeed(feed: OrderFeed): void {
    this.position += fillDelta(feed, this.base.symbol);
  }

  /** The periodic decision. */
  protected abstract check(): Promise<void>;

  /** Buys or sells `lots` with an IOC through the touch; resolves when acknowledged. */
  protected async cross(side: Side, lots: number): Promise<void> {
    const touch = side === 'B' ? this.touch.ask : this.touch.bid;
    if (touch === undefined || lots <= 0) return;
    const price = side === 'B' ? touch + this.base.slippageTicks : Math.max(1, touch - this.base.slippageTicks);
    await this.port.insertOrder({ symbol: this.base.symbol, price: this.tick.toPrice(price), quantity: lots, side, timeInForce: 'IOC' });
  }

  private every(): void {
    this.port.setTimer(this.base.checkSec * 1_000_000_000, () => {
      this.every();
      return this.check();
    });
  }
}
