/**
 * An async iterable of items that arrive in chunks (one per block of decoded file bytes).
 *
 * Iterating it item by item is the ordinary API; `chunks()` hands out whole arrays for
 * consumers that want to skip the per-item promise (a `for await` per item costs about as much
 * as decoding a CSV row). Each iteration opens the source anew (reads the file again).
 */
export class ChunkedStream<T> implements AsyncIterable<T> {
  /** @param open starts a fresh pass over the source; chunks may be empty, never reused. */
  constructor(private readonly open: () => AsyncIterable<T[]>) {}

  /** The items in arrays as they are decoded; an array is never reused by the stream. */
  chunks(): AsyncIterable<T[]> {
    return this.open();
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    const source = this.open()[Symbol.asyncIterator]();
    let chunk: T[] = [];
    let at = 0;
    const refill = async (): Promise<IteratorResult<T>> => {
      for (;;) {
        const r = await source.next();
        if (r.done === true) return { done: true, value: undefined };
        if (r.value.length > 0) {
          chunk = r.value;
          at = 1;
          return { done: false, value: chunk[0]! };
        }
      }
    };
    return {
      // Items already decoded are handed out without awaiting the source again.
      next: () => (at < chunk.length ? Promise.resolve({ done: false, value: chunk[at++]! }) : refill()),
      return: async () => {
        chunk = [];
        await source.return?.();
        return { done: true, value: undefined };
      },
    };
  }
}
