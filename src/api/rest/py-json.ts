/**
 * JSON as Python's `json.loads` reads it, for the one thing `JSON.parse` cannot tell us: where
 * and why a body is invalid, in Python's words. FastAPI answers a bad body with
 * `{"type": "json_invalid", "loc": ["body", <pos>], "ctx": {"error": <msg>}}`, where `pos` and
 * `msg` come from Python's `JSONDecodeError`; this scanner reproduces both (pre-3.13 messages).
 * It also accepts what Python accepts and `JSON.parse` does not (`NaN`, `Infinity`).
 *
 * Only used after `JSON.parse` has failed, so speed does not matter.
 */

/** Why and where (code-point offset, as Python counts) a text is not JSON. */
export interface PyJsonFailure {
  msg: string;
  pos: number;
}

/** Nesting deeper than this is refused (Python would hit its recursion limit). */
export const MAX_DEPTH = 1000;

class DecodeError extends Error {
  constructor(
    readonly msg: string,
    readonly index: number,
  ) {
    super(msg);
  }
}

/** Thrown for nesting beyond {@link MAX_DEPTH}. */
export class TooDeepError extends Error {}

const WS = new Set([' ', '\t', '\n', '\r']);
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;

class Scanner {
  constructor(private readonly s: string) {}

  skip(i: number): number {
    while (i < this.s.length && WS.has(this.s[i]!)) i++;
    return i;
  }

  /** A value at `i` → [value, next index]. "Expecting value" when nothing starts there. */
  value(i: number, depth: number): [unknown, number] {
    const s = this.s;
    const c = s[i];
    if (c === '"') return this.string(i + 1);
    if (c === '{') return this.object(i + 1, depth + 1);
    if (c === '[') return this.array(i + 1, depth + 1);
    if (c === 'n' && s.startsWith('null', i)) return [null, i + 4];
    if (c === 't' && s.startsWith('true', i)) return [true, i + 4];
    if (c === 'f' && s.startsWith('false', i)) return [false, i + 5];
    if (c === 'N' && s.startsWith('NaN', i)) return [NaN, i + 3];
    if (c === 'I' && s.startsWith('Infinity', i)) return [Infinity, i + 8];
    if (c === '-' && s.startsWith('-Infinity', i)) return [-Infinity, i + 9];
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(s);
    if (m === null) throw new DecodeError('Expecting value', i);
    return [Number(m[0]), i + m[0].length];
  }

  string(i: number): [string, number] {
    const s = this.s;
    const begin = i - 1;
    let out = '';
    for (;;) {
      let j = i;
      while (j < s.length && s[j] !== '"' && s[j] !== '\\' && s.charCodeAt(j) > 0x1f) j++;
      out += s.slice(i, j);
      if (j >= s.length) throw new DecodeError('Unterminated string starting at', begin);
      if (s[j] === '"') return [out, j + 1];
      if (s[j] !== '\\') throw new DecodeError('Invalid control character at', j);
      const esc = s[j + 1];
      if (esc === undefined) throw new DecodeError('Unterminated string starting at', begin);
      if (esc !== 'u') {
        const ch = ESCAPES[esc];
        if (ch === undefined) throw new DecodeError('Invalid \\escape', j);
        out += ch;
        i = j + 2;
        continue;
      }
      const hex = s.slice(j + 2, j + 6);
      if (j + 6 >= s.length) throw new DecodeError('Invalid \\uXXXX escape', j + 1);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new DecodeError('Invalid \\uXXXX escape', j + 1);
      out += String.fromCharCode(parseInt(hex, 16));
      i = j + 6;
    }
  }

  object(i: number, depth: number): [Record<string, unknown>, number] {
    if (depth > MAX_DEPTH) throw new TooDeepError('nesting too deep');
    const s = this.s;
    const out: Record<string, unknown> = {};
    i = this.skip(i);
    if (s[i] === '}') return [out, i + 1];
    for (;;) {
      if (s[i] !== '"') throw new DecodeError('Expecting property name enclosed in double quotes', i);
      const [key, afterKey] = this.string(i + 1);
      i = this.skip(afterKey);
      if (s[i] !== ':') throw new DecodeError("Expecting ':' delimiter", i);
      const [val, afterVal] = this.value(this.skip(i + 1), depth);
      Object.defineProperty(out, key, { value: val, enumerable: true, writable: true, configurable: true });
      i = this.skip(afterVal);
      if (s[i] === '}') return [out, i + 1];
      if (s[i] !== ',') throw new DecodeError("Expecting ',' delimiter", i);
      i = this.skip(i + 1);
    }
  }

  array(i: number, depth: number): [unknown[], number] {
    if (depth > MAX_DEPTH) throw new TooDeepError('nesting too deep');
    const s = this.s;
    const out: unknown[] = [];
    i = this.skip(i);
    if (s[i] === ']') return [out, i + 1];
    for (;;) {
      const [val, next] = this.value(i, depth);
      out.push(val);
      i = this.skip(next);
      if (s[i] === ']') return [out, i + 1];
      if (s[i] !== ',') throw new DecodeError("Expecting ',' delimiter", i);
      i = this.skip(i + 1);
    }
  }
}

/** Code points before UTF-16 index `i` (Python indexes strings by code point). */
function codePointOffset(s: string, i: number): number {
  let n = 0;
  for (let k = 0; k < i; k++) {
    const c = s.charCodeAt(k);
    if (c >= 0xd800 && c <= 0xdbff && k + 1 < i) {
      const d = s.charCodeAt(k + 1);
      if (d >= 0xdc00 && d <= 0xdfff) k++;
    }
    n++;
  }
  return n;
}

/**
 * Parses `text` as Python's `json.loads` would: the value, or Python's error message and
 * position. Throws {@link TooDeepError} for nesting beyond {@link MAX_DEPTH}.
 */
export function parsePythonJson(text: string): { ok: true; value: unknown } | ({ ok: false } & PyJsonFailure) {
  const scanner = new Scanner(text);
  try {
    const [value, end] = scanner.value(scanner.skip(0), 0);
    const rest = scanner.skip(end);
    if (rest !== text.length) throw new DecodeError('Extra data', rest);
    return { ok: true, value };
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    return { ok: false, msg: e.msg, pos: codePointOffset(text, e.index) };
  }
}
