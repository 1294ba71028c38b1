import { z } from 'zod';
import { parseDuration, parseTimestamp } from '../core/time.ts';
import { latencyModelSchema } from './latency-schema.ts';

export { latencyModelSchema } from './latency-schema.ts';

/**
 * The synthetic-market parts of a scenario: index processes, agents, shocks and latency
 * defaults. Every object is strict (a typo is an error) and every error names its field.
 */

const nonNegative = z.number().nonnegative();
const positive = z.number().positive();
const positiveDecimal = z.string().regex(/^\d+(\.\d+)?$/, 'must be a non-negative decimal string');
const dateTime = z.string().refine((t) => parseTimestamp(t) !== undefined, 'must be an RFC 3339 date-time such as "2026-01-01T00:00:00Z"');

/** Order-path and market-data delays of an agent (or the scenario's defaults). */
export const latencySchema = z.strictObject({
  order: latencyModelSchema.optional(),
  marketData: latencyModelSchema.optional(),
});

const jumpsSchema = z.strictObject({
  perDay: nonNegative,
  logMean: z.number().optional(),
  logStd: nonNegative,
});

/** Fields every index process accepts. */
const indexCommon = {
  /** Time between index updates, ms (default 1000). */
  updateIntervalMs: z.int().positive().optional(),
  /** How far ahead the simulation computes the path (what informed traders may see), seconds (default 10). */
  lookaheadSec: nonNegative.max(3600).optional(),
  /** Hold the index while the instrument is CLOSED by its trading hours (default true). */
  frozenWhenClosed: z.boolean().optional(),
};

const recordedPoint = z.strictObject({
  time: z.union([nonNegative, dateTime], { error: 'must be Unix seconds or an RFC 3339 date-time' }),
  price: positive,
});

/** An index process: kind + parameters (annualized values refer to a 365.25-day year). */
export const indexSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('flat'), ...indexCommon }),
  z.strictObject({ kind: z.literal('gbm'), volAnnual: nonNegative, driftAnnual: z.number().optional(), ...indexCommon }),
  z.strictObject({ kind: z.literal('jump-diffusion'), volAnnual: nonNegative, driftAnnual: z.number().optional(), jumps: jumpsSchema, ...indexCommon }),
  z.strictObject({ kind: z.literal('ou'), volAnnual: nonNegative, halfLifeSec: positive, mean: positive.optional(), ...indexCommon }),
  z.strictObject({
    kind: z.literal('regime-switching'),
    regimes: z.array(z.strictObject({ name: z.string().optional(), volAnnual: nonNegative, meanDurationSec: positive })).min(1),
    driftAnnual: z.number().optional(),
    jumps: jumpsSchema.optional(),
    ...indexCommon,
  }),
  z
    .strictObject({
      kind: z.literal('recorded'),
      /** CSV or JSON file with columns time, price; relative paths start at the scenario's folder. */
      file: z.string().min(1).optional(),
      points: z.array(recordedPoint).min(1).optional(),
      ...indexCommon,
    })
    .refine((r) => r.file !== undefined || r.points !== undefined, { message: 'needs a file or points', path: ['file'] }),
]);

const makerParams = z.strictObject({
  anchor: z.enum(['index', 'mid']).optional(),
  indexWeight: z.number().min(0).max(1).optional(),
  midSmoothingSec: positive.optional(),
  levels: z.int().positive().max(20).optional(),
  halfSpreadTicks: nonNegative.optional(),
  levelSpacingTicks: positive.optional(),
  sizeLots: positive.optional(),
  sizeGrowth: positive.optional(),
  sizeJitter: z.number().min(0).max(1).optional(),
  maxInventoryLots: positive.optional(),
  skewTicks: nonNegative.optional(),
  maxWiden: z.number().min(1).optional(),
  volShortSec: positive.optional(),
  volLongSec: positive.optional(),
  shockSigmas: positive.optional(),
  pullSec: nonNegative.optional(),
  minRequoteMs: nonNegative.optional(),
  closedBackoffSec: positive.optional(),
});

const noiseParams = z.strictObject({
  ratePerSec: positive.optional(),
  buyProbability: z.number().min(0).max(1).optional(),
  marketableProbability: z.number().min(0).max(1).optional(),
  sizeMinLots: positive.optional(),
  sizeAlpha: positive.optional(),
  sizeMaxLots: positive.optional(),
  slippageTicks: nonNegative.optional(),
  passiveOffsetMeanTicks: positive.optional(),
  passiveLifetimeSec: positive.optional(),
  closedBackoffSec: positive.optional(),
});

