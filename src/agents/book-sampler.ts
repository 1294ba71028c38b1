import type { TickSize } from '../core/price.ts';
import type { ExchangePort } from '../strategy/exchange-port.ts';
import type { BookUpdate } from '../wire/market-data.ts';
import { TopOfBook, type Top } from './top-of-book.ts';
import type { TopTicks } from '../strategy/tick-feeds.ts';

/**
 * Looks at a symbol's top of book on demand instead of following every update: `sample`
 * subscribes at LEVEL_1, hands the first book that arrives to the waiting callbacks, and
 * unsubscribes again. An agent that only needs a price now and then (a noise trader about to
 * trade, a signal sampled every few seconds) costs a handful of messages per look rather than
 * one per book change. The agent forwards its `onBook` calls to `onBook` here.
 */
export class BookSampler {
  private readonly top: TopOfBook;
  private readonly waiting = new Map<string, ((top: Top) => void)[]>();

  constructor(
    private readonly port: ExchangePort,
    tickOf: (symbol: string) => TickSize,
  ) {
    this.top = new TopOfBook(tickOf);
  }

  /** Calls `fn` with the top of `symbol` once a fresh book has arrived. */
  sample(symbol: string, fn: (top: Top) => void): void {
    const queue = this.waiting.get(symbol);
    if (queue !== undefined) {
      queue.push(fn);
      return;
    }
    this.waiting.set(symbol, [fn]);
    const oneWay = this.port.oneWay;
    if (oneWay !== undefined) oneWay.subscribe(symbol, 'LEVEL_1');
    else void this.port.subscribe(symbol, 'LEVEL_1');
  }

  /** Takes a book update delivered to the agent. */
  onBook(book: BookUpdate): void {
    if (this.waiting.has(book.s)) this.onTop(this.top.update(book));
  }

  /** Takes a top of book in ticks delivered to the agent (`TickFeeds.onTop`). */
  onTop(top: TopTicks): void {
    const queue = this.waiting.get(top.s);
    if (queue === undefined) return;
    this.waiting.delete(top.s);
    const oneWay = this.port.oneWay;
    if (oneWay !== undefined) oneWay.unsubscribe(top.s);
    else void this.port.unsubscribe(top.s);
    this.top.set(top);
    for (const fn of queue) fn(top);
  }
}
