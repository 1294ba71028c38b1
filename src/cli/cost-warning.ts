import { formatDuration } from '../core/time.ts';

/** Runs longer than this (simulated) get a warning line first. */
export const WARN_SIM_NS = 6n * 3600n * 1_000_000_000n;
/** Runs whose output is estimated above this get a warning line first. */
export const WARN_BYTES = 500_000_000;

/**
 * Event-log bytes per agent and simulated hour, measured on `default` (10 agents, a day's log
 * 209.0 MB with LZ4-compressed batches: about 8.7 MB per simulated hour, ~33 bytes an event;
 * bench/README "Round 13"). An estimate: agents differ in activity.
 */
export const EVENT_LOG_BYTES_PER_AGENT_HOUR = 900_000;

/**
 * The warning to print before a run that simulates more than 6 h or is expected to write more
 * than 500 MB, saying how to shorten it; undefined for a run below both.
 */
export function costWarning(command: string, simNs: bigint, estimatedBytes?: number): string | undefined {
  const long = simNs > WARN_SIM_NS;
  const big = estimatedBytes !== undefined && estimatedBytes > WARN_BYTES;
  if (!long && !big) return undefined;
  const size = estimatedBytes === undefined ? '' : `, writing about ${formatBytes(estimatedBytes)}`;
  return `perpsim ${command}: warning: this run simulates ${formatDuration(simNs)}${size}; give --duration 1h (or less) to shorten it`;
}

/** Bytes of event log a scenario of `agents` agents writes over `simNs` (estimate). */
export function estimateEventLogBytes(agents: number, simNs: bigint): number {
  const hours = Number(simNs / 1_000_000n) / 3_600_000;
  return Math.round(Math.max(agents, 1) * EVENT_LOG_BYTES_PER_AGENT_HOUR * hours);
}

function formatBytes(bytes: number): string {
  return bytes >= 1e9 ? `${(bytes / 1e9).toFixed(1)} GB` : `${Math.round(bytes / 1e6)} MB`;
}
