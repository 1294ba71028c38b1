import { z } from 'zod';
import { INSTRUMENT_STATES } from '../core/types.ts';
import { parseDuration, parseTimestamp } from '../core/time.ts';
import { agentSchema, indexSchema, latencySchema, shockSchema } from './market-schema.ts';
import { checkReplay, marketSourceSchema } from './replay-schema.ts';
import { InstrumentConfigError, resolveInstrument } from '../venue/instrument.ts';

export { agentSchema, indexSchema, latencySchema, shockSchema } from './market-schema.ts';
export type { AgentSpec, IndexSpec, LatencyModelSpec, LatencySpec, ShockSpec } from './market-schema.ts';

const decimal = z.string().regex(/^-?\d+(\.\d+)?$/, 'must be a decimal string such as "0.5"');
const positiveDecimal = z.string().regex(/^\d+(\.\d+)?$/, 'must be a non-negative decimal string');
const dateTime = z.string().refine((t) => parseTimestamp(t) !== undefined, 'must be an RFC 3339 date-time such as "2026-01-01T00:00:00Z"');
const duration = z.string().refine((t) => parseDuration(t) !== undefined, 'must be a duration such as "30s", "15m", "24h"');
const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be "HH:MM" (UTC)');

export const instrumentSchema = z.strictObject({
  /** Checked by the venue's instrument rules (`resolveInstrument`), like every field below. */
  symbol: z.string(),
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
      interestRate: decimal.optional(),
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
  /** This instrument's index process (overrides the scenario's `index`). */
  index: indexSchema.optional(),
});

export const userSchema = z.strictObject({
  username: z.string().min(1).max(50).regex(/^[-A-Za-z0-9_@.+]+$/, 'must match ^[-A-Za-z0-9_@.+]+$'),
  password: z.string().min(1).max(50),
  cash: decimal,
  totpSecret: z.string().regex(/^[A-Z2-7]+=*$/, 'must be base32').optional(),
});

/**
 * A scenario file: plain JSON, validated here with errors that name the bad field. Unknown
 * keys are errors, so a typo never silently does nothing. `index` (for every instrument, or
 * per instrument), `agents`, `shocks` and `latency` describe the synthetic market; without
 * them the index stays flat and nobody trades but the scenario's users.
 */
const scenarioObject = z.strictObject({
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
  /** Index process of every instrument without its own (default: flat). */
  index: indexSchema.optional(),
  agents: z.array(agentSchema).default([]),
  shocks: z.array(shockSchema).default([]),
  /** Latency of agents that do not give their own (default: 1 ms floor + 0.5 ms jitter). */
  latency: latencySchema.optional(),
  /** A recorded market source (L2 replay) instead of, or on top of, the synthetic market. */
  market: marketSourceSchema.optional(),
});

/** The scenario schema: the object above plus cross-field checks (symbols and names exist). */
export const scenarioSchema = scenarioObject.superRefine(checkReferences);

export type Scenario = z.infer<typeof scenarioSchema>;
export type ScenarioInstrument = z.infer<typeof instrumentSchema>;

/**
 * Cross-field checks: each instrument passes the venue's own rules (one rule set: a scenario
 * that validates is one the venue accepts); symbols that agents and shocks name exist; agent
 * names are unique.
 */
function checkReferences(s: z.output<typeof scenarioObject>, ctx: z.RefinementCtx): void {
  s.instruments.forEach((inst, i) => {
    try {
      resolveInstrument(inst);
    } catch (e) {
      if (!(e instanceof InstrumentConfigError)) throw e;
      ctx.addIssue({ code: 'custom', path: ['instruments', i, ...e.field.split('.')], message: e.why });
    }
  });
  const symbols = new Set(s.instruments.map((i) => i.symbol));
  const known = (symbol: string, path: (string | number)[]) => {
    if (!symbols.has(symbol)) ctx.addIssue({ code: 'custom', path, message: `unknown symbol ${symbol} (instruments: ${[...symbols].join(', ')})` });
  };
  const names = new Set(s.users.map((u) => u.username));
  s.agents.forEach((a, i) => {
    a.symbols.forEach((symbol, j) => known(symbol, ['agents', i, 'symbols', j]));
    const name = a.name ?? a.kind;
    if (names.has(name)) ctx.addIssue({ code: 'custom', path: ['agents', i, 'name'], message: `name ${name} is already used by another agent group or user` });
    names.add(name);
  });
  if (s.market !== undefined) checkReplay(s.market.replay, symbols, ctx);
  s.shocks.forEach((shock, i) => {
    if (shock.kind === 'liquidity-withdrawal') shock.symbols?.forEach((symbol, j) => known(symbol, ['shocks', i, 'symbols', j]));
    else if (shock.symbol !== undefined) known(shock.symbol, ['shocks', i, 'symbol']);
    if (shock.kind === 'liquidation-cascade' && shock.crowd.leverageMax < shock.crowd.leverageMin) {
      ctx.addIssue({ code: 'custom', path: ['shocks', i, 'crowd', 'leverageMax'], message: 'must not be below leverageMin' });
    }
  });
}

export type ScenarioUser = z.infer<typeof userSchema>;

/** Formats the first zod issue as "field.path: message". */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '');
  return `${path || '(root)'}: ${issue.message}`;
}
