import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { ReplayError } from '../replay-error.ts';
import type { L2Batch } from './l2-batch.ts';
import type { L2TickerEvent } from './l2-event.ts';
import type { L2Feed } from './l2-feed.ts';
import type { L2FileSpec } from './l2-sources.ts';
import type { RecordingSpan } from './l2-span.ts';
import { checkoutThreadEntry } from '../../sim-io/thread-bundle.ts';
import { READER } from './reader-bundle.ts';
import { POSTED, TAKEN, type StreamMessage, type StreamRequest } from './l2-stream-protocol.ts';

const WORKER = new URL('./l2-stream-worker.js', import.meta.url);

let entry: URL | undefined;

/**
 * The reader thread's entry. In a checkout the thread is TypeScript, which the worker entry
 * runs through tsx, and registering tsx and compiling the readers cost each thread about half
 * a second of CPU: there the thread runs bundled (`checkoutThreadEntry`, src/sim-io/thread-bundle.ts: one JavaScript file
 * under the temp directory, rebuilt only when a source changes). The built package's worker
 * is JavaScript already; so is the fallback if bundling fails.
 */
function workerEntry(): URL {
  return (entry ??= checkoutThreadEntry(READER, import.meta.url, 'l2-stream-thread') ?? WORKER);
}


/**
 * A recording streamed from its files as the replay needs it. The files are decoded on a
 * reader thread (the readers are async, the sim clock is not) that stays a few batches ahead;
 * `next()` blocks the replay's thread only when the reader is behind (`Atomics.wait`), which
 * also lets reading and replaying use two cores. The thread is unreferenced: a run that ends
 * before the recording does not wait for it.
 *
 * @throws ReplayError (from `next()`) for a bad file or row, as the readers report it.
 */
export function streamFeed(files: readonly L2FileSpec[], options: { skipBadRows?: boolean } = {}): L2Feed {
  let thread: ReaderThread | undefined = claimStarted(files, options.skipBadRows ?? false) ?? new ReaderThread(files, options.skipBadRows ?? false, 'events');
  // The first batch is taken now: a file that cannot be opened or starts badly fails here, at build.
  let first: ReturnType<ReaderThread['take']> | undefined = thread.take();
  return {
    next(): L2Batch | undefined {
      const message = first ?? thread?.take();
      first = undefined;
      if (message === undefined) return undefined;
      if (message.kind === 'batch') return message.batch;
      thread!.close();
      thread = undefined;
      return undefined; // 'end'
    },
    close(): void {
      first = undefined;
      thread?.close();
      thread = undefined;
    },
  };
}

/**
 * Feed-delay shifts found by span passes in this process, by files and options: the run that
 * follows a span pass (`perpsim backtest --replay`) needs the shift as soon as a strategy
 * listens, and reading a raw capture through again for it cost as much as the span pass.
 */
const shiftsFound = new Map<string, bigint>();
const shiftKey = (files: readonly L2FileSpec[], skipBadRows: boolean): string => JSON.stringify([files, skipBadRows]);

/**
 * The index tickers a span pass of one columnar file found on the way (`scanL2Span`), by files
 * and options: the run that follows would otherwise read the whole file once more for them.
 */
const tickersFound = new Map<string, L2TickerEvent[]>();

/** The tickers with an index price a span pass of these files found, if one did (one columnar file). */
export function indexTickersFound(files: readonly L2FileSpec[], options: { skipBadRows?: boolean } = {}): L2TickerEvent[] | undefined {
  return tickersFound.get(shiftKey(files, options.skipBadRows ?? false));
}

/**
 * The run's reader thread, started beside the span pass of the same files (`scanSpan`): the
 * run that follows a span pass (`perpsim backtest --replay`) then finds its first batches read
 * instead of waiting for a thread to start and read them. One at most: a newer span pass, or a
 * failed one, closes it. Unclaimed, it holds its few batches until the process ends (it is
 * unreferenced).
 */
