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
  private readonly tops = new Map<string, KeptTop>();

  constructor(private readonly tickOf: (symbol: string) => TickSize) {}

  /** Takes a book update; returns the symbol's new top. */
  update(book: BookUpdate): TopTicks {
    return this.set(topOfBook(book, this.textTicks));
  }

  /**
   * Takes a top already in ticks (an in-process port's, `TickFeeds.onTop`, valid during its
   * call only): copied into the symbol's kept top (one object per symbol, updated in place:
   * read a top when it is handed over, do not keep it), which it returns.
   */
  set(top: TopTicks): TopTicks {
    const kept = this.tops.get(top.s);
    if (kept === undefined) {
      const first: KeptTop = { s: top.s, bidTicks: top.bidTicks, bidLots: top.bidLots, askTicks: top.askTicks, askLots: top.askLots };
      this.tops.set(top.s, first);
      return first;
    }
    kept.bidTicks = top.bidTicks;
    kept.bidLots = top.bidLots;
    kept.askTicks = top.askTicks;
    kept.askLots = top.askLots;
    return kept;
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

/** A symbol's top as kept (updated in place by `set`). */
type KeptTop = Top & { readonly s: string };

const EMPTY: Top = Object.freeze({ bidTicks: undefined, bidLots: 0, askTicks: undefined, askLots: 0 });
