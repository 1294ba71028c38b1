import type { Market } from './market.ts';
import { CommandOutbox, type CommandListeners } from './command-outbox.ts';
import { saveAverages, saveClosure, saveMarket, saveTrades, undoEntry } from './undo.ts';
import { UndoJournal } from './undo-journal.ts';
import type { VenueState } from './venue-state.ts';

/**
 * A command that did not apply: a step threw after validation. Nothing of it remains (the
 * venue rolled every change back and no listener saw any of it); `cause` is what threw.
 */
export class CommandFailedError extends Error {
  constructor(cause: unknown) {
    super(`command not applied: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** What a client is told when its command failed midway and was rolled back (REST and websockets). */
export const COMMAND_ROLLED_BACK = 'command not applied: an internal failure stopped it and every change was rolled back';

/**
 * Makes every venue command all-or-nothing. While a command runs, each change to venue state
 * registers how to take it back (`onUndo`, newest first on failure), and everything the
 * listeners would be told waits in an outbox. When the command returns, the outbox is delivered
 * in order; when a step throws, the undo log runs, the outbox is dropped and the caller gets a
 * `CommandFailedError`: state, book, candles, stats, ids and feeds are as if the command had
 * never run.
 *
 * Listeners see the state after the whole command (they are told after it applied), except
 * for the per-trade session stats, which the outbox keeps as they were after each trade so that
 * every trade's ticker still reads its own print (`md-instants.ts`).
 */
export class CommandLog {
  /** The undo entries of the current command (see undo.ts). */
  readonly journal = new UndoJournal();
  /** What the listeners are told of the command once it applied. */
  readonly outbox: CommandOutbox;
  /** Order slots to free once the command is over and told (a failed command restores them instead). */
  private readonly toFree: number[] = [];
  /** Entries in use in `toFree` (a count: setting an array's length is a runtime call). */
  private toFreeLength = 0;
  private orderCount = 0;
  private liquidationCount = 0;
  private executionCount = 0;
  private tradeCount = 0;

  constructor(private readonly counters: CommandCounters & VenueState) {
    this.outbox = new CommandOutbox(counters);
  }

  /** Registers how to take back a change just made (or about to be made); hot paths write journal entries instead. */
  onUndo(fn: () => void): void {
    saveClosure(this.journal, fn);
  }

  /** Saves `market`'s state once per command, before its first change (see undo.ts). */
  touchMarket(market: Market): void {
    const epoch = this.journal.epoch;
    if (market.undoMarks.state === epoch) return;
    market.undoMarks.state = epoch;
    saveMarket(this.journal, market);
  }

  /** Saves `market`'s funding averages once per command, before their first change. */
  touchAverages(market: Market): void {
    const epoch = this.journal.epoch;
    if (market.undoMarks.averages === epoch) return;
    market.undoMarks.averages = epoch;
    saveAverages(this.journal, market);
  }

  /** Saves `market`'s candles and stats once per command, before its first trade. */
  touchTrades(market: Market): void {
    const epoch = this.journal.epoch;
    if (market.undoMarks.trades === epoch) return;
    market.undoMarks.trades = epoch;
    saveTrades(this.journal, market);
  }

  /** Frees the order slot when the command is over (its record must survive a rollback). */
  freeLater(slot: number): void {
    this.toFree[this.toFreeLength++] = slot;
  }

  /** Starts a command: notes the counters it may advance. */
  begin(): void {
    const c = this.counters;
    this.journal.begin();
    c.orders.markAllocations(this.journal.epoch);
    this.orderCount = c.orderIds.count;
    this.liquidationCount = c.liquidationIds.count;
    this.executionCount = c.executionIds.count;
    this.tradeCount = c.tradeIds.count;
    this.feesCollectedBase = c.feesCollectedBase;
    this.liquidations = c.liquidations;
  }

  /** The command applied: forget the undo log, tell the listeners, free the ended orders' slots. */
  commit(listeners: CommandListeners): void {
    this.journal.clear();
    if (this.outbox.pending) this.outbox.deliver(listeners);
    const n = this.toFreeLength;
    if (n > 0) {
      const slots = this.toFree;
      // The store itself, not a closure over it: one call target, inlined here.
      const orders = this.counters.orders;
      for (let i = 0; i < n; i++) orders.free(slots[i]!);
      this.toFreeLength = 0;
    }
  }

  /** The command threw: take everything back and say so. */
  fail(cause: unknown): CommandFailedError {
    this.rollBack();
    return cause instanceof CommandFailedError ? cause : new CommandFailedError(cause);
  }

  private feesCollectedBase = 0n;
  private liquidations = 0;

  private rollBack(): void {
    try {
      this.journal.rollBack(undoEntry, this.counters);
      // The orders the command made, after every entry that touched them ran.
      this.counters.orders.undoAllocations();
    } finally {
      this.outbox.clear();
    }
    this.toFreeLength = 0;
    const c = this.counters;
    // The scratch record of an order that ended in this command (an IOC that could not cross)
    // has no undo entry: its slot is left unowned as a commit would leave it.
    c.orders.endScratch();
    c.orderIds.rewind(this.orderCount);
    c.liquidationIds.rewind(this.liquidationCount);
    c.executionIds.rewind(this.executionCount);
    c.tradeIds.rewind(this.tradeCount);
    c.feesCollectedBase = this.feesCollectedBase;
    c.liquidations = this.liquidations;
  }
}

/** The venue-wide counters a command may advance (ids, fee and liquidation totals). */
export interface CommandCounters {
  readonly orderIds: { readonly count: number; rewind(count: number): void };
  readonly liquidationIds: { readonly count: number; rewind(count: number): void };
  readonly executionIds: { readonly count: number; rewind(count: number): void };
  readonly tradeIds: { readonly count: number; rewind(count: number): void };
  /** Σ fees but for those the markets count in tick·lots (their undo is the market's). */
  feesCollectedBase: bigint;
  liquidations: number;
}
