import { workerData } from 'node:worker_threads';
import { factsBySymbol, observeEventBatch } from '../sim/event-log/facts-feed.ts';
import { StylizedFacts } from '../sim/stylized-facts.ts';
import { BatchUnpacker, unpackSchema } from './batch-transfer.ts';
import { RowBuilder } from '../sim/event-log/row-builder.ts';
import type { SpareTape } from '../sim/event-log/row-tape.ts';
import { EventLogFileWriter } from './event-log-file.ts';
import { threadCpuS } from './thread-cpu.ts';
import { ANSWERED, FAILED, QUEUED, type FromWriter, type ToWriter, type WriterThreadData } from './writer-protocol.ts';

/**
 * The event log's writer thread: rebuilds each batch the main thread packed (or builds it from
 * the rows the recorder sent as numbers: `RowBuilder`), writes it (Arrow
 * IPC, LZ4: the costly part, which now runs beside the simulation on the other core) and
 * measures the stylized facts from it; on `close` writes the footer and answers with the bytes
 * written and the facts. Any failure is answered at once and marked in the shared counters,
 * so the main thread stops at its next batch.
 */
const { path, compression, facts: wantFacts, ctl: shared, port, spares } = workerData as WriterThreadData;
const ctl = new Int32Array(shared);
const facts = wantFacts ? new StylizedFacts() : undefined;
let writer: EventLogFileWriter | undefined;
let unpacker: BatchUnpacker | undefined;
let builder: RowBuilder | undefined;
let failed = false;

function answer(message: FromWriter): void {
  port.postMessage(message);
  Atomics.add(ctl, ANSWERED, 1);
  Atomics.notify(ctl, ANSWERED);
}

function handle(message: ToWriter): void {
  if (message.kind === 'batch') {
    if (message.schema !== undefined) unpacker = new BatchUnpacker(unpackSchema(message.schema));
    const batch = unpacker!.unpack(message.batch);
    if (facts !== undefined) observeEventBatch(facts, batch);
    (writer ??= new EventLogFileWriter(path, { compression })).write(batch);
    return;
  }
  if (message.kind === 'rows') {
    // The file writer and the facts take the batch at once: the builder may reuse its arrays.
    if (message.setup !== undefined) builder = new RowBuilder({ ...message.setup, reuse: true });
    const batch = builder!.build(message.tape, true);
    if (facts !== undefined) observeEventBatch(facts, batch);
    (writer ??= new EventLogFileWriter(path, { compression })).write(batch);
    builder!.done();
    // The tape's arrays go back for the recorder to fill again (before this message counts as handled).
    const { nums, ids } = message.tape;
    spares.postMessage({ nums, ids } satisfies SpareTape, [nums.buffer, ids.buffer]);
    return;
  }
  (writer ??= new EventLogFileWriter(path, { compression })).close(); // no batch: an empty file, as before
  const closed = { bytesWritten: writer?.bytesWritten ?? 0, facts: facts === undefined ? undefined : factsBySymbol(facts) };
  answer({ kind: 'closed', ...closed, cpuMs: threadCpuS() * 1000 });
  port.close();
  spares.close();
}

port.on('message', (message: ToWriter) => {
  if (failed) return;
  try {
    handle(message);
  } catch (e) {
    failed = true;
    Atomics.store(ctl, FAILED, 1);
    answer({ kind: 'error', message: e instanceof Error ? e.message : String(e) });
    port.close();
  } finally {
    Atomics.sub(ctl, QUEUED, 1);
    Atomics.notify(ctl, QUEUED);
  }
});
