import type { Money } from '../../core/money.ts';
import { formatMoney } from '../../core/money.ts';
import type { InstrumentState } from '../../core/types.ts';
import type { Account } from '../../venue/account.ts';
import type { Market } from '../../venue/market.ts';
import type { Order } from '../../venue/order.ts';
import type { OrderRequest } from '../../venue/venue.ts';
import type { CredentialEntry } from '../auth/user-directory.ts';
import type { Exchange } from '../exchange.ts';
import { applyVenueEntry, type VenueEntry } from './entries.ts';
import type { JournalFile } from './journal-file.ts';
import type { OutputGate } from './output-gate.ts';
import { placeLine, placeLineMaxBytes, writePlaceLine } from './place-line.ts';
import type { Pace } from './snapshot-file.ts';

/**
 * The commands that change the exchange, as the wire runs them: each is appended to the
 * journal (when there is one) with the sim time it runs at, then applied through the same
 * code a restore replays ({@link applyVenueEntry}). Routes and sockets call these, never the
 * venue's mutators directly, so nothing accepted escapes the journal. It is also the wire's
 * {@link OutputGate}: the journal's when there is one, always open otherwise.
 */
export class Commands implements OutputGate {
  private journal: JournalFile | undefined;
  /** The sim time last written as an entry's `t`, and its text (most entries of a turn share it). */
  private tNs = -1n;
  private tText = '';
  private tBytes = Buffer.alloc(0);
  /** The clock's pace last journaled (a `clock` entry), carried by snapshots; null when never set. */
  pace: Pace | null = null;

  constructor(private readonly exchange: Exchange) {}

  /** Starts journaling to `journal` (credential changes too). */
  attach(journal: JournalFile): void {
    this.journal = journal;
    this.exchange.users.record = (entry: CredentialEntry) => this.journal?.add({ ...entry, t: this.timeText() });
  }

  /** Everything journaled so far is on disk (immediately true without a journal). */
  durable(): Promise<void> {
    return this.journal?.durable() ?? Promise.resolve();
  }

  get open(): boolean {
    return this.journal === undefined || this.journal.open;
  }

  hold(release: () => void): void {
    if (this.journal === undefined) release();
    else this.journal.hold(release);
  }

  /** Writes and syncs pending entries on the spot (benches, tests; the server commits in groups off the event loop). */
  flushSync(): void {
    this.journal?.flushSync();
  }

  /** Notes the current sim time (so a restart resumes at least there). */
  markTime(): void {
    this.run({ k: 'time' });
  }

  /** Notes the clock's pace after an admin change (journal only: the driver already has it). */
  notePace(): void {
    if (this.journal === undefined) return;
    const { paused, speed } = this.exchange.driver.status();
    this.run({ k: 'clock', paused, speed });
    this.pace = { paused, speed };
  }

  /** Calls `handler` if the journal fails (a write or sync error; see {@link JournalFile}). */
  onFailure(handler: (err: Error) => void): void {
    if (this.journal !== undefined) this.journal.onFailure = handler;
  }

  /** The error that stopped the journal, if one did. */
  get failure(): Error | undefined {
    return this.journal?.failure;
  }

  close(): void {
    this.journal?.close();
    this.journal = undefined;
  }

  /**
   * Order entry, the hot path: its journal line is written by hand (the keys of a `place`
   * {@link VenueEntry}, in its order) and the venue called directly, with no entry object.
   */
  place(account: Account, req: OrderRequest): Order {
    return this.journaledPlace(account, req, this.placeForView);
  }

  /** {@link place} for callers that answer with the order id alone (REST and websocket order entry): no order view is made. */
  placeId(account: Account, req: OrderRequest): string {
    return this.journaledPlace(account, req, this.placeForId);
  }

  // The venue calls behind place / placeId, made once (no closure per order on the hot path).
  private readonly placeForView = (account: Account, req: OrderRequest): Order => this.exchange.venue.placeOrder(account, req);
  private readonly placeForId = (account: Account, req: OrderRequest): string => this.exchange.venue.placeOrderId(account, req);

  /** The place's journal line, then `submit`; the line is taken back if the venue refuses the command. */
  private journaledPlace<T>(account: Account, req: OrderRequest, submit: (account: Account, req: OrderRequest) => T): T {
    const journal = this.journal;
    if (journal === undefined) return submit(account, req);
    const tText = this.timeText();
    const username = account.username;
    const room = journal.lineRoom(placeLineMaxBytes(username, req, this.tBytes));
    const end = writePlaceLine(room, journal.lineStart, username, req, this.tBytes);
    if (end >= 0) journal.endLine(end);
    else journal.addLine(placeLine(username, req, tText));
    try {
      return submit(account, req);
    } catch (e) {
      journal.retractLast(); // not acknowledged, so not kept
      throw e;
    }
  }

  cancel(account: Account, orderId: string): boolean {
    return (this.run({ k: 'cancel', u: account.username, oid: orderId }) as { canceled: boolean }).canceled;
  }

  cancelAll(account: Account): { successful: string[]; failed: string[] } {
    return this.run({ k: 'cancel_all', u: account.username }) as { successful: string[]; failed: string[] };
  }

  adminCancel(orderId: string): boolean {
    return (this.run({ k: 'admin_cancel', oid: orderId }) as { canceled: boolean }).canceled;
  }

  adjustCash(account: Account, amount: Money): void {
    this.run({ k: 'cash', u: account.username, amount: formatMoney(amount) });
  }

  setInstrumentState(market: Market, state: InstrumentState): void {
    this.run({ k: 'state', s: market.symbol, state });
  }

  /** Opens the venue account of a user whose credentials were just registered. */
  openAccount(username: string, cash: Money): void {
    this.run({ k: 'user', u: username, cash: formatMoney(cash) });
  }

  /** True when commands go to a journal. */
  get journaling(): boolean {
    return this.journal !== undefined;
  }

  private run(entry: VenueEntry) {
    const journal = this.journal;
    journal?.add({ ...entry, t: this.timeText() });
    try {
      return applyVenueEntry(this.exchange, entry);
    } catch (e) {
      journal?.retractLast(); // not acknowledged, so not kept
      throw e;
    }
  }

  /** The current sim time as an entry's `t` (ns, decimal text). */
  private timeText(): string {
    const ns = this.exchange.clock.nowNs;
    if (ns !== this.tNs) {
      this.tNs = ns;
      this.tText = String(ns);
      this.tBytes = Buffer.from(this.tText, 'latin1'); // decimal digits
    }
    return this.tText;
  }
}
