import { describe, expect, it } from 'vitest';
import { Op, Rec as CloseRec, U_REOPEN, U_REOPEN_BIG, U_UNREST } from '../../src/venue/order-close.ts';
import { At } from '../../src/venue/order-events.ts';
import { Row } from '../../src/venue/order-event-rows.ts';
import { Rec as LaneRec } from '../../src/venue/order-fast-lane.ts';
import * as L from '../../src/venue/order-record.ts';
import { Rec } from '../../src/venue/order-store.ts';
import { Slot } from '../../src/venue/order-slot-pool.ts';
import { PlaceAt, U_PLACE } from '../../src/venue/undo-book.ts';

/**
 * The hot files of a command write the order record's layout, flags, states and the event
 * rows' layout as const-enum literals of their own (an imported module constant costs V8 a load
 * and a check at every use in optimized code). If one drifted from order-record.ts, records
 * would be read and written at the wrong fields.
 */
describe('the order record layout the hot files write', () => {
  it('is order-record.ts\'s in the store: fields, stride, flags and states', () => {
    expect([Rec.User, Rec.Bits, Rec.Price, Rec.Qty, Rec.Filled, Rec.Saved, Rec.BookRef, Rec.Market, Rec.Seq, Rec.Notional, Rec.Sec, Rec.Nanos, Rec.Stride]).toEqual([
      L.F_USER, L.F_BITS, L.F_PRICE, L.F_QTY, L.F_FILLED, L.F_SAVED, L.F_BOOK_REF, L.F_MARKET, L.F_SEQ, L.F_NOTIONAL, L.F_SEC, L.F_NANOS, L.STRIDE,
    ]);
    expect([Rec.FreeUser, Rec.Sell, Rec.Ioc, Rec.ImBig, Rec.SideUsed, Rec.StateShift, Rec.Pending, Rec.New, Rec.Partial]).toEqual([
      L.FREE_USER, L.B_SELL, L.B_IOC, L.B_IM_BIG, L.B_SIDE, L.STATE_SHIFT, L.ST_PENDING, L.ST_NEW, L.ST_PARTIAL,
    ]);
  });

  it('is order-record.ts\'s in the slot pool that makes and ends records', () => {
    expect([Slot.User, Slot.Bits, Slot.Price, Slot.Qty, Slot.Filled, Slot.Saved, Slot.BookRef, Slot.Market, Slot.Seq, Slot.Notional, Slot.Sec, Slot.Nanos, Slot.Stride]).toEqual([
      L.F_USER, L.F_BITS, L.F_PRICE, L.F_QTY, L.F_FILLED, L.F_SAVED, L.F_BOOK_REF, L.F_MARKET, L.F_SEQ, L.F_NOTIONAL, L.F_SEC, L.F_NANOS, L.STRIDE,
    ]);
    expect([Slot.FreeUser, Slot.ImBig, Slot.SideUsed]).toEqual([L.FREE_USER, L.B_IM_BIG, L.B_SIDE]);
  });

  it('is order-record.ts\'s in the close of a rest and in the fast lane, with the journal opcodes undo.ts dispatches', () => {
    expect([CloseRec.User, CloseRec.Bits, CloseRec.Price, CloseRec.Qty, CloseRec.Filled, CloseRec.Market, CloseRec.Seq, CloseRec.Stride, CloseRec.Sell, CloseRec.ImBig, CloseRec.SideUsed]).toEqual([
      L.F_USER, L.F_BITS, L.F_PRICE, L.F_QTY, L.F_FILLED, L.F_MARKET, L.F_SEQ, L.STRIDE, L.B_SELL, L.B_IM_BIG, L.B_SIDE,
    ]);
    expect([Op.Unrest, Op.Reopen, Op.ReopenBig]).toEqual([U_UNREST, U_REOPEN, U_REOPEN_BIG]);
    expect([LaneRec.User, LaneRec.Bits, LaneRec.Price, LaneRec.Filled, LaneRec.Market, LaneRec.Stride, LaneRec.Sell, LaneRec.Ioc, LaneRec.StateShift, LaneRec.New, LaneRec.Canceled, LaneRec.Expired, LaneRec.NoSlot, LaneRec.Place]).toEqual([
      L.F_USER, L.F_BITS, L.F_PRICE, L.F_FILLED, L.F_MARKET, L.STRIDE, L.B_SELL, L.B_IOC, L.STATE_SHIFT, L.ST_NEW, L.ST_CANCELED, L.ST_EXPIRED, L.NO_SLOT, U_PLACE,
    ]);
    // The lane writes `savePlace`'s entry of a rest itself: its market's place and the entry's size.
    expect([LaneRec.PlaceMarket, LaneRec.PlaceSize]).toEqual([PlaceAt.Market, PlaceAt.Maker]);
  });

  it('is the event rows\' layout in the cursor that reads them', () => {
    expect([At.User, At.Slot, At.Eid, At.Tid, At.FillLots, At.FillPrice, At.Aggressor, At.Filled, At.State, At.Kind, At.Size, At.Reason, At.Oid, At.Fill, At.UserCancel, At.UnknownOrder]).toEqual([
      Row.User, Row.Slot, Row.Eid, Row.Tid, Row.FillLots, Row.FillPrice, Row.Aggressor, Row.Filled, Row.State, Row.Kind, Row.Size, Row.Reason, Row.Oid, Row.Fill, Row.UserCancel, Row.UnknownOrder,
    ]);
  });

  it('leaves lots to fill (`rq`) to the states PENDING, NEW and PARTIALLY_FILLED only, which hasRemainingLots tells by their codes being the lowest', () => {
    const withLotsLeft = L.STATE_NAMES.filter((_, code) => L.hasRemainingLots(code));
    expect(withLotsLeft).toEqual(['PENDING', 'NEW', 'PARTIALLY_FILLED']);
  });
});
