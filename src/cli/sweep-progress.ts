import { formatSeconds } from './progress.ts';

/** Where the progress bar goes: stderr, or a fake in tests. */
export interface SweepProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

/**
 * The sweep's progress on stderr: done / running / failed of the runs to do, and an ETA from
 * the wall time per finished run so far. On a terminal one line redrawn in place (at most ten
 * times a second); otherwise a plain line every `plainEveryMs`.
 */
export class SweepProgress {
  done = 0;
  running = 0;
  failed = 0;
  private readonly startedMs: number;
  private lastMs = -Infinity;
  private drawn = false;

  constructor(
    private readonly out: SweepProgressStream,
    private readonly total: number,
    private readonly plainEveryMs = 10_000,
    private readonly nowMs: () => number = () => performance.now(),
  ) {
    this.startedMs = this.nowMs();
    if (this.out.isTTY !== true) this.lastMs = this.startedMs;
  }

  started(): void {
    this.running++;
    this.draw();
  }

  finished(ok: boolean): void {
    this.running--;
    if (ok) this.done++;
    else this.failed++;
    this.draw();
  }

  /** The line: `[####....] 7/24 done, 2 running, 0 failed, ETA 35s`. */
  line(width = 30): string {
    const settled = this.done + this.failed;
    const elapsedS = (this.nowMs() - this.startedMs) / 1000;
    const eta = settled === 0 ? '?' : formatSeconds((elapsedS / settled) * (this.total - settled));
    const full = this.total === 0 ? width : Math.round((settled / this.total) * width);
    return `[${'#'.repeat(full)}${'.'.repeat(width - full)}] ${this.done}/${this.total} done, ${this.running} running, ${this.failed} failed, ETA ${eta}`;
  }

  private draw(): void {
    const now = this.nowMs();
    const last = this.done + this.failed === this.total;
    if (this.out.isTTY === true) {
      if (now - this.lastMs < 100 && !last) return;
      this.lastMs = now;
      this.out.write(`\r${this.line(Math.max(10, Math.min(30, (this.out.columns ?? 80) - 60)))}\x1b[K`);
      this.drawn = true;
    } else if (now - this.lastMs >= this.plainEveryMs) {
      this.lastMs = now;
      this.out.write(`${this.line()}\n`);
    }
  }

  /** Ends the bar (a newline after the terminal line). */
  end(): void {
    if (this.drawn) this.out.write('\n');
  }
}
