import type { Side } from '../core/types.ts';
import type { Account, AccountPosition } from './account.ts';
import type { Market } from './market.ts';
import type { VenueState } from './venue-state.ts';
import { EXTERNAL_OWNER } from './external-owner.ts';
import { faultPoint } from './fault-points.ts';
import { bookFillMoney, bookUsualFillMoney } from './fill-money.ts';
import { isUsualFill, saveUsualFill } from './fill-undo.ts';
import { endRest } from './order-close.ts';
import { NO_SLOT } from './order-store.ts';
import { saveAccount, savePosition, saveRecord } from './undo.ts';

/**
 * The order record's fields, flags and states a fill reads and writes (order-record.ts's), as
 * literals: an imported constant costs a load and a check at every use in optimized code (see
 * `Rec` in order-store.ts); test/venue/account-row-layout checks they agree.
 */
export const enum Rec {
  User = 0,
  Bits = 1,
  Qty = 3,
  Filled = 4,
  Stride = 12,
  Sell = 1,
  ImBig = 32,
  StateShift = 8,
  StPartial = 2,
  StFilled = 3,
}

/**
 * A trade's settlement (`OrderFlow`'s, from the book's events or a replayed trade): each side's
 * fill — its undo, position, money, open-order counts, record and order event — then the
 * candles, the session stats and the trade record, in that order, with the fault points between.
 */
export class TradeFills {
  constructor(private readonly s: VenueState) {}

  /**
   * Books one trade of `market` for its maker (the book's order `makerId`, of `makerOwnerId`) and
   * taker (`taker`: its slot, `NO_SLOT` for an external side): position, PnL, fees, margin, feeds,
   * records. A side owned by `EXTERNAL_OWNER` (replayed liquidity, see external-liquidity.ts) has
   * no account: only the other side is settled, and the print names the external side.
   */
  settle(makerId: number, makerOwnerId: number, takerSide: Side, priceTicks: number, qtyLots: number, taker: number, market: Market): void {
    const s = this.s;
    const maker = makerOwnerId === EXTERNAL_OWNER ? NO_SLOT : s.orders.slotOf(makerId);
    const tid = s.tradeIds.advance();
    const sec = s.clock.nowSec;
    s.log.touchTrades(market);
    if (maker !== NO_SLOT) this.fill(maker, market, priceTicks, qtyLots, false, tid);
    faultPoint('trade.maker');
    if (taker !== NO_SLOT) this.fill(taker, market, priceTicks, qtyLots, true, tid);
    faultPoint('trade.taker');
    market.candles.addTrade(sec, priceTicks, qtyLots, takerSide);
    faultPoint('trade.candles');
    market.stats.addTrade(sec, priceTicks, qtyLots);
    faultPoint('trade.stats');
    const d = s.orders.data;
    if (s.wantsTrades) {
      s.emitTrade(market, tid, priceTicks, qtyLots, takerSide, maker, taker, maker === NO_SLOT ? EXTERNAL_OWNER : d[maker * Rec.Stride + Rec.User]!, taker === NO_SLOT ? EXTERNAL_OWNER : d[taker * Rec.Stride + Rec.User]!);
    }
    // A filled maker's record was kept for the trade record; its command is over.
    if (maker !== NO_SLOT && ((d[maker * Rec.Stride + Rec.Bits]! >>> Rec.StateShift) & 15) === Rec.StFilled) s.free(maker);
  }

  private fill(slot: number, market: Market, priceTicks: number, lots: number, aggressor: boolean, tid: number): void {
    const s = this.s;
    const store = s.orders;
    const d = store.data;
    const o = slot * Rec.Stride;
    const account = s.accounts[d[o + Rec.User]!]!;
    // `=== true` (here and on `isUsualFill`'s answer): V8 tested the argument and the answer as
    // any value would be (false, '', 0, NaN, 0n: ~12 instructions each); a comparison is one.
    const taker = aggressor === true;
    // The undo of what a fill changes: the account's row and position and the market's fee
    // counters (as numbers for a usual fill, else with their Money and the market's state), the record.
    const j = s.log.journal;
    const known = account.findPosition(market);
    const side = (d[o + Rec.Bits]! & Rec.Sell) !== 0 ? 'S' : 'B';
    if (known !== undefined && isUsualFill(account, market, priceTicks, lots, taker, !taker && (d[o + Rec.Bits]! & Rec.ImBig) !== 0) === true) {
      // The taker's fills of a sweep after its first: that fill's copy is its account, position and
      // the market's fee counters as before all of them (the journal runs newest first and every
      // change since is journaled or one of these fills), so it is not copied again.
      if (!taker || this.takerSavedEpoch !== j.epoch || this.takerSavedAccount !== account || this.takerSavedMarket !== market) {
        saveUsualFill(j, account, known, market);
        if (taker) {
          this.takerSavedEpoch = j.epoch;
          this.takerSavedAccount = account;
          this.takerSavedMarket = market;
        }
      }
      saveRecord(j, store, slot);
      // A usual fill was checked to stay in numbers and counters: no bounds asked again.
      const realizedTicks = known.position.applyUsualFill(side, priceTicks, lots);
      faultPoint('fill.position');
      bookUsualFillMoney(s, account, market, priceTicks * lots, taker, realizedTicks);
    } else {
      this.fillWhole(account, known, slot, market, side, priceTicks, lots, taker);
    }
    faultPoint('fill.cash');
    if (!taker) account.restingFilled(store, slot, market, lots);
    const filled = d[o + Rec.Filled]! + lots;
    d[o + Rec.Filled] = filled;
    store.addFilledNotional(slot, priceTicks, lots);
    const done = filled === d[o + Rec.Qty]!;
    if (done) {
      if (taker) store.setState(slot, Rec.StFilled);
      else endRest(s, account, slot, Rec.StFilled, market.index, 0);
    } else {
      store.setState(slot, Rec.StPartial);
    }
    faultPoint('fill.order');
    const r = s.orderRow(done ? 'f' : 'p', account.id, slot, s.executionIds.advance());
    if (r >= 0) {
      s.rows.setFill(r, tid, lots, priceTicks, taker);
      s.told();
    }
  }

  /**
   * `fill`'s steps up to its money for a fill that is not a usual one: the account, position and
   * market saved whole (with their Money), the position created if new, the bounds asked. Apart
   * so that `fill`, whose usual path runs for almost every fill, stays small enough for V8 to
   * inline what it calls.
   */
  private fillWhole(account: Account, known: AccountPosition | undefined, slot: number, market: Market, side: Side, priceTicks: number, lots: number, aggressor: boolean): void {
    const s = this.s;
    const j = s.log.journal;
    saveAccount(j, account, market);
    savePosition(j, account, market);
    s.log.touchMarket(market);
    saveRecord(j, s.orders, slot);
    const position = known ?? account.positionIn(market);
    const realizedTicks = position.position.applyFillTicks(side, priceTicks, lots);
    faultPoint('fill.position');
    bookFillMoney(s, account, position, market, priceTicks, lots, aggressor, realizedTicks);
  }

  /** The taker whose usual fill was last copied (`saveUsualFill`) and the command then (`UndoJournal.epoch`): see `fill`. */
  private takerSavedEpoch = 0;
  private takerSavedAccount: Account | undefined = undefined;
  private takerSavedMarket: Market | undefined = undefined;
}
