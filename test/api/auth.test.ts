import { describe, expect, it } from 'vitest';
import { decodeBase32, totpCode, verifyTotp } from '../../src/api/auth/totp.ts';
import { MAX_TOKEN_SECONDS, UserDirectory } from '../../src/api/auth/user-directory.ts';

// RFC 6238 appendix B: the SHA-1 seed "12345678901234567890" in base32.
const RFC_SECRET_B32 = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

function directory(startMs = 1_700_000_000_000) {
  const clock = { nowMs: startMs };
  const users = new UserDirectory({ now: () => clock.nowMs, scryptCost: 1024 });
  return { users, clock };
}

describe('TOTP', () => {
  it('matches the RFC 6238 SHA-1 test vectors (last six digits)', () => {
    const secret = decodeBase32(RFC_SECRET_B32)!;
    expect(secret.toString('ascii')).toBe('12345678901234567890');
    expect(totpCode(secret, 59_000, 8)).toBe('94287082');
    expect(totpCode(secret, 1_111_111_109_000, 8)).toBe('07081804');
    expect(totpCode(secret, 1_234_567_890_000, 8)).toBe('89005924');
    expect(totpCode(secret, 59_000)).toBe('287082');
  });

  it('accepts the code of the neighbouring 30 s step but not two steps away', () => {
    const secret = decodeBase32(RFC_SECRET_B32)!;
    const t = 1_234_567_890_000;
    expect(verifyTotp(secret, totpCode(secret, t - 30_000), t)).toBe(true);
    expect(verifyTotp(secret, totpCode(secret, t - 60_000), t)).toBe(false);
    expect(verifyTotp(secret, '12345', t)).toBe(false);
  });

  it('rejects base32 text with characters outside the alphabet', () => {
    expect(decodeBase32('ABC1')).toBeUndefined();
    expect(decodeBase32('')).toBeUndefined();
  });
});

describe('UserDirectory', () => {
  it('stores a salted scrypt hash and verifies only the right password', async () => {
    const { users } = directory();
    await users.addUser('alice', 'correct horse');
    expect(await users.verifyPassword('alice', 'correct horse')).toBe(true);
    expect(await users.verifyPassword('alice', 'correct horsE')).toBe(false);
    expect(await users.verifyPassword('bob', 'correct horse')).toBe(false);
  });

  it('refuses a second user with the same name', async () => {
    const { users } = directory();
    await users.addUser('alice', 'pw');
    await expect(users.addUser('alice', 'other')).rejects.toThrow(/already exists/);
  });

  it('issues tokens that resolve to their user and expire on wall time', async () => {
    const { users, clock } = directory();
    await users.addUser('alice', 'pw');
    const token = await users.tokenForPassword('alice', 'pw', 60);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(users.userForToken(token!)).toBe('alice');
    clock.nowMs += 59_999;
    expect(users.userForToken(token!)).toBe('alice');
    clock.nowMs += 1;
    expect(users.userForToken(token!)).toBeUndefined();
  });

  it('gives no token for a wrong password and rejects out-of-range expirations', async () => {
    const { users } = directory();
    await users.addUser('alice', 'pw');
    expect(await users.tokenForPassword('alice', 'nope', 60)).toBeUndefined();
    await expect(users.tokenForPassword('alice', 'pw', 0)).rejects.toThrow(RangeError);
    await expect(users.tokenForPassword('alice', 'pw', MAX_TOKEN_SECONDS + 1)).rejects.toThrow(RangeError);
  });

  it('creates API keys whose secret yields tokens, and only the exact secret does', async () => {
    const { users } = directory();
    await users.addUser('alice', 'pw');
    const key = await users.createApiKey('alice', 'pw', null);
    if (typeof key === 'string') throw new Error(key);
    const token = users.tokenForApiKey(key.api_key, key.secret, 3600);
    expect(users.userForToken(token!)).toBe('alice');
    expect(users.tokenForApiKey(key.api_key, key.secret + 'x', 3600)).toBeUndefined();
    expect(users.tokenForApiKey('ak_unknown', key.secret, 3600)).toBeUndefined();
  });

  it('requires a valid TOTP code to create an API key when 2FA is enabled', async () => {
    const { users, clock } = directory();
    await users.addUser('carol', 'pw', RFC_SECRET_B32);
    expect(await users.createApiKey('carol', 'pw', null)).toBe('totp_required');
    const code = totpCode(decodeBase32(RFC_SECRET_B32)!, clock.nowMs);
    const wrong = String((Number(code) + 500_000) % 1_000_000).padStart(6, '0');
    expect(await users.createApiKey('carol', 'pw', wrong)).toBe('bad_totp');
    const key = await users.createApiKey('carol', 'pw', code);
    expect(typeof key).toBe('object');
    expect(await users.createApiKey('carol', 'wrong', code)).toBe('bad_password');
  });
});
