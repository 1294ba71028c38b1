import type { Side } from '../../src/core/types.ts';

/**
 * A FIFO position in bigint tick·lots, written the plain way: the oracle the venue's number
 * paths (Position's fast path, the fill-money counters) are checked against.
 */
export class BigintPosition {
  net = 0n;
  buy = 0n;
  sell = 0n;
  realized = 0n;
  openCost = 0n;
  private lots: { price: bigint; size: bigint }[] = [];
  /** Open lots (FIFO entries not yet closed). */
  get lotCount(): number {
    return this.lots.length;
  }
  fill(side: Side, priceTicks: number, lots: number): bigint {
    const p = BigInt(priceTicks);
    let rest = BigInt(lots);
    if (side === 'B') this.buy += p * rest;
    else this.sell += p * rest;
    const dir = side === 'B' ? 1n : -1n;
    let realized = 0n;
    while (rest > 0n && this.net !== 0n && (this.net > 0n ? 1n : -1n) !== dir) {
      const lot = this.lots[0]!;
      const closed = lot.size < rest ? lot.size : rest;
      realized += (dir === -1n ? p - lot.price : lot.price - p) * closed;
      this.openCost -= lot.price * closed;
      this.net += dir * closed;
      rest -= closed;
      if (closed === lot.size) this.lots.shift();
      else lot.size -= closed;
    }
    if (rest > 0n) {
      this.lots.push({ price: p, size: rest });
      this.openCost += p * rest;
      this.net += dir * rest;
    }
    this.realized += realized;
    return realized;
  }
}
