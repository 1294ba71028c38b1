import fc from 'fast-check';
import type { Side, TimeInForce } from '../../src/core/types.ts';
import type { Account } from '../../src/venue/account.ts';
import type { Market } from '../../src/venue/market.ts';
import type { Venue } from '../../src/venue/venue.ts';

/**
 * Account orders by engine id, the stream several venue tests drive (journal-numbers,
 * delivery-order, level-lots-bound): a place `offset` ticks from the mark, or a cancel of one of
 * the user's own orders placed so far (the `which`-th, modulo; nothing when it has none, and an
 * order that already ended is canceled again: a cancel reject).
 */

export type SeqPlace = { kind: 'place'; user: number; side: Side; offset: number; lots: number; tif: TimeInForce };
export type SeqCancel = { kind: 'cancel'; user: number; which: number };

/** Places by `users` users (0 … users − 1) within ±`offset` ticks of the mark, 1 … `lots` lots, of the time in force `tifs` gives. */
export function seqPlaceArb(users: number, offset: number, lots: number, tifs: fc.Arbitrary<TimeInForce> = fc.constantFrom<TimeInForce>('GTC', 'GTC', 'IOC')): fc.Arbitrary<SeqPlace> {
  return fc.record({ kind: fc.constant('place' as const), user: fc.nat(users - 1), side: fc.constantFrom<Side>('B', 'S'), offset: fc.integer({ min: -offset, max: offset }), lots: fc.integer({ min: 1, max: lots }), tif: tifs });
}

/** Cancels by `users` users of their `which`-th order (0 … `which`, modulo their orders). */
export function seqCancelArb(users: number, which: number): fc.Arbitrary<SeqCancel> {
  return fc.record({ kind: fc.constant('cancel' as const), user: fc.nat(users - 1), which: fc.nat(which) });
}

/** The users' orders by engine id, placed and canceled as the commands say. */
export class SeqOrders {
  private readonly seqs: number[][];

  constructor(
    private readonly venue: Venue,
    private readonly users: readonly Account[],
  ) {
    this.seqs = users.map(() => []);
  }

  apply(c: SeqPlace | SeqCancel, market: Market): void {
    const mine = this.seqs[c.user]!;
    const user = this.users[c.user]!;
    if (c.kind === 'place') mine.push(this.venue.placeOrderSeq(user, market, c.side, market.markTicks + c.offset, c.lots, c.tif));
    else if (mine.length > 0) this.venue.cancelOrderSeq(user, mine[c.which % mine.length]!);
  }
}
