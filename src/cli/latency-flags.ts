import type { Command } from 'commander';
import { parseDuration } from '../core/time.ts';
import { readLatencySeries } from '../scenario/latency-files.ts';
import type { LatencyModelSpec } from '../scenario/latency-schema.ts';
import { oneLine } from '../backtest/strategy-module.ts';
import { textOption } from './option-parsers.ts';
import { UsageError } from './usage-error.ts';

/** `--latency-file` / `--latency-activity` as commander parses them. */
export interface LatencyOptionValues {
  latencyFile?: string;
  latencyActivity?: string;
}

/** The flags that give the strategy's order path a recorded or activity-driven latency. */
export function addLatencyOptions<C extends Command>(cmd: C): C {
  return cmd
    .option('--latency-file <csv>', "order latency of the strategy read off recorded latencies: CSV with columns ts (integer ns or RFC 3339) and latency_ns, interpolated linearly (default: the scenario's order latency)", textOption('latency-file'))
    .option(
      '--latency-activity <base,per-message,window[,cap]>',
      "order latency of the strategy growing with market activity: base + per-message × (book changes and trades in the trailing window), capped; durations such as 1ms,20us,1s,50ms (default: the scenario's order latency)",
      textOption('latency-activity'),
    );
}

/** The order latency the flags ask for, or undefined; a bad file or value is a one-line UsageError. */
export function orderLatencyOf(opts: LatencyOptionValues): LatencyModelSpec | undefined {
  if (opts.latencyFile !== undefined && opts.latencyActivity !== undefined) throw new UsageError('--latency-file and --latency-activity exclude each other (one order latency model)');
  if (opts.latencyFile !== undefined) {
    try {
      return { kind: 'series', points: readLatencySeries(opts.latencyFile) };
    } catch (e) {
      const missing = (e as NodeJS.ErrnoException).code === 'ENOENT';
      throw new UsageError(missing ? `--latency-file: no such file ${opts.latencyFile}` : `--latency-file: ${oneLine(e)}`);
    }
  }
  if (opts.latencyActivity !== undefined) return activitySpec(opts.latencyActivity);
  return undefined;
}

function activitySpec(text: string): LatencyModelSpec {
  const parts = text.split(',');
  const ns = parts.map((p) => parseDuration(p.trim()));
  if (parts.length < 3 || parts.length > 4 || ns.some((x) => x === undefined) || ns[2] === 0n) {
    throw new UsageError(`--latency-activity must be base,per-message,window[,cap] as durations with a positive window, such as 1ms,20us,1s,50ms; got "${text}"`);
  }
  const ms = ns.map((x) => Number(x!) / 1e6);
  return { kind: 'activity', baseMs: ms[0]!, perMessageMs: ms[1]!, windowMs: ms[2]!, ...(ms[3] === undefined ? {} : { capMs: ms[3] }) };
}
