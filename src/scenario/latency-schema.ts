import { z } from 'zod';
import { parseTimestamp } from '../core/time.ts';

/**
 * Latency models a scenario can name (`latency.order`, `latency.marketData`, an agent group's
 * `latency`, a replay's `latency.marketData`, a backtest's strategy):
 * - `{floorMs, jitterMs, sigma}`: a floor plus log-normal jitter (the default kind);
 * - `{kind: "series", file | points}`: recorded latencies interpolated at each message's time;
 * - `{kind: "activity", baseMs, perMessageMs, windowMs, capMs}`: grows with market messages.
 * Millisecond values are rounded to the ns when the model is built.
 */

const nonNegative = z.number().nonnegative();
const positive = z.number().positive();

/** A floor plus log-normal jitter (median `jitterMs`, shape `sigma`). */
const floorJitterSchema = z.strictObject({
  floorMs: nonNegative,
  jitterMs: nonNegative.default(0),
  sigma: positive.default(0.5),
});

/** `ts` as integer ns since the epoch (digits) or RFC 3339 text with up to nine fraction digits. */
const seriesTime = z.string().refine((t) => /^\d+$/.test(t) || parseTimestamp(t) !== undefined, 'must be integer ns since the epoch or an RFC 3339 date-time');

const seriesSchema = z
  .strictObject({
    kind: z.literal('series'),
    /** CSV with a header row naming `ts` and `latency_ns`; relative paths start at the scenario's folder. */
    file: z.string().min(1).optional(),
    points: z.array(z.strictObject({ ts: seriesTime, latencyNs: z.int().nonnegative() })).min(1).optional(),
  })
  .refine((s) => s.file !== undefined || s.points !== undefined, { message: 'needs a file or points', path: ['file'] });

const activitySchema = z.strictObject({
  kind: z.literal('activity'),
  /** Latency of a quiet market. */
  baseMs: nonNegative,
  /** Added per market message (book change or trade) in the trailing window. */
  perMessageMs: nonNegative,
  windowMs: positive,
  /** The most it can be (default: no cap). */
  capMs: nonNegative.optional(),
});

/** One latency model. */
export const latencyModelSchema = z.union([floorJitterSchema, seriesSchema, activitySchema], {
  error: 'must be {floorMs, jitterMs?, sigma?}, {kind: "series", file | points} or {kind: "activity", baseMs, perMessageMs, windowMs, capMs?}',
});

/** One validated latency model. */
export type LatencyModelSpec = z.infer<typeof latencyModelSchema>;
/** A validated recorded-series model. */
export type SeriesLatencySpec = z.infer<typeof seriesSchema>;

/** Whether `spec` is the floor + jitter kind. */
export function isFloorJitter(spec: LatencyModelSpec): spec is z.infer<typeof floorJitterSchema> {
  return !('kind' in spec);
}
