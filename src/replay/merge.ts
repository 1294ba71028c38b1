import { ReplayError } from './replay-error.ts';

/**
 * Deterministic k-way merge of time-ordered streams, as NautilusTrader merges its data
 * streams: items come out by (time, stream priority, stream position, index within the
 * stream). Equal times never depend on I/O timing or on the order sources happen to resolve:
 * the lower priority goes first, equal priorities in the order the sources were given, and
 * one stream's items always keep their own order.
 */

/** One input of the merge. */
export interface MergeSource<T> {
  /** Items in non-decreasing time (checked: an item earlier than its predecessor is an error). */
  items: AsyncIterable<T> | Iterable<T>;
  /** Among equal times, lower priorities come first. */
  priority: number;
  /** Names the stream in errors (default `stream <position>`). */
  name?: string;
}

/** An item with where it came from. */
export interface Merged<T> {
  item: T;
  /** Position of its source in the `sources` array. */
  stream: number;
  /** 0-based index of the item within its stream. */
  index: number;
  /** Its time as given by `timeOf`. */
  tsNs: bigint;
}

interface Head<T> {
  merged: Merged<T>;
  priority: number;
  iterator: AsyncIterator<T> | Iterator<T>;
}

/**
 * Merges `sources` by `timeOf(item)` (ns). Sources are pulled one item ahead, one at a time and
 * in a fixed order, so the output is a pure function of the inputs. Closing the output early
 * closes every source.
 */
export async function* mergeByTime<T>(sources: readonly MergeSource<T>[], timeOf: (item: T) => bigint): AsyncGenerator<Merged<T>> {
  const heap: Head<T>[] = [];
  const iterators = sources.map((s) =>
    Symbol.asyncIterator in s.items ? s.items[Symbol.asyncIterator]() : (s.items as Iterable<T>)[Symbol.iterator](),
  );
  const advance = async (stream: number, index: number, previousNs: bigint | undefined): Promise<void> => {
    const iterator = iterators[stream]!;
    const r = await iterator.next();
    if (r.done === true) return;
    const tsNs = timeOf(r.value);
    if (previousNs !== undefined && tsNs < previousNs) {
      const name = sources[stream]!.name ?? `stream ${stream}`;
      throw new ReplayError(name, undefined, undefined, `item ${index} at ${tsNs} ns comes before the previous item's ${previousNs} ns: a merged stream must be in time order`);
    }
    push(heap, { merged: { item: r.value, stream, index, tsNs }, priority: sources[stream]!.priority, iterator });
  };
  try {
    for (let s = 0; s < sources.length; s++) await advance(s, 0, undefined);
    while (heap.length > 0) {
      const top = pop(heap);
      yield top.merged;
      await advance(top.merged.stream, top.merged.index + 1, top.merged.tsNs);
    }
  } finally {
    for (const iterator of iterators) await iterator.return?.();
  }
}

function before<T>(a: Head<T>, b: Head<T>): boolean {
  if (a.merged.tsNs !== b.merged.tsNs) return a.merged.tsNs < b.merged.tsNs;
  if (a.priority !== b.priority) return a.priority < b.priority;
  if (a.merged.stream !== b.merged.stream) return a.merged.stream < b.merged.stream;
  return a.merged.index < b.merged.index;
}

function push<T>(heap: Head<T>[], head: Head<T>): void {
  let i = heap.length;
  heap.push(head);
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!before(heap[i]!, heap[parent]!)) break;
    [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
    i = parent;
  }
}

function pop<T>(heap: Head<T>[]): Head<T> {
  const top = heap[0]!;
  const last = heap.pop()!;
  if (heap.length > 0) {
    heap[0] = last;
    for (let i = 0; ; ) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && before(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && before(heap[r]!, heap[m]!)) m = r;
      if (m === i) break;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  }
  return top;
}
