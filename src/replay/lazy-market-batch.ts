import type { RecordBatch } from 'apache-arrow';
import { boolsInto, columnData, dictionaryWords, intsInto, mapCodesInto } from './arrow-columns.ts';
import { MarketBatchArrays } from './market-batch.ts';
import { SIDE_BUY, SIDE_NONE, SIDE_SELL, type MarketBatch, type StatsFields } from './market-records.ts';

/** Names of the Arrow columns behind the lazily decoded `MarketBatch` columns (`reset` absent: all 0). */
export interface LazyColumnNames {
  reset?: string;
  side: string;
  price: string;
  qty: string;
  bid: string;
  bidQty: string;
  ask: string;
  askQty: string;
}

type NumberKey = 'priceTicks' | 'qtyLots' | 'bidTicks' | 'bidQtyLots' | 'askTicks' | 'askQtyLots';
type FlagKey = 'reset' | 'side';

const SIDE_CODES: Record<string, number> = { B: SIDE_BUY, S: SIDE_SELL };

/**
 * A `MarketBatch` over one Arrow record batch. The decoder fills what every consumer reads
 * (times, symbols, kinds) for each batch; the other columns are decoded by their getters on
 * first access (a quote replay never pays for the book columns), into arrays reused from batch
 * to batch. With a row selection (`rows`: the source row of each output row) only those rows
 * are kept, as the event log keeps its market rows.
 */
export class LazyMarketBatch implements MarketBatch {
  length = 0;
  symbols: readonly string[] = [];
  symbol = new Int32Array(0);
  kind = new Uint8Array(0);
  recvNs = new BigInt64Array(0);
  exchNs = new BigInt64Array(0);
  tradeId: (row: number) => string | undefined = () => undefined;
  stats: (row: number) => StatsFields = () => ({});
  private readonly out = new MarketBatchArrays();
  /** Full-batch scratch for selections. */
  private readonly full = new MarketBatchArrays();
  private batch: RecordBatch | undefined;
  private rows: Int32Array | undefined;
  /** Bit per lazy column: decoded for the current batch. */
  private decoded = 0;

  constructor(private readonly names: LazyColumnNames) {}

  /** Points the batch at `batch` with `length` rows (all rows, or `rows` of it); fill the eager arrays next. */
  load(batch: RecordBatch, length: number, rows?: Int32Array): this {
    this.batch = batch;
    this.rows = rows;
    this.decoded = 0;
    this.length = length;
    const arrays = this.out.resize(length);
    this.symbol = arrays.symbol;
    this.kind = arrays.kind;
    this.recvNs = arrays.recvNs;
    this.exchNs = arrays.exchNs;
    return this;
  }

  get reset(): Uint8Array {
    return this.once(1, 'reset', (n, out) => {
      if (this.names.reset === undefined) out.fill(0, 0, n);
      else boolsInto(columnData(this.batch!, this.names.reset), n, out);
    });
  }
  get side(): Uint8Array {
    return this.once(2, 'side', (n, out) => {
      const side = columnData(this.batch!, this.names.side);
      mapCodesInto(side, n, dictionaryWords(side).map((w) => SIDE_CODES[w] ?? SIDE_NONE), SIDE_NONE, out);
    });
  }
  get priceTicks(): Float64Array {
    return this.ints(4, 'priceTicks', this.names.price);
  }
  get qtyLots(): Float64Array {
    return this.ints(8, 'qtyLots', this.names.qty);
  }
  get bidTicks(): Float64Array {
    return this.ints(16, 'bidTicks', this.names.bid);
  }
  get bidQtyLots(): Float64Array {
    return this.ints(32, 'bidQtyLots', this.names.bidQty);
  }
  get askTicks(): Float64Array {
    return this.ints(64, 'askTicks', this.names.ask);
  }
  get askQtyLots(): Float64Array {
    return this.ints(128, 'askQtyLots', this.names.askQty);
  }

  private ints(bit: number, key: NumberKey, name: string): Float64Array {
    return this.once(bit, key, (n, into) => intsInto(columnData(this.batch!, name), n, into));
  }

  /** Decodes a column once per batch: straight into the output, or the whole batch and then the selected rows. */
  private once<K extends NumberKey | FlagKey>(bit: number, key: K, decode: (n: number, into: MarketBatchArrays[K]) => void): MarketBatchArrays[K] {
    const out = this.out[key];
    if ((this.decoded & bit) !== 0) return out;
    this.decoded |= bit;
    const rows = this.rows;
    if (rows === undefined) {
      decode(this.length, out);
      return out;
    }
    const scratch = this.full.resize(this.batch!.numRows)[key];
    decode(this.batch!.numRows, scratch);
    for (let j = 0; j < this.length; j++) out[j] = scratch[rows[j]!]!;
    return out;
  }
}
