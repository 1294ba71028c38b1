/**
 * Mark price (decisions.md, "Mark price, funding, settlement"): the median of the index price,
 * the best bid and the best ask, falling back to the index when the book is one-sided or empty.
 *
 * All prices are integer ticks. The result is always one of the inputs, so it is an integer
 * tick count too. A crossed book (bid > ask) is not rejected: the median is still taken.
 *
 * @param indexTicks Index price, integer ticks.
 * @param bestBidTicks Best bid, integer ticks, or undefined when there are no bids.
 * @param bestAskTicks Best ask, integer ticks, or undefined when there are no asks.
 * @returns Mark price in ticks.
 * @throws RangeError when a given price is not a safe integer.
 */
export function markPriceTicks(
  indexTicks: number,
  bestBidTicks: number | undefined,
  bestAskTicks: number | undefined,
): number {
  checkTicks('indexTicks', indexTicks);
  if (bestBidTicks !== undefined) checkTicks('bestBidTicks', bestBidTicks);
  if (bestAskTicks !== undefined) checkTicks('bestAskTicks', bestAskTicks);
  if (bestBidTicks === undefined || bestAskTicks === undefined) return indexTicks;
  return medianOfThree(indexTicks, bestBidTicks, bestAskTicks);
}

/** The median of three numbers (the middle one after sorting); ties are fine. */
export function medianOfThree(a: number, b: number, c: number): number {
  return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
}

function checkTicks(name: string, value: number): void {
  if (!Number.isSafeInteger(value)) throw new RangeError(`markPriceTicks: ${name} ${value} is not a safe integer`);
}
