/**
 * The durability gate: what the wire asks before any output leaves a socket or an HTTP
 * response. While something journaled is not yet synced, everything produced is held — an
 * ack, an order feed, a fill, and market data too, since a trade or a book change shows a
 * command that is not durable yet — and released in order when the sync covering it completes.
 * Without a journal the gate is always open.
 */
export interface OutputGate {
  /** True when nothing journaled waits for a sync: output may leave now. */
  readonly open: boolean;
  /**
   * Runs `release` once everything journaled so far is durable (now, when the gate is open).
   * Releases run in the order they were held. If the journal fails they never run: nothing
   * produced after an entry that may not be on disk is acknowledged.
   */
  hold(release: () => void): void;
}

/** The gate of a server without a journal. */
export const OPEN_GATE: OutputGate = { open: true, hold: (release) => release() };

/**
 * What a command meets once the journal has stopped (a write or sync failed): nothing more is
 * accepted. The server already said why, once, and is closing; the wire answers it without a
 * stack trace (503 / code 503) — and since the gate stays shut, that answer never leaves either.
 */
export class JournalStoppedError extends Error {
  constructor(override readonly cause: Error) {
    super(`journal failed (${cause.message}): no command is accepted`);
    this.name = 'JournalStoppedError';
  }
}
