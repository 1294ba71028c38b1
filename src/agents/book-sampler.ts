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
  /**
   * Per symbol, kept for the run: whether a look is pending and its callbacks. Agents look all
   * the time, and a map entry and an array made and dropped per look were a measurable share.
   */
  private readonly looks = new Map<string, Look>();

  constructor(
    private readonly port: ExchangePort,
    tickOf: (symbol: string) => TickSize,
  ) {
    this.top = new TopOfBook(tickOf);
  }

  /** Calls `fn` with the top of `symbol` once a fresh book has arrived. */
  sample(symbol: string, fn: (top: Top) => void): void {
    let look = this.looks.get(symbol);
    if (look === undefined) this.looks.set(symbol, (look = { pending: false, queue: [], spare: [] }));
    look.queue.push(fn);
    if (look.pending) return;
    look.pending = true;
    const oneWay = this.port.oneWay;
    if (oneWay !== undefined) oneWay.subscribe(symbol, 'LEVEL_1');
    else void this.port.subscribe(symbol, 'LEVEL_1');
  }

  /** Takes a book update delivered to the agent. */
  onBook(book: BookUpdate): void {
    if (this.looks.get(book.s)?.pending === true) this.onTop(this.top.update(book));
  }

  /** Takes a top of book in ticks delivered to the agent (`TickFeeds.onTop`). */
  onTop(top: TopTicks): void {
    const look = this.looks.get(top.s);
    if (look === undefined || !look.pending) return;
    look.pending = false;
    // The callbacks may look again: that look collects into the other array.
    const queue = look.queue;
    look.queue = look.spare;
    look.spare = queue;
    const oneWay = this.port.oneWay;
    if (oneWay !== undefined) oneWay.unsubscribe(top.s);
    else void this.port.unsubscribe(top.s);
    this.top.set(top);
    for (let i = 0; i < queue.length; i++) queue[i]!(top);
    queue.length = 0;
  }
}

/** A symbol's look: pending between `sample` and the book that answers it. */
interface Look {
  pending: boolean;
  queue: ((top: Top) => void)[];
  spare: ((top: Top) => void)[];
}
