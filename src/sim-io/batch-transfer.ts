import { makeData, RecordBatch, RecordBatchReader, RecordBatchStreamWriter, Struct, Vector, type Data, type Schema } from 'apache-arrow';
import { fillIdHoles, type IdHoles } from '../sim/event-log/id-holes.ts';

/**
 * Record batches sent to another thread as plain typed arrays, and rebuilt there into batches
 * the Arrow writer turns into the same bytes as the originals (the event log's writer thread,
 * `event-log-thread.ts`).
 *
 * A batch's columns are flat `Data` (no nesting beyond a dictionary's values), so a column is
 * its buffers: validity bits, values, offsets. They are copied (`slice`) so the sender may
 * reuse its arrays at once, and the copies are transferred, not cloned again. A dictionary
 * grows by chunks (`columns.ts`) and Arrow's writer emits a delta for each chunk it has not
 * seen, recognizing the dictionary by its first chunk object: so only chunks the receiver has
 * not got travel, and the receiver keeps its chunk objects from batch to batch.
 */

type Buffer = Uint8Array | Int8Array | Int32Array | Uint32Array | BigInt64Array;

/** One column of a batch, as buffers. */
interface PackedColumn {
  length: number;
  nullCount: number;
  nullBitmap: Uint8Array | undefined;
  values: Buffer | undefined;
  valueOffsets: Int32Array | undefined;
  /** Dictionary chunks the receiver has not got yet (UTF-8 columns without nulls). */
  newChunks: PackedColumn[];
}

/** A record batch as buffers; `transfer` lists the buffers to hand over with the message. */
export interface PackedBatch {
  rows: number;
  columns: PackedColumn[];
  /** Ids to write into a UTF-8 column's bytes on arrival (`IdHoles`), if the sender left any. */
  holes?: { column: number; holes: Float64Array };
}

/** The schema as an Arrow IPC stream with no batches (fields, dictionary ids, metadata). */
export function packSchema(schema: Schema): Uint8Array {
  const writer = new RecordBatchStreamWriter();
  writer.reset(undefined, schema);
  writer.close();
  return writer.toUint8Array(true);
}

export function unpackSchema(bytes: Uint8Array): Schema {
  const reader = RecordBatchReader.from(bytes);
  reader.open();
  return reader.schema;
}

/** Packs batches of one schema, remembering how many chunks of each dictionary were sent. */
export class BatchPacker {
  private readonly chunksSent = new Map<number, number>();

  /**
   * Copies of the batch's buffers; push their `ArrayBuffer`s to `transfer`. `holes`: ids left
   * unwritten in the column named `column`, which the receiver writes (a copy travels).
   */
  pack(batch: RecordBatch, transfer: ArrayBuffer[], holes?: { column: string; holes: IdHoles }): PackedBatch {
    const columns = batch.data.children.map((child, i) => this.column(child, i, transfer));
    if (holes === undefined || holes.holes.count === 0) return { rows: batch.numRows, columns };
    const column = batch.schema.fields.findIndex((f) => f.name === holes.column);
    if (column < 0) throw new Error(`no column ${holes.column} for the id holes`);
    const copy = holes.holes.copy();
    transfer.push(copy.buffer);
    return { rows: batch.numRows, columns, holes: { column, holes: copy } };
  }

  private column(data: Data, index: number, transfer: ArrayBuffer[]): PackedColumn {
    const newChunks: PackedColumn[] = [];
    const dictionary = data.dictionary as Vector | undefined;
    if (dictionary !== undefined) {
      const sent = this.chunksSent.get(index) ?? 0;
      for (const chunk of dictionary.data.slice(sent)) newChunks.push(plain(chunk, [], transfer));
      this.chunksSent.set(index, dictionary.data.length);
    }
    return plain(data, newChunks, transfer);
  }
}

function plain(data: Data, newChunks: PackedColumn[], transfer: ArrayBuffer[]): PackedColumn {
  const copy = <T extends Buffer>(a: T | undefined): T | undefined => {
    if (a === undefined || a === null) return undefined;
    const c = a.slice() as T;
    transfer.push(c.buffer as ArrayBuffer);
    return c;
  };
  return {
    length: data.length,
    nullCount: data.nullCount,
    // Arrow writes no validity bits for a column without nulls.
    nullBitmap: data.nullCount > 0 ? copy(data.nullBitmap as Uint8Array | undefined) : undefined,
    values: copy(data.values as Buffer | undefined),
    valueOffsets: copy(data.valueOffsets as Int32Array | undefined),
    newChunks,
  };
}

/** Rebuilds the batches a `BatchPacker` packed, in order, against the same schema. */
export class BatchUnpacker {
  /** Dictionary chunks by column, the same objects from batch to batch. */
  private readonly chunks = new Map<number, Data[]>();

  constructor(readonly schema: Schema) {}

  unpack(packed: PackedBatch): RecordBatch {
    const fields = this.schema.fields;
    if (packed.holes !== undefined) fillIdHoles(packed.columns[packed.holes.column]!.values as Uint8Array, packed.holes.holes);
    const children = packed.columns.map((column, i) => {
      const type = fields[i]!.type;
      if (!type.dictionary) return makeData({ type, length: column.length, nullCount: column.nullCount, nullBitmap: column.nullBitmap, data: column.values, valueOffsets: column.valueOffsets } as never) as Data;
      let chunks = this.chunks.get(i);
      if (chunks === undefined) this.chunks.set(i, (chunks = []));
      for (const c of column.newChunks) {
        chunks.push(makeData({ type: type.dictionary, length: c.length, nullCount: c.nullCount, nullBitmap: c.nullBitmap, valueOffsets: c.valueOffsets, data: c.values } as never) as Data);
      }
      const dictionary = new Vector([...chunks]);
      return makeData({ type, length: column.length, nullCount: column.nullCount, nullBitmap: column.nullBitmap, data: column.values, dictionary } as never) as Data;
    });
    const data = makeData({ type: new Struct(fields), length: packed.rows, nullCount: 0, children });
    return new RecordBatch(this.schema, data);
  }
}
