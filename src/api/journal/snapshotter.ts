import type { Exchange } from '../exchange.ts';
import type { JournalFile } from './journal-file.ts';
import { captureGraph } from './object-graph.ts';
import { writeSnapshot } from './snapshot-file.ts';

/** When a journaled server writes a snapshot: every N entries or T seconds of wall time (0 turns either off). */
export interface SnapshotPolicy {
  everyEntries: number;
  everySeconds: number;
  /** Wall clock (tests inject it). */
  wallNow?: () => number;
}

/**
 * Defaults of `serve --snapshot-entries` / `--snapshot-seconds`: a restart then replays at most
 * about 100,000 entries (a second or two) after loading the snapshot.
 */
export const DEFAULT_SNAPSHOT_POLICY: SnapshotPolicy = { everyEntries: 100_000, everySeconds: 300 };

/**
 * Writes snapshots of a journaled exchange: after a journal flush, once N entries or T seconds
 * have passed since the last one (and something was journaled meanwhile), in an event-loop turn
 * of its own — between commands, with everything journaled flushed first, so the snapshot is
 * exactly the state after its first `entries` journal entries.
 */
export class Snapshotter {
  private lastEntries: number;
  private lastMs: number;
  private busy = false;
  private readonly now: () => number;
  /** Snapshots written (for tests). */
  written = 0;

  constructor(
    private readonly dir: string,
    private readonly exchange: Exchange,
    private readonly roots: Record<string, object>,
    private readonly journal: JournalFile,
    private readonly policy: SnapshotPolicy,
  ) {
    this.now = policy.wallNow ?? Date.now;
    this.lastEntries = journal.entries;
    this.lastMs = this.now();
  }

  start(): void {
    this.journal.onFlushed = () => this.check();
  }

  private check(): void {
    if (this.busy) return;
    const since = this.journal.entries - this.lastEntries;
    const { everyEntries, everySeconds } = this.policy;
    const due = since > 0 && ((everyEntries > 0 && since >= everyEntries) || (everySeconds > 0 && this.now() - this.lastMs >= everySeconds * 1000));
    if (!due) return;
    this.busy = true;
    setImmediate(() => {
      try {
        this.write();
      } finally {
        this.busy = false;
      }
    });
  }

  /** Writes a snapshot now (unless the journal was closed meanwhile). */
  private write(): void {
    if (!this.exchange.commands.journaling) return;
    this.journal.flushSync();
    const journal = this.journal;
    try {
      const image = captureGraph(this.roots);
      const meta = { entries: journal.entries, bytes: journal.bytes, t: String(this.exchange.clock.nowNs), state_hash: this.exchange.venue.stateHash(), pace: this.exchange.commands.pace };
      writeSnapshot(this.dir, meta, image);
      this.written++;
    } catch (e) {
      // The journal alone still restores everything: a failed snapshot costs restart time, not data.
      console.warn(`snapshot not written: ${(e as Error).message}`);
    }
    this.lastEntries = journal.entries;
    this.lastMs = this.now();
  }
}
