import { z } from 'zod';
import { INSTRUMENT_STATES } from '../core/types.ts';
import { parseDuration, parseTimestamp } from '../core/time.ts';

const decimal = z.string().regex(/^-?\d+(\.\d+)?$/, 'must be a decimal string such as "0.5"');
const positiveDecimal = z.string().regex(/^\d+(\.\d+)?$/, 'must be a non-negative decimal string');
const dateTime = z.string().refine((t) => parseTimestamp(t) !== undefined, 'must be an RFC 3339 date-time such as "2026-01-01T00:00:00Z"');
const duration = z.string().refine((t) => parseDuration(t) !== undefined, 'must be a duration such as "30s", "15m", "24h"');
const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be "HH:MM" (UTC)');

export const instrumentSchema = z.strictObject({
  symbol: z.string().regex(/^[A-Z0-9]+-PERP$/, 'must look like BTCUSD-PERP').max(20),
  tickSize: positiveDecimal,
  indexPrice: positiveDecimal,
  multiplier: z.int().positive().optional(),
  minimumTradeQuantity: z.int().positive().optional(),
  description: z.string().optional(),
  productId: z.string().optional(),
  initialState: z.enum(INSTRUMENT_STATES).optional(),
  initialMarginPct: positiveDecimal.optional(),
  maintenanceMarginPct: positiveDecimal.optional(),
  makerFee: decimal.optional(),
  takerFee: decimal.optional(),
  priceBandPct: positiveDecimal.optional(),
  funding: z
    .strictObject({
      intervalSec: z.int().positive().optional(),
      offsetSec: z.int().nonnegative().optional(),
      capRate: positiveDecimal.optional(),
    })
    .optional(),
  tradingHours: z
    .strictObject({
      open: hhmm,
      close: hhmm,
      weekdays: z.array(z.int().min(1).max(7)).optional(),
      expireOrdersAtClose: z.boolean().optional(),
    })
    .optional(),
  schedule: z.array(z.strictObject({ at: dateTime, state: z.enum(INSTRUMENT_STATES) })).optional(),
  maxOpenOrders: z.int().positive().optional(),
  selfTradePrevention: z.boolean().optional(),
});

export const userSchema = z.strictObject({
  username: z.string().min(1).max(50).regex(/^[-A-Za-z0-9_@.+]+$/, 'must match ^[-A-Za-z0-9_@.+]+$'),
  password: z.string().min(1).max(50),
  cash: decimal,
  totpSecret: z.string().regex(/^[A-Z2-7]+=*$/, 'must be base32').optional(),
});

/**
 * A scenario file: plain JSON, validated here with errors that name the bad field.
 * Agents and index processes arrive with the synthetic-markets work; unknown keys are errors,
 * so a typo never silently does nothing.
 */
export const scenarioSchema = z.strictObject({
  name: z.string().min(1),
  description: z.string().optional(),
  seed: z.int().nonnegative().default(1),
  start: dateTime.default('2026-01-01T00:00:00Z'),
  duration: duration.default('24h'),
  instruments: z.array(instrumentSchema).min(1),
  users: z.array(userSchema).default([]),
  venue: z
    .strictObject({
      markRecordIntervalSec: z.int().positive().optional(),
      liquidationCheckIntervalSec: z.int().positive().optional(),
    })
    .default({}),
});

export type Scenario = z.infer<typeof scenarioSchema>;
export type ScenarioUser = z.infer<typeof userSchema>;

/** Formats the first zod issue as "field.path: message". */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '');
  return `${path || '(root)'}: ${issue.message}`;
}
