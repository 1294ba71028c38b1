import type { MarketBatch, StatsFields } from './market-records.ts';

/**
 * The typed arrays of a `MarketBatch`, owned by one reader and reused from batch to batch
 * (grown when a batch is larger): a pass over a file allocates them once.
 */
export class MarketBatchArrays implements MarketBatch {
  length = 0;
  symbols: readonly string[] = [];
  symbol = new Int32Array(0);
  kind = new Uint8Array(0);
  recvNs = new BigInt64Array(0);
  exchNs = new BigInt64Array(0);
  reset = new Uint8Array(0);
  side = new Uint8Array(0);
  priceTicks = new Float64Array(0);
  qtyLots = new Float64Array(0);
  bidTicks = new Float64Array(0);
  bidQtyLots = new Float64Array(0);
  askTicks = new Float64Array(0);
  askQtyLots = new Float64Array(0);
  tradeId: (row: number) => string | undefined = () => undefined;
  stats: (row: number) => StatsFields = () => ({});
  private capacity = 0;

  /** Makes room for `n` rows (contents are then undefined) and sets `length`. */
  resize(n: number): this {
    if (n > this.capacity) {
      const c = Math.max(n, 2 * this.capacity);
      this.capacity = c;
      this.symbol = new Int32Array(c);
      this.kind = new Uint8Array(c);
      this.recvNs = new BigInt64Array(c);
      this.exchNs = new BigInt64Array(c);
      this.reset = new Uint8Array(c);
      this.side = new Uint8Array(c);
      this.priceTicks = new Float64Array(c);
      this.qtyLots = new Float64Array(c);
      this.bidTicks = new Float64Array(c);
      this.bidQtyLots = new Float64Array(c);
      this.askTicks = new Float64Array(c);
      this.askQtyLots = new Float64Array(c);
    }
    this.length = n;
    return this;
  }
}
