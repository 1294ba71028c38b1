import { closeSync, openSync, writeSync } from 'node:fs';
import { TickSize } from '../core/price.ts';
import { STATS_INT, STATS_TEXT } from './market-arrow-columns.ts';
import { unitsOf } from './market-arrow.ts';
import type { MarketRecord, SymbolUnits } from './market-records.ts';

/**
 * Normalized market records as CSV (`perpsim convert --to csv`): the Arrow table's columns,
 * with prices and quantities as exact decimal text in the symbol's units instead of ticks and
 * lots (times stay integer ns). Empty where a kind does not use a column.
 */

export const MARKET_CSV_HEADER = [
  'recv_ns', 'exch_ns', 'symbol', 'kind', 'reset', 'side', 'price', 'qty', 'trade_id', 'bid_price', 'bid_qty', 'ask_price', 'ask_qty',
  ...STATS_TEXT.map(([, name]) => name), ...STATS_INT.map(([, name]) => name), 'funding_ts_ns',
];

const FLUSH_LINES = 16_384;

/** Writes records to a CSV file, a block of lines at a time. */
export class MarketCsvWriter {
  private readonly fd: number;
  private lines: string[] = [];
  private readonly units = new Map<string, { tick: TickSize; lot: TickSize }>();
  rows = 0;

  constructor(
    readonly path: string,
    private readonly instruments: Readonly<Record<string, SymbolUnits>>,
  ) {
    this.fd = openSync(path, 'w');
    this.lines.push(MARKET_CSV_HEADER.join(','));
  }

  add(r: MarketRecord): void {
    const u = this.unitsOf(r.symbol);
    const price = (ticks: number | undefined) => (ticks === undefined ? '' : u.tick.toPrice(ticks));
    const qty = (lots: number | undefined) => (lots === undefined ? '' : u.lot.toPrice(lots));
    const cells: string[] = [String(r.recvNs), String(r.exchNs), quote(r.symbol), r.kind];
    if (r.kind === 'book') {
      const level = r.side !== undefined;
      cells.push(r.reset ? 'true' : 'false', r.side ?? '', level ? price(r.priceTicks) : '', level ? qty(r.qtyLots) : '', '', '', '', '', '');
    } else if (r.kind === 'trade') {
      cells.push('', r.side ?? '', price(r.priceTicks), qty(r.qtyLots), quote(r.tradeId ?? ''), '', '', '', '');
    } else if (r.kind === 'quote') {
      cells.push('', '', '', '', '', price(r.bidTicks), qty(r.bidQtyLots), price(r.askTicks), qty(r.askQtyLots));
    } else {
      cells.push('', '', '', '', '', '', '', '', '');
    }
    if (r.kind === 'stats') {
      for (const [key] of STATS_TEXT) cells.push(r[key] ?? '');
      for (const [key] of STATS_INT) cells.push(r[key] === undefined ? '' : qty(r[key]));
      cells.push(r.fundingTsNs === undefined ? '' : String(r.fundingTsNs));
    } else {
      for (let i = 0; i < STATS_TEXT.length + STATS_INT.length + 1; i++) cells.push('');
    }
    this.lines.push(cells.join(','));
    this.rows++;
    if (this.lines.length >= FLUSH_LINES) this.flush();
  }

  flush(): void {
    if (this.lines.length === 0) return;
    writeSync(this.fd, this.lines.join('\n') + '\n');
    this.lines = [];
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }

  private unitsOf(symbol: string): { tick: TickSize; lot: TickSize } {
    let u = this.units.get(symbol);
    if (u === undefined) {
      const given = unitsOf(this.instruments, symbol);
      if (given === undefined) throw new RangeError(`${this.path}: symbol ${symbol} has no units (give its tick and lot size)`);
      u = { tick: new TickSize(given.tickSize), lot: new TickSize(given.lotSize) };
      this.units.set(symbol, u);
    }
    return u;
  }
}

/** A CSV field, quoted when it holds a comma, quote or line break. */
function quote(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
