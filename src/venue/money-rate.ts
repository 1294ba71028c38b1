import { mulRatio, type Money } from '../core/money.ts';
import type { BigRational } from '../market/rational.ts';

/**
 * `tickLots × unit × rate` in Money, rounded half to even: margins (unit = the instrument's
 * tick·lot money, rate = a margin percent) and fees (rate = a fee rate).
 *
 * Why: this runs several times for every order, and a rounded bigint division allocates
 * a handful of bigints. For the usual rates `unit × rate` is itself a whole number of Money
 * units (0.5 × 10^18 × 10/100), and then the result is one multiplication, exactly the value
 * the division would give. The factor is cached per rate object (one per instrument field).
 */
export function tickLotsAtRate(tickLots: bigint, unit: Money, rate: BigRational): Money {
  let f = factors.get(rate);
  if (f === undefined || f.unit !== unit || f.num !== rate.num || f.den !== rate.den) {
    const scaled = unit * rate.num;
    f = { unit, num: rate.num, den: rate.den, factor: scaled % rate.den === 0n ? scaled / rate.den : undefined };
    factors.set(rate, f);
  }
  return f.factor !== undefined ? tickLots * f.factor : mulRatio(tickLots * unit, rate.num, rate.den);
}

/** Per rate: the unit it was computed for, and `unit × rate` when that is a whole number. */
const factors = new WeakMap<BigRational, { unit: Money; num: bigint; den: bigint; factor: Money | undefined }>();