let started: { key: string; thread: ReaderThread } | undefined;

function claimStarted(files: readonly L2FileSpec[], skipBadRows: boolean): ReaderThread | undefined {
  if (started === undefined || started.key !== shiftKey(files, skipBadRows)) return undefined;
  const { thread } = started;
  started = undefined;
  return thread;
}

function closeStarted(): void {
  started?.thread.close();
  started = undefined;
}

/**
 * A recording's span (first and last time, first prices, feed-delay shift), read through on a
 * reader thread; the run's reader thread starts beside it (see `started`).
 */
export function scanSpan(files: readonly L2FileSpec[], options: { skipBadRows?: boolean } = {}): RecordingSpan {
  const skipBadRows = options.skipBadRows ?? false;
  const key = shiftKey(files, skipBadRows);
  const thread = new ReaderThread(files, skipBadRows, 'span');
  closeStarted();
  started = { key, thread: new ReaderThread(files, skipBadRows, 'events') };
  try {
    const message = thread.take();
    if (message?.kind !== 'span') throw new Error('the reader thread ended without the span');
    shiftsFound.set(key, message.span.minFeedDelayNs);
    if (message.indexTickers !== undefined) tickersFound.set(key, message.indexTickers);
    return message.span;
  } catch (e) {
    closeStarted();
    throw e;
  } finally {
    thread.close();
  }
}

/** The most negative feed delay of the files (0 when none is), read through on a reader thread while the caller waits (or known from a span pass). */
export function scanMinFeedDelayNs(files: readonly L2FileSpec[], options: { skipBadRows?: boolean } = {}): bigint {
  const known = shiftsFound.get(shiftKey(files, options.skipBadRows ?? false));
  if (known !== undefined) return known;
  const thread = new ReaderThread(files, options.skipBadRows ?? false, 'min-delay');
  try {
    const message = thread.take();
    if (message?.kind !== 'min-delay') throw new Error('the reader thread ended without the feed delay');
    return message.ns;
  } finally {
    thread.close();
  }
}

class ReaderThread {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly ctl = new Int32Array(new SharedArrayBuffer(8));

  constructor(files: readonly L2FileSpec[], skipBadRows: boolean, mode: StreamRequest['mode']) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    const request: StreamRequest & { port: MessagePort } = { files: [...files], skipBadRows, mode, ctl: this.ctl.buffer as SharedArrayBuffer, port: port2 };
    this.worker = new Worker(workerEntry(), { workerData: request, transferList: [port2], stdout: false, stderr: false });
    this.worker.unref();
    this.port.unref();
  }

  /** The next message, waiting for it; errors thrown. */
  take(): Exclude<StreamMessage, { kind: 'error' }> | undefined {
    for (;;) {
      const posted = Atomics.load(this.ctl, POSTED);
      const received = receiveMessageOnPort(this.port);
      if (received !== undefined) {
        Atomics.add(this.ctl, TAKEN, 1);
        Atomics.notify(this.ctl, TAKEN);
        const message = received.message as StreamMessage;
        if (message.kind === 'error') throw errorOf(message);
        return message;
      }
      // The reader posts, then counts: a count that moved means a message to take. The timeout
      // guards against a thread that died without posting (its exit is then checked).
      if (Atomics.wait(this.ctl, POSTED, posted, 1000) === 'timed-out' && this.exited()) {
        throw new Error('the replay reader thread stopped without an answer');
      }
    }
  }

  close(): void {
    this.port.close();
    void this.worker.terminate();
  }

  private exited(): boolean {
    return this.worker.threadId === -1;
  }
}

function errorOf(m: Extract<StreamMessage, { kind: 'error' }>): Error {
  if (m.file !== undefined) return new ReplayError(m.file, m.line, m.column, m.reason);
  const e = new Error(m.reason) as NodeJS.ErrnoException;
  if (m.code !== undefined) e.code = m.code;
  return e;
}
