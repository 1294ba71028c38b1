import { describe, expect, it } from 'vitest';
import { Mr as AccountMr, Tm as AccountTm } from '../../src/venue/account.ts';
import { Mr as OpenMr, Rec as OpenRec } from '../../src/venue/account-open-orders.ts';
import * as R from '../../src/venue/account-rows.ts';
import { Rec as FlowRec } from '../../src/venue/trade-fills.ts';
import * as L from '../../src/venue/order-record.ts';
import { Rec as UndoRec } from '../../src/venue/undo.ts';
import { T } from '../../src/venue/trade-record.ts';
import { STATS_SAVED } from '../../src/market/session-stats.ts';
import { Pn } from '../../src/risk/position.ts';
import { Pn as BoundsPn } from '../../src/risk/position-bounds.ts';

/**
 * The hot account files write the market row's layout, the margin pre-check's terms and the
 * order record's fields they read as const-enum literals of their own (an imported module
 * constant costs V8 a load and a check at every use in optimized code). If one drifted from
 * account-rows.ts or order-record.ts, an account would read and write the wrong numbers.
 */
describe('the layouts the hot files of a fill write (accounts, the fill, its undo, the trade row)', () => {
  it("is account-rows.ts's in account.ts: the row's numbers and the pre-check's terms", () => {
    expect([AccountMr.Count, AccountMr.ImNotional, AccountMr.Realized, AccountMr.Taker, AccountMr.Maker, AccountMr.Position, AccountMr.FillEnd, AccountMr.PerMarket]).toEqual([
      R.Mr.Count, R.Mr.ImNotional, R.Mr.Realized, R.Mr.Taker, R.Mr.Maker, R.Mr.Position, R.Mr.FillEnd, R.Mr.PerMarket,
    ]);
    expect([AccountTm.Cash, AccountTm.OpenImBig, AccountTm.OrderIm]).toEqual([R.Tm.Cash, R.Tm.OpenImBig, R.Tm.OrderIm]);
  });

  it("is account-rows.ts's and order-record.ts's in account-open-orders.ts", () => {
    expect([OpenMr.Count, OpenMr.Lots, OpenMr.Saved, OpenMr.ImNotional, OpenMr.BuyLots, OpenMr.SellLots, OpenMr.SavedPosition, OpenMr.PerMarket]).toEqual([
      R.Mr.Count, R.Mr.Lots, R.Mr.Saved, R.Mr.ImNotional, R.Mr.BuyLots, R.Mr.SellLots, R.Mr.SavedPosition, R.Mr.PerMarket,
    ]);
    expect([OpenRec.Bits, OpenRec.Price, OpenRec.Qty, OpenRec.Filled, OpenRec.ImBig]).toEqual([L.F_BITS, L.F_PRICE, L.F_QTY, L.F_FILLED, L.B_IM_BIG]);
  });

  it("holds the position's numbers (position.ts's Pn) where the row says, the order checks' among them", () => {
    expect([R.Mr.Net, R.Mr.Cost, R.Mr.BuyLots, R.Mr.SellLots]).toEqual([R.Mr.Position + Pn.Net, R.Mr.Position + Pn.Cost, R.Mr.Position + Pn.BuyLots, R.Mr.Position + Pn.SellLots]);
    expect([Pn.Net, Pn.Cost, Pn.BuyLots, Pn.SellLots, Pn.Version, Pn.BuyN, Pn.SellN, Pn.RealizedN]).toEqual(Array.from({ length: Pn.Count }, (_, k) => k));
    expect([BoundsPn.Cost, BoundsPn.BuyN, BoundsPn.SellN, BoundsPn.RealizedN]).toEqual([Pn.Cost, Pn.BuyN, Pn.SellN, Pn.RealizedN]); // position-bounds.ts's copy
  });

  it("leaves every number of a row its own place, a usual fill's in one run before the marks, the pending counters in copyPending's order", () => {
    const own = [R.Mr.Count, R.Mr.Lots, R.Mr.ImNotional, R.Mr.Realized, R.Mr.Taker, R.Mr.Maker, R.Mr.Saved, R.Mr.SavedPosition];
    const position = Array.from({ length: Pn.Count }, (_, k) => R.Mr.Position + k);
    expect([...own, ...position].sort((a, b) => a - b)).toEqual(Array.from({ length: R.Mr.PerMarket }, (_, i) => i));
    expect([R.Mr.Realized + 1, R.Mr.Realized + 2]).toEqual([R.Mr.Taker, R.Mr.Maker]);
    expect([R.Mr.Count + 1, R.Mr.Count + 2]).toEqual([R.Mr.Lots, R.Mr.ImNotional]); // saveOpenRow's run of MONEY_SAVED
    expect(R.MONEY_SAVED).toBe(3);
    // The fill's run: from the row's start to the position's end, the marks after it (not restored).
    expect([R.Mr.Count, R.Mr.Position + Pn.Count]).toEqual([0, R.Mr.FillEnd]);
    expect(R.Mr.FillEnd).toBe(14); // Account.saveFillRow copies 14 numbers, written out: change it with the row
    expect(Math.min(R.Mr.Saved, R.Mr.SavedPosition)).toBe(R.Mr.FillEnd);
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
