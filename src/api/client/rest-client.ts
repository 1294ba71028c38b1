import { describeDetail, WireError, WireHttpError } from './errors.ts';

/**
 * JSON over HTTP to one host: the global fetch (undici keeps connections alive between calls),
 * an optional bearer token, and non-2xx answers turned into {@link WireHttpError}s carrying the
 * server's `detail`.
 */
export class RestClient {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
    private bearer: string | undefined = undefined,
  ) {}

  setBearer(token: string): void {
    this.bearer = token;
  }

  get<T>(path: string, query?: Record<string, string>): Promise<T> {
    const q = query === undefined ? '' : `?${new URLSearchParams(query).toString()}`;
    return this.call<T>('GET', path + q, undefined);
  }

  post<T>(path: string, body: unknown = {}): Promise<T> {
    return this.call<T>('POST', path, body);
  }

  private async call<T>(method: string, path: string, body: unknown): Promise<T> {
    const headers: Record<string, string> = {};
    if (this.bearer !== undefined) headers.Authorization = `Bearer ${this.bearer}`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(this.baseUrl + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (e) {
      throw new WireError(`${method} ${path}: ${(e as Error).message}`, { cause: e });
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = text === '' ? null : JSON.parse(text);
    } catch {
      throw new WireError(`${method} ${path}: HTTP ${res.status} with a body that is not JSON`);
    }
    if (!res.ok) {
      const detail = (json as { detail?: unknown } | null)?.detail;
      throw new WireHttpError(res.status, detail, describeDetail(res.status, detail));
    }
    return json as T;
  }
}
