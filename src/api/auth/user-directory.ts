import { createHash, createHmac, randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { decodeBase32, totpStep } from './totp.ts';

function scrypt(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => scryptCb(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))));
}

/** Bounds of `expiration_seconds` (decisions.md). */
export const MAX_TOKEN_SECONDS = 2_592_000;

/** Live tokens a user may hold; issuing one more revokes the oldest. */
export const MAX_TOKENS_PER_USER = 256;

export interface UserDirectoryOptions {
  /** Wall-clock milliseconds; tokens and TOTP run on wall time, not sim time. */
  now?: () => number;
  /** scrypt cost N (power of two). Default 2^14; tests may lower it. */
  scryptCost?: number;
  /** Live tokens per user (default {@link MAX_TOKENS_PER_USER}). */
  maxTokensPerUser?: number;
}

/**
 * A change of the directory as the journal keeps it: secrets only as their hashes (the scrypt
 * hash of a password, the HMAC of an API secret, the SHA-256 of a token). A TOTP secret is a
 * shared key the server must read back, so it is kept as given (base32).
 */
export type CredentialEntry =
  | { k: 'credentials'; u: string; salt: string; hash: string; totp?: string }
  | { k: 'token'; key: string; u: string; exp: number }
  | { k: 'api_key'; key: string; u: string; salt: string; mac: string }
  | { k: 'totp_step'; u: string; step: number };

interface UserRecord {
  username: string;
  salt: Buffer;
  passwordHash: Buffer;
  totpSecret: Buffer | undefined;
  /** The last TOTP step accepted: a code of this step or an earlier one is refused (single use). */
  lastTotpStep: number;
  /** Keys of this user's tokens, oldest first (for the per-user cap). */
  tokenKeys: string[];
}

interface ApiKeyRecord {
  username: string;
  salt: Buffer;
  secretMac: Buffer;
}

/** Why an API key was not created. */
export type ApiKeyFailure = 'bad_password' | 'totp_required' | 'bad_totp' | 'totp_reused';

const KEY_LEN = 32;

/**
 * Credentials at the edge of the venue: passwords hashed with scrypt (per-user salt),
 * opaque random tokens with an expiry, API keys whose secrets are stored only as an HMAC,
 * and RFC 6238 TOTP for users with 2FA. Every secret comparison is constant-time, and an
 * unknown user costs the same scrypt as a known one.
 */
export class UserDirectory {
  private readonly users = new Map<string, UserRecord>();
  private readonly tokens = new Map<string, { username: string; expiresAtMs: number }>();
  private readonly apiKeys = new Map<string, ApiKeyRecord>();
  private readonly now: () => number;
  private readonly scryptOptions: ScryptOptions;
  private readonly dummySalt = randomBytes(16);
  private readonly maxTokensPerUser: number;
  /** Called with every change worth keeping across a restart (the journal's hook). */
  record: ((entry: CredentialEntry) => void) | undefined;

  constructor(options: UserDirectoryOptions = {}) {
    this.now = options.now ?? Date.now;
    this.scryptOptions = { N: options.scryptCost ?? 16384, r: 8, p: 1 };
    this.maxTokensPerUser = options.maxTokensPerUser ?? MAX_TOKENS_PER_USER;
  }

  has(username: string): boolean {
    return this.users.has(username);
  }

  /** Registers a user. `totpSecret` is base32 (enables 2FA). Throws RangeError on bad input. */
  async addUser(username: string, password: string, totpSecret?: string): Promise<void> {
    if (this.users.has(username)) throw new RangeError(`user ${username} already exists`);
    if (password.length < 1) throw new RangeError('password must not be empty');
    let secret: Buffer | undefined;
    if (totpSecret !== undefined) {
      secret = decodeBase32(totpSecret);
      if (secret === undefined || secret.length < 10) throw new RangeError('totp_secret must be base32 of at least 10 bytes');
    }
    const salt = randomBytes(16);
    const passwordHash = await scrypt(password, salt, KEY_LEN, this.scryptOptions);
    // Another addUser for the same name may have finished while this one was hashing.
    if (this.users.has(username)) throw new RangeError(`user ${username} already exists`);
    this.users.set(username, { username, salt, passwordHash, totpSecret: secret, lastTotpStep: -1, tokenKeys: [] });
    const entry: CredentialEntry = { k: 'credentials', u: username, salt: salt.toString('base64'), hash: passwordHash.toString('base64') };
    if (totpSecret !== undefined) entry.totp = totpSecret;
    this.record?.(entry);
  }

  /** Re-applies a journaled change (no hashing, nothing recorded). */
  restore(entry: CredentialEntry): void {
    switch (entry.k) {
      case 'credentials':
        this.users.set(entry.u, {
          username: entry.u,
          salt: Buffer.from(entry.salt, 'base64'),
          passwordHash: Buffer.from(entry.hash, 'base64'),
          totpSecret: entry.totp === undefined ? undefined : decodeBase32(entry.totp),
          lastTotpStep: -1,
          tokenKeys: [],
        });
        return;
      case 'token':
        this.storeToken(entry.key, entry.u, entry.exp);
        return;
      case 'api_key':
        this.apiKeys.set(entry.key, { username: entry.u, salt: Buffer.from(entry.salt, 'base64'), secretMac: Buffer.from(entry.mac, 'base64') });
        return;
      case 'totp_step': {
        const user = this.users.get(entry.u);
        if (user !== undefined) user.lastTotpStep = Math.max(user.lastTotpStep, entry.step);
      }
    }
  }

