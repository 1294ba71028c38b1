import { COMMAND_ROLLED_BACK, CommandFailedError } from '../../venue/command-log.ts';
import { JournalStoppedError } from '../journal/output-gate.ts';

/**
 * Error values of the REST wire, shaped like FastAPI's: `{"detail": "<message>"}` for 4xx/5xx
 * and `{"detail": [<issue>, …]}` for 422 validation failures. Handlers throw these; the app's
 * error handler turns them into responses, so no handler builds an error body itself.
 */

/** Where a field came from, then its name (or a JSON position for `json_invalid`). */
export type Loc = (string | number)[];

/** One failing field, in pydantic v2's error format (as FastAPI renders it: no `url`). */
export interface ValidationIssue {
  type: string;
  loc: Loc;
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

/** A 422: every failing field of the request, in declaration order. */
export class RequestValidationError extends Error {
  constructor(readonly issues: ValidationIssue[]) {
    super(`request validation failed: ${issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; ')}`);
  }
}

/** Any other answered error: a status and a human-readable `detail`. */
export class HttpError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 405 | 409 | 413 | 429,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

/** 401 with the `WWW-Authenticate` challenge FastAPI's bearer scheme sends. */
export function unauthorized(detail: string): HttpError {
  return new HttpError(401, detail, { 'WWW-Authenticate': 'Bearer' });
}

/**
 * A business-rule failure reported as 422 (unknown symbol, end before start): pydantic's
 * `value_error` shape, so clients parse it like any other validation issue.
 */
export function valueIssue(loc: Loc, input: unknown, message: string): ValidationIssue {
  return { type: 'value_error', loc, msg: `Value error, ${message}`, input, ctx: { error: message } };
}

/** A response to an error: status, JSON body, extra headers. */
export interface ErrorAnswer {
  status: number;
  body: { detail: unknown };
  headers: Record<string, string>;
}

/**
 * The answer to anything a handler threw: validation issues as 422, an {@link HttpError} as
 * itself, anything else a bare 500 (logged, never shown). The Hono app and the order-entry fast
 * path both answer errors through here, so they cannot drift apart.
 */
export function errorAnswer(err: unknown): ErrorAnswer {
  if (err instanceof RequestValidationError) return { status: 422, body: { detail: err.issues }, headers: {} };
  if (err instanceof HttpError) return { status: err.status, body: { detail: err.detail }, headers: err.headers };
  // A venue command that failed midway was rolled back whole: say so, so the client knows the
  // order (or cancel) did not happen and may retry, instead of guessing from a bare 500.
  if (err instanceof CommandFailedError) {
    console.error('perpsim REST: command rolled back', err);
    return { status: 500, body: { detail: COMMAND_ROLLED_BACK }, headers: {} };
  }
  // the journal stopped: the server said so once and is closing (the gate never lets this out)
  if (err instanceof JournalStoppedError) return { status: 503, body: { detail: err.message }, headers: {} };
  console.error('perpsim REST: unexpected error', err);
  return { status: 500, body: { detail: 'Internal Server Error' }, headers: {} };
}
