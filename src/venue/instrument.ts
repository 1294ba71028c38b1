import { INSTRUMENT_STATES, type InstrumentState } from '../core/types.ts';
import { MONEY_ONE, parseMoney, type Money } from '../core/money.ts';
import { TickSize } from '../core/price.ts';
import { withDefaults } from '../core/objects.ts';
import { DEFAULT_FUNDING_SCHEDULE, type FundingSchedule } from '../market/funding.ts';
import type { BigRational } from '../market/rational.ts';

/** Daily trading hours in UTC; outside them the instrument is CLOSED. */
export interface TradingHoursConfig {
  /** "HH:MM" UTC. */
  open: string;
  /** "HH:MM" UTC, after `open` on the same day. */
  close: string;
  /** ISO weekdays (1 = Monday … 7 = Sunday) with a session; default Monday to Friday. */
  weekdays?: number[];
  /** At the close, resting orders end with a Done for Day feed (default true). */
  expireOrdersAtClose?: boolean;
}

/** An instrument as a scenario describes it; decimals are strings, defaults from decisions.md. */
export interface InstrumentConfig {
  symbol: string;
  tickSize: string;
  /** Starting index price (decimal text). */
  indexPrice: string;
  multiplier?: number;
  minimumTradeQuantity?: number;
  description?: string;
  productId?: string;
  initialState?: InstrumentState;
  /** Percent of notional; defaults 15 and 10. */
  initialMarginPct?: string;
  maintenanceMarginPct?: string;
  /** Fraction of notional; defaults 0 and 0.0002. Negative maker fee is a rebate. */
  makerFee?: string;
  takerFee?: string;
  /** Orders priced further than this percent from the mark are rejected; default 10. */
  priceBandPct?: string;
  /** `interestRate` (per interval, e.g. "0.0001"): Binance's interest component; absent = none. */
  funding?: Partial<FundingSchedule> & { capRate?: string; interestRate?: string };
  tradingHours?: TradingHoursConfig;
  /** State changes at fixed times (RFC 3339). */
  schedule?: { at: string; state: InstrumentState }[];
  /** Per-user cap on open orders in this instrument (default 1,000). */
  maxOpenOrders?: number;
  /** Cancel the resting order when a user's order would trade with their own (default off). */
  selfTradePrevention?: boolean;
}

/** A rule of instruments broken: `field` names the config field, the message says why. */
export class InstrumentConfigError extends RangeError {
  constructor(
    readonly field: string,
    readonly why: string,
    where: string,
  ) {
    super(`${where}: ${field} ${why}`);
  }
}

/** An instrument resolved for the engine: ticks, lots and Money factors precomputed. */
export interface Instrument {
  readonly symbol: string;
  readonly baseCurrency: string;
  readonly quoteCurrency: string;
  readonly tick: TickSize;
  readonly multiplier: number;
  readonly minimumTradeQuantity: number;
  readonly description: string;
  readonly productId: string;
  readonly initialState: InstrumentState;
  readonly initialMarginPct: BigRational;
  readonly maintenanceMarginPct: BigRational;
  readonly makerFee: BigRational;
  readonly takerFee: BigRational;
  readonly priceBandPct: BigRational;
  readonly funding: FundingSchedule;
  readonly fundingCap: BigRational;
  /** Interest component of funding per interval (decisions.md), or undefined for none. */
  readonly fundingInterest: BigRational | undefined;
  readonly tradingHours: Required<TradingHoursConfig> | undefined;
  readonly schedule: { at: string; state: InstrumentState }[];
  readonly maxOpenOrders: number;
  readonly selfTradePrevention: boolean;
  readonly indexPriceTicks: number;
  /** Money value of one tick·lot: tick × multiplier. */
  readonly tickLotMoney: Money;
}

const SYMBOL = /^([A-Z0-9]+?)(USD|USDT|USDC|EUR|BTC)-PERP$/;
const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/**
 * Validates a scenario instrument and resolves it: the one set of instrument rules, used by the
 * venue and by the scenario schema alike. Throws InstrumentConfigError (a RangeError) naming the field.
 */
