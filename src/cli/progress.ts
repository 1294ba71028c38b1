import { formatTimestampNs } from '../core/time.ts';

/** Where progress goes: stderr, or a fake in tests. */
export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

/** Progress that goes nowhere (`--quiet`). */
export const NO_PROGRESS: ProgressStream = { write: () => true };

/**
 * Progress of a run through sim time, on stderr. On a terminal: one line redrawn in place
 * (bar, sim time, %, ETA) at most ten times a second. Otherwise: a plain line every
 * `plainEveryMs` of wall time, and nothing at all for runs shorter than that. A replay adds the
 * recorded records applied so far and their rate per wall second (`update(tNs, records)`).
 */
export class Progress {
  private readonly startedMs: number;
  private lastDrawMs = -Infinity;
  private lastPlainMs: number;
  private drawn = false;

  constructor(
    private readonly out: ProgressStream,
    private readonly startNs: bigint,
    private readonly endNs: bigint,
    private readonly label: string,
    private readonly plainEveryMs = 10_000,
    private readonly nowMs: () => number = () => performance.now(),
  ) {
    this.startedMs = this.nowMs();
    this.lastPlainMs = this.startedMs;
  }

  /**
   * Reports that the run reached sim time `tNs`, having applied `records` recorded events (a
   * replay: a depth update, a trade or a ticker is one event; a depth update holds many of
   * `perpsim convert`'s normalized records, so the line says events, not records).
   */
  update(tNs: bigint, records?: number): void {
    const now = this.nowMs();
    const tty = this.out.isTTY === true;
    if (tty ? now - this.lastDrawMs < 100 && tNs < this.endNs : now - this.lastPlainMs < this.plainEveryMs) return;
    const text = this.text(tNs, records, now);
    if (tty) {
      this.lastDrawMs = now;
      const fraction = this.fraction(tNs);
      const width = Math.max(10, Math.min(40, (this.out.columns ?? 80) - text.length - 4));
      const full = Math.round(fraction * width);
      this.out.write(`\r[${'#'.repeat(full)}${'.'.repeat(width - full)}] ${text}\x1b[K`);
      this.drawn = true;
    } else {
      this.lastPlainMs = now;
      this.out.write(`${text}\n`);
    }
  }

  /** Clears the progress line (terminal only). */
  done(): void {
    if (this.drawn) this.out.write('\r\x1b[K');
  }

  private fraction(tNs: bigint): number {
    const span = this.endNs - this.startNs;
    return span <= 0n ? 1 : Number(((tNs - this.startNs) * 10_000n) / span) / 10_000;
  }

  private text(tNs: bigint, records: number | undefined, now: number): string {
    const fraction = this.fraction(tNs);
    const elapsedMs = now - this.startedMs;
    const eta = fraction > 0 ? formatSeconds((elapsedMs * (1 - fraction)) / fraction / 1000) : '?';
    const base = `${this.label} ${formatTimestampNs(tNs).replace(/\.0+Z$/, 'Z')} ${(fraction * 100).toFixed(1).padStart(5)}% ETA ${eta}`;
    if (records === undefined) return base;
    const rate = elapsedMs > 0 ? Math.round((records * 1000) / elapsedMs) : 0;
    return `${base}, ${records} events (${rate} events/s)`;
  }
}

/** `42s`, `3m05s`, `1h02m`. */
export function formatSeconds(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
