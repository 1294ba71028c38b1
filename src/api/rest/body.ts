import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { HttpError, RequestValidationError } from './errors.ts';
import { isNestedDeeperThan, MAX_JSON_DEPTH } from '../json-depth.ts';
import { parsePythonJson, TooDeepError } from './py-json.ts';

const PARSE_FAILURE = 'There was an error parsing the body';

/** Largest request body accepted; every documented body is far smaller. */
export const MAX_BODY_BYTES = 64 * 1024;

const TOO_LARGE = 'Request body too large';
const INCOMPLETE = 'Request body incomplete: the client closed the connection';

/**
 * The raw body. On @hono/node-server it is read straight from node's IncomingMessage: going
 * through `c.req.arrayBuffer()` builds a full fetch Request (AbortSignal, web stream), which
 * was a quarter of the server's time per insert_order. Elsewhere (or if something already
 * started reading the stream) the portable path is used.
 */
async function bodyBytes(c: Context): Promise<Uint8Array> {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming === undefined || incoming.readableDidRead || incoming.readableEnded) {
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    if (bytes.length > MAX_BODY_BYTES) throw new HttpError(413, TOO_LARGE);
    return bytes;
  }
  return readIncomingBody(incoming);
}

/**
 * The body of a node request, at most {@link MAX_BODY_BYTES} (413 beyond: the rest is read and
 * dropped, so the connection stays usable). Plain stream events: an async iterator per request
 * cost a few percent of a small POST. A client that goes away mid-upload is a 400 nobody reads,
 * and no server fault worth a stack trace.
 */
export function readIncomingBody(incoming: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (): void => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onBroken);
      incoming.off('close', onBroken);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) {
        chunks.push(chunk);
        return;
      }
      done();
      incoming.resume(); // drop the rest
      reject(new HttpError(413, TOO_LARGE));
    };
    const onEnd = (): void => {
      done();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onBroken = (): void => {
      done();
      reject(new HttpError(400, INCOMPLETE));
    };
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onBroken);
    incoming.on('close', onBroken); // 'close' before 'end': the client went away
  });
}

/**
 * True when FastAPI would decode the body as JSON: no Content-Type, `application/json` or
 * `application/*+json`. `text/plain` is also read as JSON, a cheap leniency for clients that
 * post a JSON string with `fetch` and no header (FastAPI would answer 422).
 */
function readsAsJson(contentType: string | undefined): boolean {
  if (contentType === undefined || contentType.trim() === '') return true;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json')) || type === 'text/plain';
}

/** One decoder for every request: decoding is stateless without `stream`; fatal, and it drops a BOM as Python does. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** {@link parseBody} of a Hono request. */
export async function readBody(c: Context): Promise<unknown> {
  return parseBody(await bodyBytes(c), c.req.header('content-type'));
}

/**
 * The request body as FastAPI sees it: `undefined` when empty (→ "Field required" at
 * `["body"]`), the parsed JSON value, or the raw text for a non-JSON content type (which then
 * fails as "not a dictionary"). Invalid JSON is a 422 `json_invalid` at Python's position;
 * bytes that are not UTF-8 are a 400, as in FastAPI.
 */
export function parseBody(bytes: Uint8Array, contentType: string | undefined): unknown {
  if (bytes.length === 0) return undefined;
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw new HttpError(400, PARSE_FAILURE);
  }
  if (!readsAsJson(contentType)) return text;
  let parsed: { value: unknown } | undefined;
  try {
    parsed = { value: JSON.parse(text) };
  } catch {
    // JSON.parse says neither where nor why in Python's terms: re-scan to find out.
  }
  if (parsed !== undefined) return shallow(parsed.value);
  let result: ReturnType<typeof parsePythonJson>;
  try {
    result = parsePythonJson(text);
  } catch (e) {
    if (e instanceof TooDeepError) throw new HttpError(400, PARSE_FAILURE);
    throw e;
  }
  if (result.ok) return shallow(result.value); // NaN / Infinity: valid for Python, not for JSON.parse
  throw new RequestValidationError([{ type: 'json_invalid', loc: ['body', result.pos], msg: 'JSON decode error', input: {}, ctx: { error: result.msg } }]);
}

/**
 * The body if it nests at most {@link MAX_JSON_DEPTH} deep, else a 422 that does not echo it
 * (echoing thousands of nested arrays overflows the stack in `JSON.stringify`).
 */
function shallow(value: unknown): unknown {
  if (!isNestedDeeperThan(value)) return value;
  const error = `JSON nested deeper than ${MAX_JSON_DEPTH} levels`;
  throw new RequestValidationError([{ type: 'json_invalid', loc: ['body', 0], msg: 'JSON decode error', input: {}, ctx: { error } }]);
}
