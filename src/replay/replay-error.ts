/**
 * The one error type of the replay readers: says which file, which line (1-based, counting the
 * header) and which column (1-based, with its header name when there is one) a problem is in.
 */
export class ReplayError extends Error {
  override readonly name = 'ReplayError';

  /**
   * @param file the file (or `zip!member`) the problem is in.
   * @param line 1-based line, or undefined when the problem is not tied to one line.
   * @param column 1-based column, optionally with its name (`6 (ask_price)`), or undefined.
   * @param reason what is wrong, e.g. `"abc" is not a decimal price`.
   */
  constructor(
    readonly file: string,
    readonly line: number | undefined,
    readonly column: string | undefined,
    readonly reason: string,
  ) {
    super(`${file}${line === undefined ? '' : `:${line}`}${column === undefined ? '' : ` column ${column}`}: ${reason}`);
  }
}

/**
 * What a reader does with a row it cannot decode: throw (the default), or count it and go on
 * when `skipBadRows` is set. The counts are readable while and after iterating.
 */
export class RowErrors {
  /** Rows skipped because they could not be decoded (only with `skipBadRows`). */
  skippedRows = 0;
  /** The first skipped row's error, to show what kind of rows were dropped. */
  firstSkipped: ReplayError | undefined;

  constructor(readonly skipBadRows: boolean) {}

  /** Throws `error`, or records it when bad rows are skipped. */
  handle(error: ReplayError): void {
    if (!this.skipBadRows) throw error;
    this.skippedRows++;
    this.firstSkipped ??= error;
  }
}
