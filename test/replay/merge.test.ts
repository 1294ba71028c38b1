import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergeByTime, type MergeSource } from '../../src/replay/merge.ts';
import { readTardisQuotes, readTardisTrades } from '../../src/replay/tardis-csv.ts';
import { sharedFolder } from './shared-data.ts';

interface Item {
  t: bigint;
  id: string;
}
const items = (name: string, ...times: number[]): Item[] => times.map((t, i) => ({ t: BigInt(t), id: `${name}${i}` }));

async function* slowly<T>(values: T[], delayMs: number): AsyncGenerator<T> {
  for (const v of values) {
    await new Promise((r) => setTimeout(r, delayMs));
    yield v;
  }
}

async function ids(sources: MergeSource<Item>[]): Promise<string[]> {
  const out: string[] = [];
  for await (const m of mergeByTime(sources, (x) => x.t)) out.push(m.item.id);
  return out;
}

describe('mergeByTime', () => {
  it('orders by time, then stream priority, keeping each stream in its own order', async () => {
    const a = items('a', 1, 5, 5, 9);
    const b = items('b', 5, 5, 6);
    const c = items('c', 0, 5);
    // b has the lowest priority number, so at t=5 it goes first; a and c share priority 2: input order.
    expect(await ids([{ items: a, priority: 2 }, { items: b, priority: 1 }, { items: c, priority: 2 }])).toEqual([
      'c0', 'a0', 'b0', 'b1', 'a1', 'a2', 'c1', 'b2', 'a3',
    ]);
  });

  it('gives the same order however slowly each source delivers (ties never depend on timing)', async () => {
    const a = items('a', 1, 2, 2, 3, 3, 3);
    const b = items('b', 2, 2, 3, 4);
    const fast = await ids([{ items: a, priority: 0 }, { items: b, priority: 0 }]);
    const slow = await ids([{ items: slowly(a, 3), priority: 0 }, { items: slowly(b, 0), priority: 0 }]);
    expect(slow).toEqual(fast);
    expect(fast).toEqual(['a0', 'a1', 'a2', 'b0', 'b1', 'a3', 'a4', 'a5', 'b2', 'b3']);
  });

  it('reports each item with its stream and its index within the stream', async () => {
    const out = [];
    for await (const m of mergeByTime([{ items: items('a', 1, 3), priority: 0 }, { items: items('b', 2), priority: 0 }], (x) => x.t)) {
      out.push([m.stream, m.index, m.tsNs]);
    }
    expect(out).toEqual([[0, 0, 1n], [1, 0, 2n], [0, 1, 3n]]);
  });

  it('refuses a stream that goes back in time, naming it', async () => {
    await expect(ids([{ items: items('a', 1, 3, 2), priority: 0, name: 'quotes.csv' }])).rejects.toThrowError(
      'quotes.csv: item 2 at 2 ns comes before the previous item\'s 3 ns: a merged stream must be in time order',
    );
  });

  it('closes every source when the consumer stops early', async () => {
    let closed = 0;
    async function* counted(values: Item[]): AsyncGenerator<Item> {
      try {
        yield* values;
      } finally {
        closed++;
      }
    }
    for await (const m of mergeByTime([{ items: counted(items('a', 1, 2)), priority: 0 }, { items: counted(items('b', 1, 2)), priority: 1 }], (x) => x.t)) {
      if (m.item.id === 'b0') break;
    }
    expect(closed).toBe(2);
  });
});

const tardis = sharedFolder('tardis-nautilus-samples/2020-02-22_binance-futures_BTCUSDT', 'mergeByTime on real tardis quotes and trades');

describe.skipIf(tardis.missing)(tardis.title, () => {
  it('interleaves every quote and trade batch by receipt time, trades first on a tie', async () => {
    const units = { tickSize: '0.01', lotSize: '0.001' };
    const quotes = readTardisQuotes(join(tardis.dir, 'quotes.csv'), units);
    const trades = readTardisTrades(join(tardis.dir, 'trades.csv'), units);
    const counts = [0, 0];
    let last = -1n;
    let lastStream = -1;
    for await (const m of mergeByTime<{ localTsNs: bigint; rows: unknown[] }>([{ items: quotes, priority: 1 }, { items: trades, priority: 0 }], (b) => b.localTsNs)) {
      if (m.tsNs < last || (m.tsNs === last && m.stream === 1 && lastStream === 0)) throw new Error(`out of order at ${m.tsNs}`);
      last = m.tsNs;
      lastStream = m.stream;
      counts[m.stream]! += m.item.rows.length;
    }
    expect(counts).toEqual([9999, 9999]);
  });
});
