import { parseMoney } from '../../core/money.ts';
import { INSTRUMENT_STATES, type InstrumentState } from '../../core/types.ts';
import type { Account } from '../../venue/account.ts';
import type { Order } from '../../venue/order.ts';
import type { OrderRequest } from '../../venue/venue.ts';
import type { CredentialEntry } from '../auth/user-directory.ts';
import type { Exchange } from '../exchange.ts';

/**
 * What the journal keeps: every accepted command with the sim time it ran at (`t`, ns as
 * decimal text), and the credential changes. Applying the entries in order to a fresh exchange
 * built from the same scenario and seed gives the same state: the engine is deterministic, so
 * the journal is also the checkpoint.
 */
export type VenueEntry =
  | { k: 'place'; u: string; s: string; d: 'B' | 'S'; p: string; q: number; tif: 'GTC' | 'IOC'; po: boolean }
  | { k: 'cancel'; u: string; oid: string }
  | { k: 'cancel_all'; u: string }
  | { k: 'admin_cancel'; oid: string }
  | { k: 'cash'; u: string; amount: string }
  | { k: 'state'; s: string; state: InstrumentState }
  | { k: 'user'; u: string; cash: string }
  /** Sim time reached without a command (written now and then, so a restart resumes there). */
  | { k: 'time' }
  /**
   * The clock's pace after an admin pause, resume or speed change. Nothing in the venue
   * changes; a restart applies the last one once every entry has been replayed (mid-replay the
   * clock is driven by the entries' times, never by the wall).
   */
  | { k: 'clock'; paused: boolean; speed: number | 'max' };

export type JournalEntry = (VenueEntry | CredentialEntry) & { t: string };

/** The first line of a journal: what to rebuild the exchange from. */
export interface JournalHeader {
  perpsim_journal: 1;
  /** The scenario as loaded (plain JSON). */
  scenario: unknown;
  seed: number;
}

/** The result of a venue command, for the caller that acknowledges it. */
export type Applied = { order: Order } | { canceled: boolean } | { successful: string[]; failed: string[] } | undefined;

const isCredential = (e: JournalEntry): e is CredentialEntry & { t: string } =>
  e.k === 'credentials' || e.k === 'token' || e.k === 'api_key' || e.k === 'totp_step';

/**
 * Applies one entry to the exchange at the entry's sim time (running the clock up to it first
 * when it is ahead: exactly what `sync()` did before the command ran live). Throws on an entry
 * that does not fit the exchange (a journal of another scenario).
 */
export function applyEntry(exchange: Exchange, entry: JournalEntry): Applied {
  const t = BigInt(entry.t);
  if (t > exchange.clock.nowNs) exchange.clock.runUntil(t);
  if (isCredential(entry)) {
    exchange.users.restore(entry);
    return undefined;
  }
  return applyVenueEntry(exchange, entry);
}

/** Applies a venue command (live or replayed: the same code). */
export function applyVenueEntry(exchange: Exchange, e: VenueEntry): Applied {
  const venue = exchange.venue;
  switch (e.k) {
    case 'place': {
      const req: OrderRequest = { symbol: e.s, side: e.d, price: e.p, quantity: e.q, timeInForce: e.tif, postOnly: e.po };
      return { order: venue.placeOrder(accountOf(exchange, e.u), req) };
    }
    case 'cancel':
      return { canceled: venue.cancelOrder(accountOf(exchange, e.u), e.oid) };
    case 'cancel_all':
      return venue.cancelAll(accountOf(exchange, e.u));
    case 'admin_cancel':
      return { canceled: venue.adminCancelOrder(e.oid) };
    case 'cash':
      venue.adjustCash(accountOf(exchange, e.u), parseMoney(e.amount));
      return undefined;
    case 'state': {
      const market = venue.market(e.s);
      if (market === undefined || !(INSTRUMENT_STATES as readonly string[]).includes(e.state)) throw new Error(`journal: bad state entry ${e.s} ${e.state}`);
      venue.setInstrumentState(market, e.state);
      return undefined;
    }
    case 'user':
      venue.addUser(e.u, parseMoney(e.cash));
      return undefined;
    case 'time':
    case 'clock':
      return undefined;
  }
}

function accountOf(exchange: Exchange, username: string): Account {
  const account = exchange.venue.account(username);
  if (account === undefined) throw new Error(`journal: no account ${username}`);
  return account;
}
