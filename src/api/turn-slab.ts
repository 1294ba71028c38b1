/**
 * The bytes one connection is given in one event-loop turn, gathered so the turn leaves in one
 * write: REST's pipelined answers (rest/turn-writes.ts) and a websocket's frames
 * (ws/wire-socket.ts) both batch this way, because one `writev` per message was the largest
 * cost of order entry on both (issue 11's profiles).
 *
 * The slab holds the turn's bytes at [start, end); bytes before `start` were handed to the
 * socket, which owns them from then on, so a slab is reused for later turns only past them.
 */
export class TurnSlab {
  buf: Buffer | undefined = undefined;
  start = 0;
  end = 0;

  /** @param minBytes smallest slab allocated; a slab grows to twice what its busiest turn needed */
  constructor(private readonly minBytes: number) {}

  /** Bytes of this turn not yet taken. */
  get queued(): number {
    return this.end - this.start;
  }

  /** Makes room for `need` more bytes after `end`, keeping this turn's bytes. */
  reserve(need: number): Buffer {
    const buf = this.buf;
    if (buf !== undefined && buf.length - this.end >= need) return buf;
    const queued = this.end - this.start;
    const next = Buffer.allocUnsafeSlow(Math.max(this.minBytes, 2 * (queued + need), buf === undefined ? 0 : buf.length));
    if (queued > 0) buf!.copy(next, 0, this.start, this.end);
    this.buf = next;
    this.start = 0;
    this.end = queued;
    return next;
  }

  /**
   * The turn's bytes, now the writer's (undefined when there are none). The rest of the slab
   * serves the next turns unless it is smaller than this turn was.
   */
  take(): Buffer | undefined {
    const buf = this.buf;
    if (buf === undefined || this.end === this.start) return undefined;
    const bytes = buf.subarray(this.start, this.end);
    this.start = this.end;
    if (buf.length - this.end < bytes.length) this.buf = undefined;
    return bytes;
  }
}
