import { describe, expect, it } from 'vitest';
import { BookSampler } from '../../src/agents/book-sampler.ts';
import type { Top } from '../../src/agents/top-of-book.ts';
import type { ExchangePort } from '../../src/strategy/exchange-port.ts';
import type { TopTicks } from '../../src/strategy/tick-feeds.ts';
import { TickSize } from '../../src/core/price.ts';

/** A port that only records the sampler's one-way subscriptions. */
function recordingPort(calls: string[]): ExchangePort {
  const oneWay = { subscribe: (s: string, level: string) => calls.push(`sub ${s} ${level}`), unsubscribe: (s: string) => calls.push(`unsub ${s}`) };
  return { oneWay } as unknown as ExchangePort;
}

const top = (s: string, bidTicks: number): TopTicks => ({ s, bidTicks, bidLots: 1, askTicks: bidTicks + 1, askLots: 2 });

describe('BookSampler', () => {
  it('subscribes once per look, answers every waiting callback with the first book, and looks again from inside a callback', () => {
    const calls: string[] = [];
    const sampler = new BookSampler(recordingPort(calls), () => new TickSize('0.5'));
    const seen: string[] = [];
    const note = (tag: string) => (t: Top) => seen.push(`${tag}:${t.bidTicks}`);
    sampler.onTop(top('X', 1)); // nobody looking: ignored
    sampler.sample('X', note('a'));
    sampler.sample('X', (t) => {
      note('b')(t);
      sampler.sample('X', note('c')); // a new look, answered by the next book only
    });
    sampler.sample('Y', note('y'));
    sampler.onTop(top('X', 10));
    sampler.onTop(top('X', 11));
    sampler.onTop(top('Y', 20));
    sampler.onTop(top('Y', 21)); // Y answered already
    sampler.onTop(top('X', 12)); // c answered already
    expect(seen).toEqual(['a:10', 'b:10', 'c:11', 'y:20']);
    expect(calls).toEqual(['sub X LEVEL_1', 'sub Y LEVEL_1', 'unsub X', 'sub X LEVEL_1', 'unsub X', 'unsub Y']);
  });
});
