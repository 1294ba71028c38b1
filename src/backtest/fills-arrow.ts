import { Bool, Int32, Table, Utf8, makeVector, tableToIPC, vectorFromArray } from 'apache-arrow';
import { formatMoney } from '../core/money.ts';
import type { FillRecord } from './recorder.ts';

/**
 * The fills as an Arrow IPC file (the random-access format): `ts_ns` int64, then the columns
 * of fills.csv. Money and prices are exact decimal text (Utf8), as in the CSV.
 */
export function fillsArrow(fills: readonly FillRecord[]): Uint8Array {
  const text = (f: (x: FillRecord) => string) => vectorFromArray(fills.map(f), new Utf8());
  const table = new Table({
    ts_ns: makeVector(BigInt64Array.from(fills.map((f) => f.tNs))),
    symbol: text((f) => f.symbol),
    order_id: text((f) => f.orderId),
    trade_id: text((f) => f.tradeId),
    side: text((f) => f.side),
    price: text((f) => f.price),
    qty: vectorFromArray(fills.map((f) => f.qty), new Int32()),
    notional: text((f) => formatMoney(f.notional)),
    fee: text((f) => formatMoney(f.fee)),
    realized_pnl: text((f) => formatMoney(f.realized)),
    maker: vectorFromArray(fills.map((f) => f.maker), new Bool()),
    liquidation: vectorFromArray(fills.map((f) => f.liquidation), new Bool()),
    position_after: vectorFromArray(fills.map((f) => f.positionAfter), new Int32()),
  });
  return tableToIPC(table, 'file');
}
