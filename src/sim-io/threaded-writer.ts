import { closeSync, openSync } from 'node:fs';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { RowBuilderSetup } from '../sim/event-log/row-builder.ts';
import type { RowTapeData, SpareTape } from '../sim/event-log/row-tape.ts';
import { checkoutThreadEntry, type BundleKind } from './thread-bundle.ts';
import { ANSWERED, FAILED, MAX_QUEUED, QUEUED, type FromWriter, type ToWriter, type WriterThreadData } from './writer-protocol.ts';

const WORKER = new URL('./event-log-worker.js', import.meta.url);
const WRITER: BundleKind = { prefix: 'perpsim-event-log-writer-', mark: 'perpsim event log writer sources: ' };
let entry: URL | undefined;

/**
 * The writer thread's entry. In a checkout the thread is TypeScript, and registering tsx and
 * compiling the thread's modules (apache-arrow's some 200 included) cost its thread ~0.5–1 s of
 * CPU per run: there it runs bundled (`threadBundle`: one JavaScript file under the temp
 * directory, rebuilt only when a source changes). The built package's worker is JavaScript
 * already; so is the fallback if bundling fails.
 */
/** @internal Exported for its test. */
export function workerEntry(): URL {
  return (entry ??= checkoutThreadEntry(WRITER, import.meta.url, 'event-log-thread') ?? WORKER);
}


/** What the writer thread answers on `close`. */
export interface ClosedEventLog {
  bytesWritten: number;
  /** `factsBySymbol` of every batch written, when asked for (`facts: true`). */
  facts: unknown;
  /** CPU ms the writer thread used, its start included (NaN where the OS does not say). */
  cpuMs: number;
}

/**
 * `EventLogFileWriter` on a thread of its own: the same file, byte for byte, but building the
 * columns, the Arrow assembly and the LZ4 compression run on another core while the simulation
 * goes on. `writeRows` hands over a recorder's rows as numbers (`perpsim run`); it waits only
 * when the thread is `MAX_QUEUED` batches behind. Everything is synchronous for the caller: a
 * failure of the thread (a full disk, ...) is thrown by the next `writeRows` or by `close`.
 * Batches built in-process go through `ThreadedBatchWriter` (threaded-batch-writer.ts), which
 * loads Apache Arrow: this class does not, so neither does `perpsim run`'s simulation thread.
 */
export class ThreadedEventLogWriter {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  /** Tapes' arrays the thread hands back once their batch is written (`writeRows` returns them). */
  private readonly spares: MessagePort;
  private readonly ctl = new Int32Array(new SharedArrayBuffer(12));
  /** Whether the schema (or the builder's setup) went with a message already. */
  protected schemaSent = false;
  private result: ClosedEventLog | undefined;
  /** Wall ms `write` has spent waiting for the thread (its queue full): the simulation held up. */
  waitedMs = 0;

  /**
   * Creates (or truncates) `path` now, so a file that cannot be written fails here.
   * `facts: true` also measures the stylized facts of what is written (`perpsim run`'s summary).
   */
  constructor(
    readonly path: string,
    options: { compression?: 'lz4' | 'none'; facts?: boolean } = {},
  ) {
    closeSync(openSync(path, 'w')); // the thread opens it again: a worker may not close a descriptor it did not open
    const { port1, port2 } = new MessageChannel();
    const spares = new MessageChannel();
    this.port = port1;
    this.spares = spares.port1;
    const data: WriterThreadData = { path, compression: options.compression ?? 'none', facts: options.facts === true, ctl: this.ctl.buffer as SharedArrayBuffer, port: port2, spares: spares.port2 };
    this.worker = new Worker(workerEntry(), { workerData: data, transferList: [port2, spares.port2] });
    this.worker.unref();
    this.port.unref();
    this.spares.unref();
  }

  /**
   * Hands one batch's rows to the thread, which builds the batch (`RowBuilder`, made with
   * `setup` the first time) and writes it: a recorder's `onRows`. The tape's arrays are
   * transferred, not copied; the arrays of a tape the thread has written and handed back are
   * returned, if one is back, for the recorder to fill next (a recorder's `onRows` returns
   * them). Use either this or `ThreadedBatchWriter.write`.
   */
  writeRows(tape: RowTapeData, setup: RowBuilderSetup): SpareTape | undefined {
    this.waitForRoom();
    const message: ToWriter = { kind: 'rows', setup: this.schemaSent ? undefined : setup, tape };
    this.schemaSent = true;
    this.post(message, [tape.nums.buffer, tape.ids.buffer]);
    return receiveMessageOnPort(this.spares)?.message as SpareTape | undefined;
  }

  /** Throws a failure of the thread; waits while it is `MAX_QUEUED` messages behind. */
  protected waitForRoom(): void {
    if (this.result !== undefined) throw new Error(`${this.path}: event log already closed`);
    this.throwIfFailed();
    if (Atomics.load(this.ctl, QUEUED) >= MAX_QUEUED) {
      const waitStart = performance.now();
      for (let queued = Atomics.load(this.ctl, QUEUED); queued >= MAX_QUEUED; queued = Atomics.load(this.ctl, QUEUED)) {
        this.throwIfFailed();
        this.waitFor(QUEUED, queued);
      }
      this.waitedMs += performance.now() - waitStart;
    }
  }

  protected post(message: ToWriter, transfer: ArrayBuffer[]): void {
    Atomics.add(this.ctl, QUEUED, 1);
    this.port.postMessage(message, transfer);
  }

  /** Waits for the thread to write everything and the footer; its answer. Idempotent. */
  close(): ClosedEventLog {
    if (this.result !== undefined) return this.result;
    this.throwIfFailed();
    Atomics.add(this.ctl, QUEUED, 1);
    this.port.postMessage({ kind: 'close' } satisfies ToWriter);
    const answer = this.answer();
    void this.worker.terminate();
    this.spares.close();
    if (answer.kind === 'error') throw new Error(`${this.path}: ${answer.message}`);
    return (this.result = { bytesWritten: answer.bytesWritten, facts: answer.facts, cpuMs: answer.cpuMs });
  }

  private throwIfFailed(): void {
    if (Atomics.load(this.ctl, FAILED) === 0) return;
    const answer = this.answer();
    void this.worker.terminate();
    throw new Error(`${this.path}: ${answer.kind === 'error' ? answer.message : 'the writer thread failed'}`);
  }

  /** The thread's next answer, waiting for it. */
  private answer(): FromWriter {
    for (;;) {
      const answered = Atomics.load(this.ctl, ANSWERED);
      const received = receiveMessageOnPort(this.port);
      if (received !== undefined) return received.message as FromWriter;
      this.waitFor(ANSWERED, answered);
    }
  }

  /** Waits until counter `at` moves from `value`; throws if the thread is gone without a word. */
  private waitFor(at: number, value: number): void {
    if (Atomics.wait(this.ctl, at, value, 1000) === 'timed-out' && this.worker.threadId === -1) {
      throw new Error(`${this.path}: the event log writer thread stopped without an answer`);
    }
  }
}
