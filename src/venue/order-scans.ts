import { F_BITS, F_SEQ, F_USER, FREE_USER, STRIDE, isOpenBits } from './order-record.ts';
import type { OrderStore } from './order-store.ts';

/**
 * Scans of every record in an `OrderStore`, for the rare paths that ask about many orders at
 * once (delisting, liquidation, cancel-all, open-order reads). Apart from the store because
 * none of them is on a command's hot path: they read the records through `data` and
 * `slotsEverUsed` only.
 */

/** Every live slot with a record in use, ascending (rare paths: delisting, closes). */
export function liveSlots(store: OrderStore): number[] {
  const d = store.data;
  const out: number[] = [];
  for (let s = 0; s < store.slotsEverUsed; s++) if (d[s * STRIDE + F_USER] !== FREE_USER) out.push(s);
  return out;
}

/**
 * The open (resting) orders of account `userId`, oldest first: a scan of the records. An
 * account's orders rest in the command that places them, so oldest first is ascending engine
 * id (liquidation orders, the negative ids, are IOC and never rest). Outside a command an
 * order is resting exactly when its state is NEW or PARTIALLY_FILLED.
 */
export function openSlotsOf(store: OrderStore, userId: number): number[] {
  const d = store.data;
  const out: number[] = [];
  for (let s = 0, o = 0; s < store.slotsEverUsed; s++, o += STRIDE) {
    if (d[o + F_USER] === userId && isOpenBits(d[o + F_BITS]!)) out.push(s);
  }
  return out.length < 2 ? out : out.sort((a, b) => d[a * STRIDE + F_SEQ]! - d[b * STRIDE + F_SEQ]!);
}

/** `openSlotsOf` for every account at once (one scan): slots by user id, each oldest first. */
export function openSlotsByUser(store: OrderStore, users: number): number[][] {
  const d = store.data;
  const out: number[][] = Array.from({ length: users }, () => []);
  for (let s = 0, o = 0; s < store.slotsEverUsed; s++, o += STRIDE) {
    const user = d[o + F_USER]!;
    if (user >= 0 && user < users && isOpenBits(d[o + F_BITS]!)) out[user]!.push(s);
  }
  for (const slots of out) if (slots.length > 1) slots.sort((a, b) => d[a * STRIDE + F_SEQ]! - d[b * STRIDE + F_SEQ]!);
  return out;
}
