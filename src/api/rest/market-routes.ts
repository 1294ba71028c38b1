import type { Hono } from 'hono';
import { CANDLE_INTERVALS, isCandleInterval } from '../../market/candles.ts';
import { VenueQueryError } from '../../venue/venue.ts';
import type { Exchange } from '../exchange.ts';
import { readBody } from './body.ts';
import { dateTime } from './datetime-field.ts';
import { RequestValidationError, valueIssue, type ValidationIssue } from './errors.ts';
import { SYMBOL } from './fields.ts';
import { checkFields, str, type Parsed, type Shape } from './validation.ts';

export const SETTLEMENT = { symbol: SYMBOL, start_time: dateTime(), end_time: dateTime() };
export const CANDLES = { market: str(), interval: str(), start_time: dateTime(), end_time: dateTime() };

type RangeQuery = { start_time: bigint; end_time: bigint };

/**
 * Public market data: {base_url}/settlement (mark-to-market prices, funding rates) and
 * {base_url}/candle. No Authorization (decisions.md). An unknown symbol, market or interval and
 * an end before the start are 422s naming the field, listed together with schema failures.
 */
export function registerMarketRoutes(app: Hono, exchange: Exchange): void {
  /**
   * Schema checks, then the business checks on whatever passed them; every issue in field
   * order. `business` adds issues for fields that are schema-valid.
   */
  function validate<S extends Shape & { start_time: unknown; end_time: unknown }>(
    raw: unknown,
    shape: S,
    business: (body: Partial<Parsed<S>>, issues: ValidationIssue[]) => void,
  ): Parsed<S> & RangeQuery {
    const { value, issues } = checkFields(raw, shape, 'body');
    const isObject = !issues.some((i) => i.loc.length === 1);
    if (isObject) {
      business(value, issues);
      const { start_time: start, end_time: end } = value as Partial<RangeQuery>;
      if (start !== undefined && end !== undefined && end < start) {
        issues.push(valueIssue(['body', 'end_time'], (raw as Record<string, unknown>).end_time, 'end_time must not be before start_time'));
      }
    }
    if (issues.length > 0) throw new RequestValidationError(inFieldOrder(issues, shape));
    return value as Parsed<S> & RangeQuery;
  }

  function knownMarket(field: 'symbol' | 'market', symbol: string | undefined, issues: ValidationIssue[]): void {
    if (symbol !== undefined && exchange.venue.market(symbol) === undefined) issues.push(valueIssue(['body', field], symbol, `unknown ${field} ${symbol}`));
  }

  for (const [path, read] of [
    ['/settlement/get_mtm_prices', 'mtmPrices'],
    ['/settlement/get_funding_rates', 'fundingRates'],
  ] as const) {
    app.post(path, async (c) => {
      const raw = await readBody(c);
      exchange.sync();
      const body = validate(raw, SETTLEMENT, (b, issues) => knownMarket('symbol', b.symbol, issues));
      return c.json(venueQuery(raw, () => exchange.venue[read](body.symbol, body.start_time, body.end_time)));
    });
  }

  app.post('/candle/historical_candles', async (c) => {
    const raw = await readBody(c);
    exchange.sync();
    const body = validate(raw, CANDLES, (b, issues) => {
      knownMarket('market', b.market, issues);
      if (b.interval !== undefined && !isCandleInterval(b.interval)) {
        issues.push(valueIssue(['body', 'interval'], b.interval, `interval must be one of ${Object.keys(CANDLE_INTERVALS).join(', ')}`));
      }
    });
    return c.json(venueQuery(raw, () => exchange.venue.candles(body.market, body.interval, body.start_time, body.end_time)));
  });
}

/** Runs a venue query; a VenueQueryError the checks above did not foresee is still a 422. */
function venueQuery<T>(raw: unknown, run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (e instanceof VenueQueryError) throw new RequestValidationError([valueIssue(['body', e.field], (raw as Record<string, unknown>)[e.field], e.message)]);
    throw e;
  }
}

/** Issues sorted by the shape's field order (schema and business issues interleave). */
function inFieldOrder(issues: ValidationIssue[], shape: object): ValidationIssue[] {
  const order = Object.keys(shape);
  const rank = (i: ValidationIssue) => (i.loc.length > 1 ? order.indexOf(String(i.loc[1])) : -1);
  return [...issues].sort((a, b) => rank(a) - rank(b));
}
