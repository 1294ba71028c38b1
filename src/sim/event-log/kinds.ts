/**
 * The event log's kinds of row and its layout version: what the recorder needs of the schema
 * without Apache Arrow, which only the code that builds or reads columns loads (`schema.ts`
 * re-exports these). `perpsim run`'s simulation thread hands rows to the writer thread as
 * numbers and never builds a column, so it starts without Arrow's modules.
 *
 * The event log's one table: a row per thing the venue announced, in the order it announced
 * them. Columns a kind of row does not use are null.
 *
 * | kind | columns set (besides `seq`, `ts_ns`, `kind`) |
 * | --- | --- |
 * | `feed` | `user` (recipient), `order_id`, `feed`, and from the order it carries: `symbol`, `state`, `side`, `tif`, `liquidation`, `price_ticks` (and `price` when the ticks do not give the text), `qty`, `filled`; `reason` (`r` or `xr`); `trade_id` on fills |
 * | `trade` | `symbol`, `trade_id`, `price_ticks`, `qty`, `side` (taker's), `order_id` + `user` (taker), `maker_order_id` + `maker_user` |
 * | `book` | `symbol`, `bid_ticks`, `bid_qty`, `ask_ticks`, `ask_qty` (null when the side is empty), `bid_depth5`, `ask_depth5` (lots in the best five levels) |
 * | `mark` | `symbol`, `mark_ticks`, `index_ticks` (a mark-to-market record) |
 * | `funding` | `symbol`, `funding_rate` (decimal text), `index_ticks` (the benchmark), `mark_ticks` |
 * | `index` | `symbol`, `index_ticks`, `mark_ticks` (after the index moved) |
 * | `state` | `symbol`, `state` (the instrument's new state) |
 */
export const EVENT_KINDS = ['feed', 'trade', 'book', 'mark', 'funding', 'index', 'state'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];
/** `EVENT_KINDS` indices (the recorder counts and starts rows by number). */
export const K_FEED = 0, K_TRADE = 1, K_BOOK = 2, K_MARK = 3, K_FUNDING = 4, K_INDEX = 5, K_STATE = 6;

/**
 * Version of the column layout, stored in the schema metadata (`perpsim.event_log`). 2: `price`
 * is null where `price_ticks` gives it (1 wrote the text on every row with a price).
 */
export const EVENT_LOG_VERSION = '2';