export function resolveInstrument(config: InstrumentConfig): Instrument {
  const where = `instrument ${JSON.stringify(config.symbol)}`;
  const fail = (field: string, why: string): never => {
    throw new InstrumentConfigError(field, why, where);
  };
  const match = SYMBOL.exec(config.symbol ?? '');
  if (!match || config.symbol.length > 20) fail('symbol', 'must look like <BASE><QUOTE>-PERP (e.g. BTCUSD-PERP), at most 20 characters');
  let tick: TickSize;
  try {
    tick = new TickSize(config.tickSize);
  } catch (e) {
    return fail('tickSize', (e as Error).message);
  }
  const positiveInt = (field: string, value: number | undefined, fallback: number): number => {
    const v = value ?? fallback;
    if (!Number.isSafeInteger(v) || v <= 0) fail(field, `must be a positive integer, got ${value}`);
    return v;
  };
  const ratio = (field: string, text: string | undefined, fallback: string, scale: bigint, allowNegative = false): BigRational => {
    let m: Money;
    try {
      m = parseMoney(text ?? fallback);
    } catch {
      return fail(field, `must be a decimal string, got ${JSON.stringify(text)}`);
    }
    if (m < 0n && !allowNegative) fail(field, `must not be negative, got ${text}`);
    return { num: m, den: MONEY_ONE * scale };
  };
  const multiplier = positiveInt('multiplier', config.multiplier, 1);
  const indexPriceTicks = tick.toTicks(validPriceText(config.indexPrice) ? config.indexPrice : fail('indexPrice', 'must be a decimal string'));
  if (indexPriceTicks === undefined || indexPriceTicks <= 0) fail('indexPrice', `must be a positive multiple of the tick size ${tick.text}`);
  const state = config.initialState ?? 'OPEN';
  if (!INSTRUMENT_STATES.includes(state)) fail('initialState', `must be one of ${INSTRUMENT_STATES.join(', ')}`);

  // Only the schedule's keys: the config's capRate and interestRate are read below, not kept here.
  const funding: FundingSchedule = withDefaults(DEFAULT_FUNDING_SCHEDULE, config.funding ?? {});
  if (!Number.isSafeInteger(funding.intervalSec) || funding.intervalSec <= 0) fail('funding.intervalSec', 'must be a positive integer');
  if (!Number.isSafeInteger(funding.offsetSec) || funding.offsetSec < 0) fail('funding.offsetSec', 'must be a non-negative integer');

  let tradingHours: Required<TradingHoursConfig> | undefined;
  if (config.tradingHours) {
    const { open, close } = config.tradingHours;
    if (!HHMM.test(open)) fail('tradingHours.open', 'must be "HH:MM" (UTC)');
    if (!HHMM.test(close) || close <= open) fail('tradingHours.close', 'must be "HH:MM" (UTC), after open');
    const weekdays = config.tradingHours.weekdays ?? [1, 2, 3, 4, 5];
    if (!weekdays.every((d) => Number.isInteger(d) && d >= 1 && d <= 7)) fail('tradingHours.weekdays', 'must be ISO weekdays 1..7');
    tradingHours = { open, close, weekdays, expireOrdersAtClose: config.tradingHours.expireOrdersAtClose ?? true };
  }
  for (const [i, step] of (config.schedule ?? []).entries()) {
    if (!INSTRUMENT_STATES.includes(step.state)) fail(`schedule[${i}].state`, `must be one of ${INSTRUMENT_STATES.join(', ')}`);
  }

  const initialMarginPct = ratio('initialMarginPct', config.initialMarginPct, '15', 100n);
  const maintenanceMarginPct = ratio('maintenanceMarginPct', config.maintenanceMarginPct, '10', 100n);
  if (maintenanceMarginPct.num > initialMarginPct.num) fail('maintenanceMarginPct', 'must not exceed initialMarginPct');
  return {
    symbol: config.symbol,
    baseCurrency: match![1]!,
    quoteCurrency: match![2]!,
    tick,
    multiplier,
    minimumTradeQuantity: positiveInt('minimumTradeQuantity', config.minimumTradeQuantity, 1),
    description: config.description ?? `${match![1]} perpetual future quoted in ${match![2]}`,
    productId: config.productId ?? config.symbol,
    initialState: state,
    initialMarginPct,
    maintenanceMarginPct,
    makerFee: ratio('makerFee', config.makerFee, '0', 1n, true),
    takerFee: ratio('takerFee', config.takerFee, '0.0002', 1n, true),
    priceBandPct: ratio('priceBandPct', config.priceBandPct, '10', 100n),
    funding,
    fundingCap: ratio('funding.capRate', config.funding?.capRate, '0.02', 1n),
    fundingInterest: config.funding?.interestRate === undefined ? undefined : ratio('funding.interestRate', config.funding.interestRate, '0', 1n, true),
    tradingHours,
    schedule: config.schedule ?? [],
    maxOpenOrders: positiveInt('maxOpenOrders', config.maxOpenOrders, 1000),
    selfTradePrevention: config.selfTradePrevention ?? false,
    indexPriceTicks: indexPriceTicks!,
    tickLotMoney: tick.money * BigInt(multiplier),
  };
}

function validPriceText(text: unknown): text is string {
  return typeof text === 'string' && /^\d+\.?\d*$/.test(text);
}
