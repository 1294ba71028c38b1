import { describe, expect, it } from 'vitest';
import { CancelCode, Chunk, LevelRec, Mark, Rec, SideCache, SideCode } from '../../src/book/book-core.ts';
import * as events from '../../src/book/book-events.ts';
import { K as SlotsK, NONE, O_ID, O_LEVEL, O_OWNER, O_QTY, ORDER_STRIDE, WIDE } from '../../src/book/order-slots.ts';
import { K as LevelsK, Lv } from '../../src/book/price-levels.ts';
import { K as SideK } from '../../src/book/side-levels.ts';

/**
 * The matching engine writes the record layout and markers as const-enum literals of its own
 * (`Rec`, `Mark`, `CancelCode` in book-core.ts: imported module constants cost a load and a
 * check at every use in optimized code). If they drifted from the constants the rest of the
 * book reads records with, views and events would read the wrong fields.
 */
describe('the record layout the matching engine writes', () => {
  it('is the layout of OrderSlots: the same field offsets and markers', () => {
    expect([Rec.Qty, Rec.Level, Rec.Id, Rec.Owner]).toEqual([O_QTY, O_LEVEL, O_ID, O_OWNER]);
    expect([Mark.None, Mark.Wide]).toEqual([NONE, WIDE]);
    expect(Mark.Int32Max).toBe(2 ** 31 - 1);
    expect([SlotsK.Level, SlotsK.Stride, SlotsK.Wide]).toEqual([O_LEVEL, ORDER_STRIDE, WIDE]);
    expect([LevelsK.None, LevelsK.Qty, SideK.None]).toEqual([NONE, O_QTY, NONE]);
    // The book reads SideLevels' price → level cache inline, with its own mask.
    expect(SideCache.Mask).toBe(SideK.CacheSize - 1);
  });

  it('is the level record layout of LevelSlots, with the side codes BookEvents reads', () => {
    expect([LevelRec.Head, LevelRec.Queued, LevelRec.Count, LevelRec.Side, LevelRec.Ext, LevelRec.Tail, LevelRec.Stride]).toEqual([
      Lv.Head,
      Lv.Queued,
      Lv.Count,
      Lv.Side,
      Lv.Ext,
      Lv.Tail,
      Lv.Stride,
    ]);
    expect([Chunk.Mask, Chunk.Link]).toEqual([LevelsK.ChunkMask, LevelsK.Link]);
    expect([SideCode.Buy, SideCode.Sell]).toEqual([events.sideCode('B'), events.sideCode('S')]);
  });

  it('writes the cancel reason codes BookEvents reads', () => {
    expect([CancelCode.Requested, CancelCode.SelfTrade]).toEqual([events.CANCEL_REQUESTED, events.CANCEL_SELF_TRADE]);
  });

  it('gives BookEvents the event kinds its readers compare with (EV_*)', () => {
    const { Ev } = events;
    expect([Ev.Rested, Ev.Trade, Ev.Expired, Ev.Rejected, Ev.Canceled, Ev.Reduced, Ev.CancelRejected]).toEqual([
      events.EV_RESTED,
      events.EV_TRADE,
      events.EV_EXPIRED,
      events.EV_REJECTED,
      events.EV_CANCELED,
      events.EV_REDUCED,
      events.EV_CANCEL_REJECTED,
    ]);
  });
});
