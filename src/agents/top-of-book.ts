import type { TickSize } from '../core/price.ts';
import type { BookUpdate } from '../wire/market-data.ts';
import { topOfBook, type TopTicks } from '../strategy/tick-feeds.ts';

/** Best bid and ask of one symbol, in ticks and lots, from LEVEL_1 (or deeper) updates. */
export interface Top {
  bidTicks: number | undefined;
  bidLots: number;
  askTicks: number | undefined;
  askLots: number;
}

/** The latest top of book per symbol, as market data delivered it. */
export class TopOfBook {
  private readonly tops = new Map<string, Top>();

  constructor(private readonly tickOf: (symbol: string) => TickSize) {}

  /** Takes a book update; returns the symbol's new top. */
  update(book: BookUpdate): TopTicks {
    return this.set(topOfBook(book, this.textTicks));
  }

  /** Takes a top already in ticks (an in-process port's, `TickFeeds.onTop`); returns it. */
  set(top: TopTicks): TopTicks {
    this.tops.set(top.s, top);
    return top;
  }

  private readonly textTicks = (symbol: string, priceText: string): number | undefined => this.tickOf(symbol).toTicks(priceText);

  /** The latest top of `symbol` (empty before the first update). */
  get(symbol: string): Top {
    return this.tops.get(symbol) ?? EMPTY;
  }

  /** Mid price in ticks (a float), or undefined when a side is empty. */
  midTicks(symbol: string): number | undefined {
    const t = this.get(symbol);
    return t.bidTicks === undefined || t.askTicks === undefined ? undefined : (t.bidTicks + t.askTicks) / 2;
  }
}

const EMPTY: Top = Object.freeze({ bidTicks: undefined, bidLots: 0, askTicks: undefined, askLots: 0 });
