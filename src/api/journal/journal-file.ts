import { closeSync, fdatasync, fdatasyncSync, ftruncateSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { JournalEntry, JournalHeader } from './entries.ts';
import { JOURNAL_FILE } from './journal-read.ts';
import { JournalStoppedError, type OutputGate } from './output-gate.ts';
import { HeldOutput } from './held-output.ts';

/**
 * The two system calls of a group commit. Tests replace them to hold a sync or make one fail;
 * the server uses node's (`writeSync` on the main thread — a group is tens of KB into the page
 * cache — and `fdatasync` on libuv's thread pool).
 */
export interface JournalIo {
  /** Writes `length` bytes of `bytes` at `position` in the file. */
  write(fd: number, bytes: Buffer, length: number, position: number): number;
  fdatasync(fd: number, done: (err: Error | null) => void): void;
}

const NODE_IO: JournalIo = {
  write: (fd, bytes, length, position) => writeSync(fd, bytes, 0, length, position),
  fdatasync: (fd, done) => fdatasync(fd, done),
};

/**
 * Zeroed space written ahead of the journal's end, a chunk at a time. Groups then overwrite
 * blocks the file already has, and their `fdatasync` flushes data only: appending, every sync
 * also had to commit the file's new size through the filesystem's journal. Measured here
 * (ext4, 16 KB groups): 1.3 ms and ~100 µs CPU per write + fdatasync, against 2.2–7 ms and
 * 150–260 µs appending. A crash leaves the zeros after the last line, which readers already
 * cut off as a torn tail; a clean close truncates them.
 */
const ZERO_CHUNK_BYTES = 4 * 1024 * 1024;
let zeros: Buffer | undefined;

/** Smallest buffer the pending entries are built in; it grows to twice the largest group. */
const MIN_PENDING_BYTES = 64 * 1024;

/**
 * An append-only JSON-lines file: a header line, then one entry per line, committed in groups
 * with nothing acknowledged before it is on disk (everything acknowledged survives kill -9).
 *
 * Pipelined group commit: entries added during an event-loop turn are built into one reusable
 * buffer; at the end of the turn they are written with one `write` and `fdatasync`'d on the
 * thread pool, while the event loop goes on reading, validating and applying the next commands
 * into the next group. At most one sync is in flight; when it completes, the group that gathered
 * meanwhile is written and synced at once. It is also the wire's {@link OutputGate}: output
 * produced while anything journaled is not yet synced is held, and released — in order — by
 * the sync that covers everything journaled before it was held.
 *
 * A failed write or sync is final (fail-stop, like a database that stops on an fsync error: a
 * retried fsync may report success for pages the kernel already dropped): held output is
 * dropped, never released, further entries are refused, and {@link onFailure} tells the server,
 * which stops serving; a restart on the directory recovers everything acknowledged.
 *
 * A line cut short by a crash (no newline) is ignored on reading.
 */
export class JournalFile implements OutputGate {
  /** Entries added since the last write: JSON lines, each ending in a newline, at [0, pendingEnd). */
  private pending = Buffer.allocUnsafeSlow(MIN_PENDING_BYTES);
  private pendingEnd = 0;
  private pendingCount = 0;
  /** Where the last pending entry starts (for {@link retractLast}). */
  private lastStart = 0;
  /** Writes (groups) so far, and how many of them a completed `fdatasync` covers. */
  private writes = 0;
  private synced = 0;
  private syncing = false;
  private scheduled = false;
  /** Output held until the write covering it is synced. */
  private readonly held = new HeldOutput();
  /** The promise {@link durable} hands out for the group `durableUpTo` (one per group, not per request). */
  private durablePromise: Promise<void> | undefined;
  private durableUpTo = 0;
  private closed = false;
  /** The error that stopped the journal, if one did. */
  failure: Error | undefined;
  /** Entries written since open (for the banner and tests). */
  written = 0;
  /** Called after each write of entries (periodic snapshots hang here). */
  onFlushed: (() => void) | undefined;
  /** Called once when a write or sync fails (the server stops serving). */
  onFailure: ((err: Error) => void) | undefined;
  /** Completed syncs: their wall latency (ns) and how many entries each covered (the bench reads these). */
  readonly syncStats = { count: 0, entries: 0, latenciesNs: [] as number[] };

  /** The file's length: the entries' bytes, then zeros written ahead. */
  private allocated: number;

  /**
   * @param entries Entries already in the file (after the header).
   * @param bytes The file's length (complete lines only).
   */
  private constructor(
    private readonly fd: number,
    public entries: number,
    public bytes: number,
    private readonly io: JournalIo,
  ) {
    this.allocated = bytes;
    this.zeroAhead(1);
    fdatasyncSync(fd);
  }

  /** Creates DIR/journal.jsonl with its header (DIR is created if missing). */
  static create(dir: string, header: JournalHeader, io: JournalIo = NODE_IO): JournalFile {
    mkdirSync(dir, { recursive: true });
    const fd = openSync(join(dir, JOURNAL_FILE), 'wx');
    const bytes = writeSync(fd, JSON.stringify(header) + '\n');
    return new JournalFile(fd, 0, bytes, io);
  }

  /** Opens an existing journal (of `entries` entries, `bytes` long: anything after is cut off) for appending. */
  static append(dir: string, entries: number, bytes: number, io: JournalIo = NODE_IO): JournalFile {
    const fd = openSync(join(dir, JOURNAL_FILE), 'r+');
    ftruncateSync(fd, bytes);
    return new JournalFile(fd, entries, bytes, io);
  }

  /** Appends an entry (durable once its group is synced). */
  add(entry: JournalEntry): void {
    this.addLine(JSON.stringify(entry));
  }

  /**
   * Appends an entry already written as one line of JSON (no newline inside): order entry
   * builds its line by hand, since stringifying a fresh object per order was most of the
   * journal's cost. The line is encoded straight into the group's buffer.
   */
  addLine(json: string): void {
    const buf = this.lineRoom(json.length * 3); // UTF-8 is at most 3 bytes per UTF-16 unit
    this.endLine(this.pendingEnd + buf.write(json, this.pendingEnd));
  }

  /**
   * Room for one line of at most `maxBytes` (its newline not counted) at the end of the group,
   * for a writer that encodes the line in place (order entry: no string per order): the line
   * goes from {@link lineStart}, then {@link endLine} with where it ends. Throws when the
   * journal takes no more entries.
   */
  lineRoom(maxBytes: number): Buffer {
    if (this.failure !== undefined) throw new JournalStoppedError(this.failure);
    if (this.closed) throw new Error('journal is closed');
    const need = this.pendingEnd + maxBytes + 1;
    if (need > this.pending.length) this.grow(need);
    return this.pending;
  }

  /** Where the next line starts in the buffer {@link lineRoom} returned. */
  get lineStart(): number {
    return this.pendingEnd;
  }

  /** Completes the line written after {@link lineRoom}, ending at `end` (the newline is added here). */
  endLine(end: number): void {
    this.lastStart = this.pendingEnd;
    this.pending[end] = 0x0a;
    this.pendingEnd = end + 1;
    if (this.pendingCount++ === 0 && !this.syncing && !this.scheduled) {
      this.scheduled = true;
      setImmediate(this.endOfTurn);
    }
  }

  /** Takes back the entry just added (its command failed before changing anything). */
  retractLast(): void {
    if (this.pendingCount === 0) return;
    this.pendingEnd = this.lastStart;
    this.pendingCount--;
  }

  /** True when nothing journaled waits for a sync (and the journal has not failed). */
  get open(): boolean {
    return this.pendingCount === 0 && this.synced === this.writes && this.failure === undefined;
  }

  hold(release: () => void): void {
    if (this.failure !== undefined) return;
    const upTo = this.coveringWrite;
    if (upTo <= this.synced) return release();
    this.held.add(upTo, release);
  }

  /** The number of the write whose sync makes everything added so far durable (the next one while entries are pending). */
  private get coveringWrite(): number {
    return this.pendingCount > 0 ? this.writes + 1 : this.writes;
  }

  /** Resolves once everything added so far is on disk (at once when it already is); never, if the journal fails. */
  durable(): Promise<void> {
    if (this.open) return Promise.resolve();
    const upTo = this.coveringWrite;
    if (this.durablePromise !== undefined && this.durableUpTo === upTo) return this.durablePromise;
    this.durableUpTo = upTo;
    return (this.durablePromise = new Promise<void>((resolve) => this.hold(resolve)));
  }

  /** Writes whatever is pending and fdatasyncs on the spot (snapshots, shutdown), then releases everything held. */
  flushSync(): void {
    if (this.closed || this.failure !== undefined) return;
    if (!this.write()) return;
    if (this.writes > this.synced) {
      try {
        fdatasyncSync(this.fd);
      } catch (e) {
        return this.fail(e as Error);
      }
      this.markSynced(this.writes);
    }
  }

  /** Writes and syncs what is pending and cuts off the zeros written ahead. */
  close(): void {
    if (this.closed) return;
    this.flushSync();
    this.closed = true;
    if (this.failure === undefined) {
      ftruncateSync(this.fd, this.bytes);
      fdatasyncSync(this.fd);
    }
    closeSync(this.fd);
  }

  /** End of the turn of the group's first entry: write and sync it, unless a sync is in flight (its completion does). */
  private readonly endOfTurn = (): void => {
    this.scheduled = false;
    this.commit();
  };

  /** Writes the pending group and starts its `fdatasync` on the thread pool (one sync in flight at most). */
  private commit(): void {
    if (this.syncing || this.closed || this.failure !== undefined || this.pendingCount === 0) return;
    const entries = this.pendingCount;
    if (!this.write()) return;
    this.syncing = true;
    const upTo = this.writes;
    const startNs = process.hrtime.bigint();
    this.io.fdatasync(this.fd, (err) => {
      this.syncing = false;
      if (this.closed) return; // close() synced everything itself
      if (err !== null) return this.fail(err);
      this.syncStats.count++;
      this.syncStats.entries += entries;
      if (this.syncStats.latenciesNs.length < 100_000) this.syncStats.latenciesNs.push(Number(process.hrtime.bigint() - startNs));
      this.markSynced(upTo);
      this.commit(); // the group that gathered during this sync
    });
  }

  /** One `write` of the pending entries; false when it failed (the journal has stopped). */
  private write(): boolean {
    if (this.pendingCount === 0) return true;
    try {
      this.zeroAhead(this.pendingEnd);
      const wrote = this.io.write(this.fd, this.pending, this.pendingEnd, this.bytes);
      if (wrote !== this.pendingEnd) throw new Error(`short write: ${wrote} of ${this.pendingEnd} bytes`);
    } catch (e) {
      this.fail(e as Error);
      return false;
    }
    this.bytes += this.pendingEnd;
    this.written += this.pendingCount;
    this.entries += this.pendingCount;
    this.pendingEnd = 0;
    this.pendingCount = 0;
    this.lastStart = 0;
    this.writes++;
    this.onFlushed?.();
    return true;
  }

  /** Releases, in order, all output held for writes up to `upTo`. */
  private markSynced(upTo: number): void {
    if (upTo > this.synced) this.synced = upTo;
    this.held.releaseUpTo(this.synced);
  }

  /** The journal stops: nothing held is released, nothing more is accepted; the server is told. */
  private fail(err: Error): void {
    if (this.failure !== undefined) return;
    this.failure = err;
    this.held.drop();
    this.pendingEnd = 0;
    this.pendingCount = 0;
    this.onFailure?.(err);
  }

  /** Makes sure zeroed space for `need` more bytes follows the entries (see {@link ZERO_CHUNK_BYTES}). */
  private zeroAhead(need: number): void {
    while (this.bytes + need > this.allocated) {
      zeros ??= Buffer.alloc(ZERO_CHUNK_BYTES);
      this.allocated += writeSync(this.fd, zeros, 0, zeros.length, this.allocated);
    }
  }

  private grow(need: number): void {
    const next = Buffer.allocUnsafeSlow(Math.max(2 * need, MIN_PENDING_BYTES));
    this.pending.copy(next, 0, 0, this.pendingEnd);
    this.pending = next;
  }
}
