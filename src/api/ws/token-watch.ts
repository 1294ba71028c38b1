import { tokenKey, type UserDirectory } from '../auth/user-directory.ts';

/**
 * Websocket sessions follow their tokens: a session logged in with a token ends when that
 * token stops being valid — it expired, or it was revoked (the per-user token cap revokes the
 * oldest). Checked before every request of the session and, for idle sessions, on a sweep
 * every `sweepMs` of wall time (the directory's own clock decides what has expired). The token
 * is hashed once, at login, and kept only as its key: checking a live session costs one map
 * lookup and the expiry comparison, not a SHA-256 per request.
 */
export class TokenWatch<S> {
  private readonly tokens = new Map<S, { key: string; username: string }>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly users: UserDirectory,
    private readonly expire: (session: S) => void,
    sweepMs = 1000,
  ) {
    this.timer = setInterval(() => this.sweep(), sweepMs);
    this.timer.unref();
  }

  /** Starts watching a session logged in as `username` with `token`. */
  watch(session: S, token: string, username: string): void {
    this.tokens.set(session, { key: tokenKey(token), username });
  }

  unwatch(session: S): void {
    this.tokens.delete(session);
  }

  /**
   * True when the session's token is still valid (or the session is not logged in); when it
   * is not, the session is expired (`expire`) and false is returned.
   */
  check(session: S): boolean {
    const entry = this.tokens.get(session);
    if (entry === undefined || this.users.userForTokenKey(entry.key) === entry.username) return true;
    this.tokens.delete(session);
    this.expire(session);
    return false;
  }

  /** Logged-in sessions of `username`. */
  countOf(username: string): number {
    let n = 0;
    for (const e of this.tokens.values()) if (e.username === username) n++;
    return n;
  }

  close(): void {
    clearInterval(this.timer);
    this.tokens.clear();
  }

  private sweep(): void {
    for (const session of [...this.tokens.keys()]) this.check(session);
  }
}
