import { describe, expect, it } from 'vitest';
import { Mr as AccountMr, Tm as AccountTm } from '../../src/venue/account.ts';
import { Mr as OpenMr, Rec as OpenRec } from '../../src/venue/account-open-orders.ts';
import * as R from '../../src/venue/account-rows.ts';
import { Rec as FlowRec } from '../../src/venue/trade-fills.ts';
import * as L from '../../src/venue/order-record.ts';
import { Rec as UndoRec } from '../../src/venue/undo.ts';
import { T } from '../../src/venue/trade-record.ts';
import { STATS_SAVED } from '../../src/market/session-stats.ts';

/**
 * The hot account files write the market row's layout, the margin pre-check's terms and the
 * order record's fields they read as const-enum literals of their own (an imported module
 * constant costs V8 a load and a check at every use in optimized code). If one drifted from
 * account-rows.ts or order-record.ts, an account would read and write the wrong numbers.
 */
describe('the layouts the hot files of a fill write (accounts, the fill, its undo, the trade row)', () => {
  it("is account-rows.ts's in account.ts: the row's numbers and the pre-check's terms", () => {
    expect([AccountMr.Count, AccountMr.Lots, AccountMr.ImNotional, AccountMr.Traded, AccountMr.Net, AccountMr.Cost, AccountMr.Realized, AccountMr.Taker, AccountMr.Maker, AccountMr.PerMarket]).toEqual([
      R.Mr.Count, R.Mr.Lots, R.Mr.ImNotional, R.Mr.Traded, R.Mr.Net, R.Mr.Cost, R.Mr.Realized, R.Mr.Taker, R.Mr.Maker, R.Mr.PerMarket,
    ]);
    expect([AccountTm.Cash, AccountTm.OpenImBig, AccountTm.OrderIm]).toEqual([R.Tm.Cash, R.Tm.OpenImBig, R.Tm.OrderIm]);
  });

  it("is account-rows.ts's and order-record.ts's in account-open-orders.ts", () => {
    expect([OpenMr.Count, OpenMr.Lots, OpenMr.Saved, OpenMr.ImNotional, OpenMr.Traded, OpenMr.SavedPosition, OpenMr.PerMarket]).toEqual([
      R.Mr.Count, R.Mr.Lots, R.Mr.Saved, R.Mr.ImNotional, R.Mr.Traded, R.Mr.SavedPosition, R.Mr.PerMarket,
    ]);
    expect([OpenRec.Bits, OpenRec.Price, OpenRec.Qty, OpenRec.Filled, OpenRec.ImBig]).toEqual([L.F_BITS, L.F_PRICE, L.F_QTY, L.F_FILLED, L.B_IM_BIG]);
  });

  it('leaves every number of a row its own place, the pending counters last and in copyPending\'s order', () => {
    const all = [R.Mr.Count, R.Mr.Lots, R.Mr.Saved, R.Mr.ImNotional, R.Mr.Traded, R.Mr.Net, R.Mr.Cost, R.Mr.SavedPosition, R.Mr.Realized, R.Mr.Taker, R.Mr.Maker];
    expect([...all].sort((a, b) => a - b)).toEqual(Array.from({ length: R.Mr.PerMarket }, (_, i) => i));
    expect([R.Mr.Realized + 1, R.Mr.Realized + 2]).toEqual([R.Mr.Taker, R.Mr.Maker]);
    expect(R.Mr.Realized + R.PENDING_SAVED).toBe(R.Mr.PerMarket); // last: they end the row, all PENDING_SAVED of them
  });

  it("is order-record.ts's in a fill (trade-fills.ts) and in the record's undo (undo.ts)", () => {
    expect([FlowRec.User, FlowRec.Bits, FlowRec.Qty, FlowRec.Filled, FlowRec.Stride, FlowRec.Sell, FlowRec.ImBig, FlowRec.StateShift, FlowRec.StPartial, FlowRec.StFilled]).toEqual([
      L.F_USER, L.F_BITS, L.F_QTY, L.F_FILLED, L.STRIDE, L.B_SELL, L.B_IM_BIG, L.STATE_SHIFT, L.ST_PARTIAL, L.ST_FILLED,
    ]);
    expect([UndoRec.Bits, UndoRec.Saved, UndoRec.Stride, UndoRec.ImBig, UndoRec.RecordSaved]).toEqual([L.F_BITS, L.F_SAVED, L.STRIDE, L.B_IM_BIG, L.RECORD_SAVED]);
  });

  it('gives a trade row its session stats last, all of them (trade-record.ts)', () => {
    expect(T.Row).toBe(T.Stats + STATS_SAVED);
    expect([T.Number, T.Sec, T.Nanos, T.Price, T.Qty, T.Sell, T.Maker, T.Taker, T.MakerUser, T.TakerUser]).toEqual(Array.from({ length: T.Stats }, (_, i) => i));
  });
});
