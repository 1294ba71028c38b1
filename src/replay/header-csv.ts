import type { ByteSource } from './byte-source.ts';
import { readCsvBatches, recordFields } from './csv-records.ts';
import { FieldReader } from './fields.ts';
import { ReplayError, type RowErrors } from './replay-error.ts';

/**
 * The data rows of a CSV whose first record is its header, decoded a batch at a time (one array
 * per batch of bytes): the header's fields name the rows' columns (`checkHeader` may refuse them
 * first), each later row must have `fieldCount` fields and is decoded by `decode`; a row that
 * fails with a ReplayError goes to `errors` (thrown, or counted and skipped).
 */
export async function* decodeHeaderCsv<T>(
  source: ByteSource,
  fieldCount: number,
  errors: RowErrors,
  decode: (row: FieldReader) => T,
  checkHeader?: (header: string[]) => void,
): AsyncGenerator<T[]> {
  let reader: FieldReader | undefined;
  for await (const batch of readCsvBatches(source)) {
    const out: T[] = [];
    for (let r = 0; r < batch.count; r++) {
      if (reader === undefined) {
        const header = recordFields(batch, r);
        checkHeader?.(header);
        reader = new FieldReader(source.name, header);
        continue;
      }
      try {
        reader.at(batch, r, fieldCount);
        out.push(decode(reader));
      } catch (e) {
        if (!(e instanceof ReplayError)) throw e;
        errors.handle(e);
      }
    }
    yield out;
  }
}