const signalCommon = {
  sampleSec: positive.optional(),
  sizeLots: positive.optional(),
  maxPositionLots: positive.optional(),
  slippageTicks: nonNegative.optional(),
  closedBackoffSec: positive.optional(),
};

const momentumParams = z.strictObject({ ...signalCommon, fastSec: positive.optional(), slowSec: positive.optional(), thresholdBps: nonNegative.optional() });
const meanReversionParams = z.strictObject({ ...signalCommon, meanSec: positive.optional(), thresholdBps: nonNegative.optional() });

const informedParams = z.strictObject({
  lookaheadSec: nonNegative.optional(),
  thresholdBps: nonNegative.optional(),
  exitBps: z.number().optional(),
  sizeLots: positive.optional(),
  maxPositionLots: positive.optional(),
  cooldownMs: nonNegative.optional(),
  closedBackoffSec: positive.optional(),
});

const agentCommon = {
  /** Name prefix of the agents' users (default: the kind); members are `<name>-1`, `<name>-2`, … */
  name: z.string().regex(/^[-A-Za-z0-9_.]+$/, 'must match ^[-A-Za-z0-9_.]+$').max(40).optional(),
  count: z.int().positive().max(1000).default(1),
  symbols: z.array(z.string()).min(1),
  /** Cash of each member's account (default "100000000"). */
  cash: positiveDecimal.optional(),
  latency: latencySchema.optional(),
};

/** A group of identical agents: kind, how many, which symbols, parameters, latency. */
export const agentSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('market-maker'), ...agentCommon, params: makerParams.default({}) }),
  z.strictObject({ kind: z.literal('noise-trader'), ...agentCommon, params: noiseParams.default({}) }),
  z.strictObject({ kind: z.literal('momentum-trader'), ...agentCommon, params: momentumParams.default({}) }),
  z.strictObject({ kind: z.literal('mean-reversion-trader'), ...agentCommon, params: meanReversionParams.default({}) }),
  z.strictObject({ kind: z.literal('informed-trader'), ...agentCommon, params: informedParams.default({}) }),
]);

/** A shock time: a duration after the scenario's start ("30m") or an RFC 3339 date-time. */
const shockTime = z
  .string()
  .refine((t) => parseDuration(t) !== undefined || parseTimestamp(t) !== undefined, 'must be a duration after the start ("30m") or an RFC 3339 date-time');

/** A scheduled event that disturbs the market. */
export const shockSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('index-jump'),
    at: shockTime,
    /** Omitted: every instrument. */
    symbol: z.string().optional(),
    /** Size of the move, percent (−50 = halves). */
    pct: z.number().gt(-100),
    /** Spread the move linearly over this many seconds (default 0: at once). */
    rampSec: nonNegative.optional(),
  }),
  z.strictObject({
    kind: z.literal('liquidity-withdrawal'),
    at: shockTime,
    symbols: z.array(z.string()).min(1).optional(),
    durationSec: positive,
    /** Makers' spreads and level spacing × this (default 4). */
    spreadFactor: positive.optional(),
    /** Makers' sizes × this; 0 pulls every quote (default 0.25). */
    sizeFactor: nonNegative.optional(),
  }),
  z.strictObject({
    kind: z.literal('liquidation-cascade'),
    at: shockTime,
    symbol: z.string(),
    /** The index drop (or rise, for a short crowd) that sets it off, percent. */
    dropPct: positive.max(90),
    rampSec: nonNegative.optional(),
    crowd: z.strictObject({
      count: z.int().positive().max(1000).default(20),
      side: z.enum(['B', 'S']).default('B'),
      leverageMin: positive,
      leverageMax: positive,
      /** Position of each member, quote currency at the index (decimal text). */
      notional: positiveDecimal,
      /** The crowd opens its positions during this many seconds before the shock (default 600). */
      openBeforeSec: positive.default(600),
    }),
  }),
]);

/** A validated index process spec (recorded series may still name an unread file). */
export type IndexSpec = z.infer<typeof indexSchema>;
/** A validated agent group. */
export type AgentSpec = z.infer<typeof agentSchema>;
/** A validated shock. */
export type ShockSpec = z.infer<typeof shockSchema>;
/** Validated order-path and market-data latencies. */
export type LatencySpec = z.infer<typeof latencySchema>;
/** One validated latency model (see latency-schema.ts). */
export type { LatencyModelSpec } from './latency-schema.ts';
