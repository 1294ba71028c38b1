import { WireError } from './errors.ts';
import type { RestClient } from './rest-client.ts';

/** How a client logs in: a password, an API key and secret, or a token already issued. */
export interface Credentials {
  username: string;
  password?: string | undefined;
  apiKey?: { key: string; secret: string } | undefined;
  token?: string | undefined;
}

/**
 * A user token from the document's token endpoints (POST /auth/get_user_token with a password,
 * /auth/get_user_token_api_key with a key and secret), asking for `expirationSeconds` of life;
 * a token given in `credentials` is returned as it is.
 *
 * @throws WireHttpError when the server refuses, WireError when no way to log in was given.
 */
export async function obtainToken(rest: RestClient, credentials: Credentials, expirationSeconds: number): Promise<string> {
  if (credentials.token !== undefined) return credentials.token;
  if (credentials.password !== undefined) {
    return (await rest.post<{ token: string }>('/auth/get_user_token', { username: credentials.username, password: credentials.password, expiration_seconds: expirationSeconds })).token;
  }
  if (credentials.apiKey !== undefined) {
    return (await rest.post<{ token: string }>('/auth/get_user_token_api_key', { api_key: credentials.apiKey.key, secret: credentials.apiKey.secret, expiration_seconds: expirationSeconds })).token;
  }
  throw new WireError('give a password, an API key or a token to log in');
}
