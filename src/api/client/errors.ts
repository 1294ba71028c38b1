/** Something the exchange refused or could not answer; `message` is the server's own text where it gave one. */
export class WireError extends Error {
  override name = 'WireError';
}

/** A REST call answered with a non-2xx status: `status` and the body's `detail` (text, or FastAPI's issue list for a 422). */
export class WireHttpError extends WireError {
  override name = 'WireHttpError';

  constructor(
    readonly status: number,
    readonly detail: unknown,
    message: string,
  ) {
    super(message);
  }
}

/** A websocket request answered with an error envelope (`err: {code, msg}` / `error: {code, message}`). */
export class WireSocketError extends WireError {
  override name = 'WireSocketError';

  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** The message of a REST error body: `detail` text, or each 422 issue as `loc: msg`. */
export function describeDetail(status: number, detail: unknown): string {
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) {
    const issues = detail.map((d: { loc?: unknown[]; msg?: unknown }) => `${(d.loc ?? []).join('.')}: ${String(d.msg)}`);
    if (issues.length > 0) return issues.join('; ');
  }
  return `HTTP ${status}`;
}
