/**
 * Close codes the server ends a websocket with (RFC 6455 §7.4; 4000–4999 are private use).
 * Each close also carries a short reason text.
 */

/** The session's token expired or was revoked (after a 401 error envelope). */
export const CLOSE_TOKEN_EXPIRED = 4401;
/** Too many sockets: the user's cap (after a 429 error envelope at login) or the server's total. */
export const CLOSE_TOO_MANY = 4429;
/** The client stopped reading and its unsent output passed the per-socket cap. */
export const CLOSE_SLOW_CONSUMER = 4008;
