import type { Socket } from 'node:net';
import { TurnSlab } from '../turn-slab.ts';

/**
 * One `write` per connection per event-loop turn for HTTP responses.
 *
 * Why: node's HTTP server sends a keep-alive connection's pipelined responses one after the
 * other — the next response is handed the socket only when the previous one's write has
 * completed — so each response costs its own `writev` system call, whatever we cork. Under
 * pipelined order entry that call was ~40% of the server's CPU (issue 11's profile). Here the
 * socket's writes are taken as done as soon as they are copied into the connection's buffer
 * for the turn, which lets node finish one response and start the next at once; at the end of
 * the turn the buffer leaves in one write. The bytes and their order are exactly node's.
 *
 * Limits that keep this honest: while the connection has more than {@link PASS_THROUGH_BYTES}
 * handed to the kernel and not yet taken, or is still connecting, writes go straight through
 * (after the buffered ones), so node's own backpressure (pausing a client that does not read
 * its answers) works as without batching. Ending the socket writes the buffer first; a
 * destroyed socket drops it, as node drops unsent data.
 */

/** Bytes written and not yet taken by the kernel above which writes are no longer batched. */
export const PASS_THROUGH_BYTES = 256 * 1024;
const MIN_SLAB_BYTES = 16 * 1024;

type WriteCallback = (err?: Error | null) => void;
type GenericWrite = (writev: boolean, data: unknown, encoding: string, cb: WriteCallback) => unknown;
type Final = (cb: WriteCallback) => void;

/** net.Socket's private write path (`_writeGeneric`, behind `_write` and `_writev`) and `_final`. */
interface SocketInternals {
  _writeGeneric: GenericWrite;
  _final: Final;
  connecting: boolean;
  _handle: unknown;
}

/** A connection's writes of this turn. */
interface Turn {
  readonly socket: Socket;
  readonly write: GenericWrite;
  readonly slab: TurnSlab;
  /** Bytes handed to the kernel by a turn's write and not yet reported written. */
  inFlight: number;
}

const turns = new WeakMap<Socket, Turn>();
/** Connections with bytes buffered in this turn, written together in one setImmediate. */
const pending: Turn[] = [];

/** Batches `socket`'s writes per event-loop turn from now on (once per socket). */
export function batchWritesPerTurn(socket: Socket): void {
  if (turns.has(socket)) return;
  const internals = socket as unknown as SocketInternals;
  const originalWrite = internals._writeGeneric;
  const originalFinal = internals._final;
  const turn: Turn = { socket, write: originalWrite, slab: new TurnSlab(MIN_SLAB_BYTES), inFlight: 0 };
  turns.set(socket, turn);
  internals._writeGeneric = function (this: SocketInternals, writev: boolean, data: unknown, encoding: string, cb: WriteCallback): unknown {
    if (this.connecting || this._handle === null || this._handle === undefined || turn.inFlight > PASS_THROUGH_BYTES) {
      flush(turn);
      return originalWrite.call(this, writev, data, encoding, cb);
    }
    if (writev) for (const entry of data as ({ chunk: Buffer | string; encoding: BufferEncoding } | Buffer)[]) append(turn, entry);
    else append(turn, data as Buffer | string, encoding as BufferEncoding);
    cb(null);
    return undefined;
  } as GenericWrite;
  internals._final = function (this: Socket, cb: WriteCallback): void {
    flush(turn);
    originalFinal.call(this, cb);
  } as Final;
}

/** Copies one chunk (a Buffer, a string in its encoding, or a writev entry) to the turn. */
function append(turn: Turn, entry: Buffer | string | { chunk: Buffer | string; encoding: BufferEncoding }, encoding?: BufferEncoding): void {
  let chunk: Buffer | string;
  if (typeof entry === 'string' || Buffer.isBuffer(entry)) chunk = entry;
  else {
    chunk = entry.chunk;
    encoding = entry.encoding;
  }
  const bytes = typeof chunk === 'string' ? Buffer.byteLength(chunk, encoding) : chunk.length;
  if (bytes === 0) return;
  const slab = turn.slab;
  const buf = slab.reserve(bytes);
  if (typeof chunk === 'string') buf.write(chunk, slab.end, bytes, encoding);
  else chunk.copy(buf, slab.end);
  if (slab.queued === 0 && pending.push(turn) === 1) setImmediate(flushAll);
  slab.end += bytes;
}

function flushAll(): void {
  for (const turn of pending.splice(0)) flush(turn);
}

/** Hands the turn's bytes to the socket's real write path (a destroyed socket drops them). */
function flush(turn: Turn): void {
  const bytes = turn.slab.take();
  if (bytes === undefined) return;
  const socket = turn.socket;
  if (socket.destroyed || (socket as unknown as SocketInternals)._handle == null) return;
  turn.inFlight += bytes.length;
  turn.write.call(socket, false, bytes, 'buffer', (err) => {
    turn.inFlight -= bytes.length;
    if (err) socket.destroy(err);
  });
}
