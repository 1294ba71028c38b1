import type { Money } from '../../src/core/money.ts';
import type { BigRational } from '../../src/market/rational.ts';
import type { Instrument } from '../../src/venue/instrument.ts';
import { referenceDivRoundHalfEven } from '../core/reference-rounding.ts';

/**
 * Money of a price × lots at a rate (a fee rate or a margin percent), the test models' own way:
 * not the venue's whole factors, `tickLotsAtRate`, `feeOf` or `marginOf`, which a model that
 * called them could not check. Price × lots × the instrument's tick·lot Money × the rate's
 * numerator, one division by its denominator at the end, rounded half to even (as all Money is:
 * src/core/money.ts) by the plain rounding test/core/money checks divRoundHalfEven with.
 */
export function modelAtRate(inst: Instrument, priceTicks: number, lots: number, rate: BigRational): Money {
  return referenceDivRoundHalfEven(BigInt(priceTicks) * BigInt(lots) * inst.tickLotMoney * rate.num, rate.den);
}

/** The fee of one side of a trade: the taker's rate for the aggressor, else the maker's. */
export function modelFee(inst: Instrument, priceTicks: number, lots: number, aggressor: boolean): Money {
  return modelAtRate(inst, priceTicks, lots, aggressor ? inst.takerFee : inst.makerFee);
}
