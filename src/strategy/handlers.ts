/**
 * Adds `handler` to a port's handler list (`onOrderFeed`, `onMarketData`, …) and returns the
 * function that removes it again — the registration every `ExchangePort` offers.
 */
export function addHandler<T>(list: T[], handler: T): () => void {
  list.push(handler);
  return () => {
    const i = list.indexOf(handler);
    if (i >= 0) list.splice(i, 1);
  };
}
