import type { Money } from '../core/money.ts';
import type { AccountPosition } from './account-position.ts';
import type { Market } from './market.ts';

/**
 * An account's numbers per market, `Mr.PerMarket` side by side in one array (`Account.byMarket`),
 * and what is computed from them alone: the money still pending as tick·lot counters and the
 * margin pre-check in doubles.
 */

/**
 * The numbers of `Account.byMarket`, per market, as literals: in V8's optimized code every use
 * of an imported or module-level constant is a load from the module context and a small-integer
 * check, and an offset sum an add with an overflow check (bench/README, rounds 14 and 15). Each
 * hot account file keeps a copy of its own (account.ts, account-open-orders.ts: tsx and vitest
 * inline only a same-file const enum); test/venue/account-row-layout checks they agree.
 */
export const enum Mr {
  // What a usual fill changes comes first, as one run its undo copies (`Account.saveFillRow`):
  Count = 0,
  Lots = 1,
  /** Σ priceTicks × remaining lots of open orders whose margin is this sum × the market's factor. */
  ImNotional = 2,
  // Money of the fills in this market not yet turned into Money (see `addFillTicks`), in tick·lots:
  // realized trading PnL, and the notional of taker and of maker fills (whose fees are that × the
  // market's whole fee factor). Each a safe integer; folded into the bigints before passing 2^53.
  Realized = 3,
  Taker = 4,
  Maker = 5,
  // The position's own numbers (`Pn` of risk/position.ts, from here: the `Position` of this
  // market reads and writes them in place): the order checks read its net lots, open cost
  // (tick·lots; NaN past 2^53) and bought and sold lots here.
  Position = 6,
  Net = 6,
  Cost = 7,
  BuyLots = 8,
  SellLots = 9,
  /** Where a usual fill's copy ends (`Position` + the position's `Pn.Count` numbers). */
  FillEnd = 14,
  /** The undo's first-touch marks of the money and open orders, and of the position (`markSaved`). */
  Saved = 14,
  SavedPosition = 15,
  PerMarket = 16,
}

/** How many pending counters `savePending` writes. */
export const PENDING_SAVED = 3;
/** How many numbers `Account.saveMoney` writes (the market row's open count, lots and margin notional). */
export const MONEY_SAVED = 3;
/** How many numbers `Account.saveFillRow` writes: the row up to `Mr.FillEnd` (open orders, pending counters, the position). */
export const FILL_ROW_SAVED = Mr.FillEnd;


/**
 * Adds a fill to the counters of the row at `m` (see `Account.addFillTicks`); false, changing
 * nothing, when a counter would pass 2^53 (the caller folds them into Money and retries).
 */
export function countFill(rows: number[], m: number, realizedTicks: number, notionalTicks: number, aggressor: boolean): boolean {
  const fee = m + (aggressor ? Mr.Taker : Mr.Maker);
  const realized = rows[m + Mr.Realized]! + realizedTicks;
  const notional = rows[fee]! + notionalTicks;
  if (!Number.isSafeInteger(realized) || !Number.isSafeInteger(notional)) return false;
  rows[m + Mr.Realized] = realized;
  rows[fee] = notional;
  return true;
}

/** Copies the `PENDING_SAVED` counters from `from[f]` to `to[t]` (a row's, at `Mr.Realized` on, and a saved run, either way). */
export function copyPending(from: ArrayLike<number>, f: number, to: { [i: number]: number }, t: number): void {
  to[t] = from[f]!;
  to[t + 1] = from[f + 1]!;
  to[t + 2] = from[f + 2]!;
}

/** Realized trading PnL and fees pending as counters in the row at `m`, as Money. */
export function pendingMoneyOf(rows: readonly number[], m: number, market: Market): { realized: Money; fees: Money } {
  const realized = rows[m + Mr.Realized] ?? 0;
  const taker = rows[m + Mr.Taker] ?? 0;
  const maker = rows[m + Mr.Maker] ?? 0;
  return {
    realized: realized === 0 ? 0n : BigInt(realized) * market.instrument.tickLotMoney,
    fees: (taker === 0 ? 0n : BigInt(taker) * market.takerFeeFactor!) + (maker === 0 ? 0n : BigInt(maker) * market.makerFeeFactor!),
  };
}