  /** True when the password is right. Constant-time, and as slow for unknown users. */
  async verifyPassword(username: string, password: string): Promise<boolean> {
    const user = this.users.get(username);
    const hash = await scrypt(password, user?.salt ?? this.dummySalt, KEY_LEN, this.scryptOptions);
    return user !== undefined && timingSafeEqual(hash, user.passwordHash);
  }

  /** A token for username + password, or undefined when the credentials are wrong. */
  async tokenForPassword(username: string, password: string, expirationSeconds: number): Promise<string | undefined> {
    return (await this.verifyPassword(username, password)) ? this.issueToken(username, expirationSeconds) : undefined;
  }

  /** A token for an API key + secret, or undefined when they are wrong. */
  tokenForApiKey(apiKey: string, secret: string, expirationSeconds: number): string | undefined {
    const record = this.apiKeys.get(apiKey);
    const mac = createHmac('sha256', record?.salt ?? this.dummySalt).update(secret).digest();
    if (record === undefined || !timingSafeEqual(mac, record.secretMac)) return undefined;
    return this.issueToken(record.username, expirationSeconds);
  }

  /** The user a token belongs to, or undefined when it is unknown, revoked or expired. */
  userForToken(token: string): string | undefined {
    return this.userForTokenKey(tokenKey(token));
  }

  /**
   * {@link userForToken} for a token already hashed with {@link tokenKey}: callers that see the
   * same token again and again (a websocket session, a keep-alive connection) hash it once, and
   * every call still checks that it is live (not expired, not revoked).
   */
  userForTokenKey(key: string): string | undefined {
    const entry = this.tokens.get(key);
    if (entry === undefined) return undefined;
    if (this.now() >= entry.expiresAtMs) {
      this.tokens.delete(key);
      return undefined;
    }
    return entry.username;
  }

  /** Wall milliseconds at which a live token expires; undefined when it is not live. */
  tokenExpiresAtMs(token: string): number | undefined {
    return this.userForToken(token) === undefined ? undefined : this.tokens.get(tokenKey(token))!.expiresAtMs;
  }

  /**
   * Creates an API key for a user who proves the password (and the TOTP code when 2FA is on).
   * The secret is returned once and kept only as an HMAC.
   */
  async createApiKey(username: string, password: string, totp: string | null | undefined): Promise<{ api_key: string; secret: string } | ApiKeyFailure> {
    if (!(await this.verifyPassword(username, password))) return 'bad_password';
    const user = this.users.get(username)!;
    if (user.totpSecret !== undefined) {
      if (totp === undefined || totp === null) return 'totp_required';
      const step = totpStep(user.totpSecret, totp, this.now());
      if (step === undefined) return 'bad_totp';
      if (step <= user.lastTotpStep) return 'totp_reused';
      user.lastTotpStep = step;
      this.record?.({ k: 'totp_step', u: username, step });
    }
    const apiKey = `ak_${randomBytes(12).toString('hex')}`;
    const secret = randomBytes(32).toString('base64url');
    const salt = randomBytes(16);
    const secretMac = createHmac('sha256', salt).update(secret).digest();
    this.apiKeys.set(apiKey, { username, salt, secretMac });
    this.record?.({ k: 'api_key', key: apiKey, u: username, salt: salt.toString('base64'), mac: secretMac.toString('base64') });
    return { api_key: apiKey, secret };
  }

  private issueToken(username: string, expirationSeconds: number): string {
    if (!Number.isSafeInteger(expirationSeconds) || expirationSeconds < 1 || expirationSeconds > MAX_TOKEN_SECONDS) {
      throw new RangeError(`expiration_seconds must be an integer from 1 to ${MAX_TOKEN_SECONDS}`);
    }
    this.pruneExpired();
    const token = randomBytes(32).toString('base64url');
    const key = tokenKey(token);
    const expiresAtMs = this.now() + expirationSeconds * 1000;
    this.storeToken(key, username, expiresAtMs);
    this.record?.({ k: 'token', key, u: username, exp: expiresAtMs });
    return token;
  }

  /** Keeps a token (by its key) for `username`, revoking the user's oldest beyond the cap. */
  private storeToken(key: string, username: string, expiresAtMs: number): void {
    const user = this.users.get(username);
    if (user === undefined) return;
    this.tokens.set(key, { username, expiresAtMs });
    const keys = user.tokenKeys;
    keys.push(key);
    // Over the cap: drop keys that already expired, then revoke the oldest live ones.
    if (keys.length > this.maxTokensPerUser) {
      const live = keys.filter((k) => this.tokens.has(k));
      while (live.length > this.maxTokensPerUser) this.tokens.delete(live.shift()!);
      keys.splice(0, keys.length, ...live);
    }
  }

  /** Drops expired tokens now and then, so a long-lived server does not accumulate them. */
  private pruneExpired(): void {
    if (this.tokens.size < 1024) return;
    const now = this.now();
    for (const [key, entry] of this.tokens) if (now >= entry.expiresAtMs) this.tokens.delete(key);
  }
}

/** Tokens are stored by their SHA-256, so a memory dump does not reveal live tokens. */
export function tokenKey(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
