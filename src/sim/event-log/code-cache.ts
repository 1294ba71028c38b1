import type { DictionaryColumn } from './dictionary-column.ts';
import type { EventColumns } from './schema.ts';

/**
 * Dictionary codes of one column cached by a small integer key (a market's index, a feed type's
 * character, a state code, a side, a time in force): each code is taken at the value's first
 * row, as `set` would take it, so the log's bytes are the same, without a string lookup per row.
 */
export class CodeCache {
  private readonly codes: number[] = [];

  constructor(private readonly column: DictionaryColumn) {}

  /** The code of `value`, which `key` stands for. */
  of(key: number, value: string): number {
    return this.codes[key] ?? (this.codes[key] = this.column.code(value));
  }
}

/**
 * Dictionary codes of usernames by user id in one column (`user` or `maker_user`). An id with no
 * account is replayed liquidity, named `externalName`; it is never cached, since a later account
 * could take that id.
 */
export class UserCodeCache {
  private readonly codes: number[] = [];

  constructor(
    private readonly column: DictionaryColumn,
    /** The venue's accounts by user id (live: accounts added during the run are found). */
    private readonly accounts: readonly { username: string }[],
    private readonly externalName: string,
  ) {}

  of(userId: number): number {
    const account = this.accounts[userId];
    if (account === undefined) return this.column.code(this.externalName);
    return (this.codes[userId] ??= this.column.code(account.username));
  }
}

/** The recorder's code caches: one per dictionary column it writes by a key. */
export function rowCodes(cols: EventColumns, accounts: readonly { username: string }[], externalName: string) {
  return {
    user: new UserCodeCache(cols.user, accounts, externalName),
    maker: new UserCodeCache(cols.maker_user, accounts, externalName),
    symbol: new CodeCache(cols.symbol),
    feed: new CodeCache(cols.feed),
    state: new CodeCache(cols.state),
    side: new CodeCache(cols.side),
    tif: new CodeCache(cols.tif),
  };
}