/** Σ over markets of pending realized PnL − fees, as Money. */
export function pendingCashOf(rows: readonly number[], markets: readonly Market[]): Money {
  let total = 0n;
  for (let m = 0, i = 0; m < rows.length; m += Mr.PerMarket, i++) {
    if (rows[m + Mr.Realized] === 0 && rows[m + Mr.Taker] === 0 && rows[m + Mr.Maker] === 0) continue;
    const { realized, fees } = pendingMoneyOf(rows, m, markets[i]!);
    total += realized - fees;
  }
  return total;
}

/** `marginFitsApprox`'s terms (an account's `Float64Array`): its cash, its open orders' Money kept off the rows, the new order's margin. */
export const enum Tm {
  Cash = 0,
  OpenImBig = 1,
  OrderIm = 2,
  Count = 3,
}
export const APPROX_TERMS = Tm.Count;

/**
 * Whether `approx[Tm.OrderIm]` (≈ the initial margin of a new order, as a double) more initial margin
 * fits: openOrdersIm + positions' initial margin + im ≤ equity. Decided in doubles, without a
 * bigint, when the slack is clearly away from zero: 1 fits, -1 does not, 0 too close to call
 * (or a value is not representable here), and the caller decides exactly. Why this is exact:
 * every term is an exact Money amount off by at most a few units in 2^53 of its size as a
 * double (a position's PnL: of mark × lots, which counts in the size), so a slack beyond
 * (terms + 8) × 2^-52 × Σ|terms| has the sign of the exact slack.
 */
export function marginFitsApprox(rows: readonly number[], markets: readonly Market[], positions: readonly (AccountPosition | undefined)[], approx: Float64Array): number {
  const cash = approx[Tm.Cash]!;
  const big = approx[Tm.OpenImBig]!;
  const imApprox = approx[Tm.OrderIm]!;
  let slack = cash - big - imApprox;
  let size = Math.abs(cash) + Math.abs(big) + Math.abs(imApprox);
  let terms = 3;
  // `i`: the market's index (a counter, not m / PerMarket: a division per market).
  for (let m = 0, i = 0; m < rows.length; m += Mr.PerMarket, i++) {
    const notional = rows[m + Mr.ImNotional]!;
    const net = rows[m + Mr.Net]!;
    const realized = rows[m + Mr.Realized]!;
    const taker = rows[m + Mr.Taker]!;
    const maker = rows[m + Mr.Maker]!;
    if (notional === 0 && net === 0 && realized === 0 && taker === 0 && maker === 0) continue;
    const market = markets[i]!;
    if (realized !== 0 || taker !== 0 || maker !== 0) {
      // Cash still pending as counters (`addFillTicks`): three more terms.
      const r = realized * market.tickLotMoneyApprox;
      const t = taker * market.takerFeeApprox;
      const k = maker * market.makerFeeApprox;
      slack += r - t - k;
      size += Math.abs(r) + Math.abs(t) + Math.abs(k);
      terms += 3;
    }
    const imPerTickLot = market.imPerTickLotApprox;
    if (notional !== 0) {
      const open = notional * imPerTickLot;
      slack -= open;
      size += Math.abs(open);
    }
    if (net !== 0) {
      const mark = market.markTicks;
      const cost = rows[m + Mr.Cost]!;
      const uTicks = Number.isNaN(cost) ? positions[i]!.position.unrealizedTicksApprox(mark) : net > 0 ? mark * net - cost : cost + mark * net;
      const u = uTicks * market.tickLotMoneyApprox;
      const markLots = Math.abs(net) * mark;
      const im = markLots * imPerTickLot;
      slack += u - im;
      // mark × lots is rounded before the open cost is taken off it: past 2^53 that rounding (up
      // to a unit in 2^53 of mark × lots) can exceed the PnL it leaves, so it counts at its size.
      size += Math.abs(u) + Math.abs(im) + markLots * market.tickLotMoneyApprox;
    }
    terms += 3;
  }
  if (!Number.isFinite(slack) || !Number.isFinite(size)) return 0;
  const error = size * (terms + 8) * 2 ** -52;
  return slack > error ? 1 : slack < -error ? -1 : 0;
}
