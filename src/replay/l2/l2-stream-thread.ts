import { workerData, type MessagePort } from 'node:worker_threads';
import { ReplayError } from '../replay-error.ts';
import { batchBuffers } from './l2-batch.ts';
import { scanL2Span, streamL2Batches, type L2FileSpec } from './l2-sources.ts';
import type { L2TickerEvent } from './l2-event.ts';
import { AHEAD, POSTED, TAKEN, type StreamRequest, type StreamMessage } from './l2-stream-protocol.ts';

/**
 * The reader thread: decodes the files with the ordinary async readers and posts the events
 * in column batches (`streamL2Batches`; transferred, not copied), at most `AHEAD` batches ahead of what the replay
 * has taken, so memory stays flat however long the recording. In `min-delay` mode it only
 * scans for the most negative feed delay (the recorded delay's shift).
 */
const { files, skipBadRows, mode, port, ctl: shared } = workerData as StreamRequest & { port: MessagePort };
const ctl = new Int32Array(shared);
// Node 20 has it; TypeScript's lib for our target does not list it yet.
const waitAsync = (Atomics as unknown as { waitAsync(a: Int32Array, i: number, v: number): { async: boolean; value: Promise<unknown> | string } }).waitAsync;

function post(message: StreamMessage, transfer: ArrayBuffer[] = []): void {
  port.postMessage(message, transfer);
  Atomics.add(ctl, POSTED, 1);
  Atomics.notify(ctl, POSTED);
}

async function events(files: readonly L2FileSpec[]): Promise<void> {
  for await (const batch of streamL2Batches(files, { skipBadRows })) {
    post({ kind: 'batch', batch }, batchBuffers(batch));
    // Wait while the replay has not taken what is already posted (flat memory).
    while (Atomics.load(ctl, POSTED) - Atomics.load(ctl, TAKEN) >= AHEAD) {
      const taken = Atomics.load(ctl, TAKEN);
      const r = waitAsync(ctl, TAKEN, taken);
      if (r.async) await r.value;
    }
  }
  post({ kind: 'end' });
}

/** The span pass's shift: from columns or times alone where the span pass reads them so. */
async function minDelay(files: readonly L2FileSpec[]): Promise<void> {
  post({ kind: 'min-delay', ns: (await scanL2Span(files, { skipBadRows })).minFeedDelayNs });
}

/** The span pass of a recording named on the command line (its scenario's start, duration and index). */
async function span(files: readonly L2FileSpec[]): Promise<void> {
  // A single columnar file's index tickers come along (the run's index pass is then not made again).
  const indexTickers: { found?: L2TickerEvent[] } = {};
  const found = await scanL2Span(files, { skipBadRows, indexTickers });
  post({ kind: 'span', span: found, indexTickers: indexTickers.found });
}

// A pending Atomics.waitAsync does not keep a thread's event loop alive: this timer does, until the end.
const keepAlive = setInterval(() => {}, 1 << 30);
try {
  await (mode === 'events' ? events(files) : mode === 'span' ? span(files) : minDelay(files));
} catch (e) {
  const r = e instanceof ReplayError ? e : undefined;
  const code = (e as NodeJS.ErrnoException).code;
  post({ kind: 'error', file: r?.file, line: r?.line, column: r?.column, reason: r?.reason ?? (e as Error).message, code });
}
clearInterval(keepAlive);
