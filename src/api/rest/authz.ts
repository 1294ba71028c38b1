import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import type { Account } from '../../venue/account.ts';
import { tokenKey } from '../auth/user-directory.ts';
import type { Exchange } from '../exchange.ts';
import { HttpError, unauthorized } from './errors.ts';

/**
 * Who is calling: tokens from the token endpoints for user routes, the admin token for
 * /admin. decisions.md: `Authorization` is `Bearer <token>` or the bare token; missing, unknown
 * or expired → 401; acting for another username → 403.
 */

/** The token of an Authorization header value, or undefined when there is none. */
export function tokenFromHeader(header: string | undefined): string | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  const bearer = /^bearer\s+(\S+)$/i.exec(value);
  if (bearer) return bearer[1];
  // A bare token has no spaces; anything else (another scheme, "Bearer" alone) is no token.
  return /\s/.test(value) || /^bearer$/i.test(value) ? undefined : value;
}

/** The username the request's token belongs to; 401 otherwise. */
export function requireUser(c: Context, exchange: Exchange): string {
  return userOfAuthorization(exchange, c.req.header('authorization'));
}

/**
 * What a keep-alive connection last authenticated with: its Authorization header and the key
 * (SHA-256) of the token in it. A client sends the same header on every request of a
 * connection; with this the token is parsed and hashed once per connection, while every
 * request still looks the key up (expired or revoked tokens fail at once). The header is
 * compared in constant time, as it is a secret.
 */
export interface ConnectionAuth {
  header: Buffer | undefined;
  key: string | undefined;
}

/** The username an Authorization header's token belongs to; 401 otherwise. */
export function userOfAuthorization(exchange: Exchange, header: string | undefined, cache?: ConnectionAuth): string {
  const key = cache === undefined || header === undefined ? undefined : cachedKey(cache, header);
  if (key !== undefined) {
    const username = exchange.users.userForTokenKey(key);
    if (username === undefined) throw unauthorized('Invalid or expired token');
    return username;
  }
  const token = tokenFromHeader(header);
  if (token === undefined) throw unauthorized(header?.trim() ? 'Invalid authorization header' : 'Not authenticated');
  const fresh = tokenKey(token);
  if (cache !== undefined) {
    cache.header = Buffer.from(header!, 'latin1'); // node decodes header values as latin1
    cache.key = fresh;
  }
  const username = exchange.users.userForTokenKey(fresh);
  if (username === undefined) throw unauthorized('Invalid or expired token');
  return username;
}

/** The cached key when `header` is the cached header (constant time in its content), else undefined. */
function cachedKey(cache: ConnectionAuth, header: string): string | undefined {
  const known = cache.header;
  if (known === undefined || known.length !== header.length) return undefined;
  return timingSafeEqual(known, Buffer.from(header, 'latin1')) ? cache.key : undefined;
}

/** 403 unless the username a request names is the token's user. */
export function requireSameUser(tokenUser: string, username: string): void {
  if (username !== tokenUser) throw new HttpError(403, `Not allowed to act for user ${username}`);
}

/** The venue account of an authenticated user. */
export function accountOf(exchange: Exchange, username: string): Account {
  const account = exchange.venue.account(username);
  // Users are registered in directory and venue together, so this is a broken invariant.
  if (account === undefined) throw new Error(`user ${username} has a token but no account`);
  return account;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** True when `candidate` is the admin token; constant time in the token's content. */
export function isAdminToken(exchange: Exchange, candidate: string | undefined): boolean {
  // Comparing digests keeps the comparison length-independent as well.
  return candidate !== undefined && timingSafeEqual(digest(candidate), digest(exchange.adminToken));
}

/** Middleware: 401 unless the request carries the admin token. */
export function adminGuard(exchange: Exchange): MiddlewareHandler {
  return async (c, next) => {
    if (!isAdminToken(exchange, tokenFromHeader(c.req.header('authorization')))) throw unauthorized('Invalid or missing admin token');
    await next();
  };
}
