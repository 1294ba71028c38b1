import { writeOrderIdBytes } from '../../core/ids.ts';

/**
 * Order ids the event log leaves as holes of known size in an id column's bytes, with the numbers
 * that make them: filled when the batch is finished, or on the writer thread (`perpsim run`), so
 * the simulation's thread only copies two numbers per id instead of writing 28 characters.
 *
 * An id is the venue's wire id of an order, written by `writeOrderIdBytes` as
 * `VenueState.writeOrderIdInto` writes it (`test/sim/event-log-id-holes.test.ts` holds them equal).
 */
export class IdHoles {
  /** Holes recorded since the last `clear`. */
  count = 0;
  /** Per hole: byte offset in the column, engine id, insert time in ms. */
  private data: Float64Array;

  constructor(capacity: number) {
    this.data = new Float64Array(Math.max(1, capacity) * HOLE);
  }

  /** Records a hole at byte `at` for the order with engine id `seq` inserted at (sec, nanos). */
  add(at: number, seq: number, sec: number, nanos: number): void {
    let i = this.count * HOLE;
    if (i === this.data.length) {
      const next = new Float64Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    const data = this.data;
    data[i++] = at;
    data[i++] = seq;
    data[i] = sec * 1000 + Math.floor(nanos / 1_000_000);
    this.count++;
  }

  /** The holes as one array (a copy: it may travel to another thread). */
  copy(): Float64Array<ArrayBuffer> {
    return this.data.slice(0, this.count * HOLE);
  }

  /** Fills every hole in `bytes`. */
  fill(bytes: Uint8Array): void {
    fillIdHoles(bytes, this.data, this.count);
  }

  clear(): void {
    this.count = 0;
  }
}

/** Numbers per hole in `IdHoles`' array. */
const HOLE = 3;

/** Writes the ids of the first `count` holes of `holes` (`IdHoles`' layout) into `bytes`. */
export function fillIdHoles(bytes: Uint8Array, holes: Float64Array, count = holes.length / HOLE): void {
  for (let i = 0; i < count * HOLE; i += HOLE) {
    writeOrderIdBytes(bytes, holes[i]!, holes[i + 1]!, holes[i + 2]!);
  }
}
