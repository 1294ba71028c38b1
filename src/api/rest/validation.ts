import { z } from 'zod';
import { RequestValidationError, type Loc, type ValidationIssue } from './errors.ts';

/**
 * Request validation with pydantic v2's error types and messages (lax mode, as FastAPI runs
 * it), so a client written against the real FastAPI service sees the same 422 bodies. Each
 * field reports at most one issue (pydantic stops at a field's first failing constraint), and
 * every failing field of the request is reported at once.
 *
 * Every rule also carries `schema`, the zod schema of the type it documents, built in the same
 * call from the same constraint values: /openapi.json is generated from these (`z.toJSONSchema`),
 * so a bound is written once. As FastAPI documents a pydantic model, the schema is the strict
 * type (`integer`, not the lax `"5"` a request may also send).
 */

/** Why a single value failed, without its location (the object checker adds that). */
export interface Failure {
  type: string;
  msg: string;
  ctx?: Record<string, unknown>;
}

/** The result of checking one value. */
export type Checked<T> = { ok: true; value: T } | { ok: false; failure: Failure };

/** A field rule: how to check a present value, whether absence is allowed, and its documented type. */
export interface Field<T> {
  readonly optional: boolean;
  check(input: unknown): Checked<T>;
  /** The type as documented (OpenAPI): what any client may send and the check accepts. */
  readonly schema: z.ZodType;
}

/** Field rules of an object, in declaration order (the order issues are listed in). */
export type Shape = Record<string, Field<unknown>>;

/** The validated object a shape describes. */
export type Parsed<S extends Shape> = { [K in keyof S]: S[K] extends Field<infer T> ? T : never };

/** Where the fields come from: the first element of every issue's `loc`. */
export type Source = 'body' | 'query' | 'path';

/** A passed check with its (possibly coerced) value. */
export const ok = <T>(value: T): Checked<T> => ({ ok: true, value });
/** A failed check: pydantic's error type, message and context. */
export const fail = (type: string, msg: string, ctx?: Record<string, unknown>): Checked<never> => ({
  ok: false,
  failure: ctx === undefined ? { type, msg } : { type, msg, ctx },
});

/** A required field with a custom check, documented as `schema`. */
export function field<T>(check: (input: unknown) => Checked<T>, schema: z.ZodType): Field<T> {
  return { optional: false, check, schema };
}

/** The field may be absent (it then comes out as `undefined`). */
export function optional<T>(inner: Field<T>): Field<T | undefined> {
  return { optional: true, check: inner.check, schema: inner.schema };
}

/** The field may be JSON `null`. */
export function nullable<T>(inner: Field<T>): Field<T | null> {
  return { optional: inner.optional, check: (input) => (input === null ? ok(null) : inner.check(input)), schema: inner.schema.nullable() };
}

/** The documented object of a shape (unknown keys allowed, as the checks ignore them). */
export function shapeSchema(shape: Shape): z.ZodObject {
  return z.object(Object.fromEntries(Object.entries(shape).map(([name, rule]) => [name, rule.optional ? rule.schema.optional() : rule.schema])));
}

const plural = (n: number) => (n === 1 ? '' : 's');

/** A string, with pydantic's constraint order: min_length, max_length, pattern. */
export function str(c: { min?: number; max?: number; pattern?: string } = {}): Field<string> {
  const regex = c.pattern === undefined ? undefined : new RegExp(c.pattern, 'u');
  let schema = z.string();
  if (c.min !== undefined) schema = schema.min(c.min);
  if (c.max !== undefined) schema = schema.max(c.max);
  if (regex !== undefined) schema = schema.regex(regex);
  return field((input) => {
    if (typeof input !== 'string') return fail('string_type', 'Input should be a valid string');
    // Lengths count code points, as Python does.
    const length = c.min === undefined && c.max === undefined ? 0 : [...input].length;
    if (c.min !== undefined && length < c.min) {
      return fail('string_too_short', `String should have at least ${c.min} character${plural(c.min)}`, { min_length: c.min });
    }
    if (c.max !== undefined && length > c.max) {
      return fail('string_too_long', `String should have at most ${c.max} character${plural(c.max)}`, { max_length: c.max });
    }
    if (regex !== undefined && !regex.test(input)) {
      return fail('string_pattern_mismatch', `String should match pattern '${c.pattern}'`, { pattern: c.pattern });
    }
    return ok(input);
  }, schema);
}

function bounds(value: number, c: { ge?: number; le?: number; gt?: number }): Checked<number> {
  if (c.gt !== undefined && !(value > c.gt)) return fail('greater_than', `Input should be greater than ${c.gt}`, { gt: c.gt });
  if (c.ge !== undefined && !(value >= c.ge)) return fail('greater_than_equal', `Input should be greater than or equal to ${c.ge}`, { ge: c.ge });
  if (c.le !== undefined && !(value <= c.le)) return fail('less_than_equal', `Input should be less than or equal to ${c.le}`, { le: c.le });
  return ok(value);
}

const INT_TEXT = /^[+-]?\d+(?:\.0*)?$/;

/** An integer; lax like pydantic: `5.0`, `"5"`, `true` are accepted, `5.5` and `"x"` are not. */
export function int(c: { ge?: number; le?: number } = {}): Field<number> {
  let schema = z.int(); // a safe integer: beyond 2^53 is int_parsing_size
  if (c.ge !== undefined) schema = schema.gte(c.ge);
  if (c.le !== undefined) schema = schema.lte(c.le);
  return field((input) => {
    let value: number;
    if (typeof input === 'boolean') value = input ? 1 : 0;
    else if (typeof input === 'number') {
      if (!Number.isFinite(input)) return fail('finite_number', 'Input should be a finite number');
      if (!Number.isInteger(input)) return fail('int_from_float', 'Input should be a valid integer, got a number with a fractional part');
      value = input;
    } else if (typeof input === 'string') {
      const text = input.trim();
      if (!INT_TEXT.test(text)) return fail('int_parsing', 'Input should be a valid integer, unable to parse string as an integer');
      value = Number(text.replace(/\.0*$/, ''));
    } else return fail('int_type', 'Input should be a valid integer');
    // Beyond 2^53 a JS number is no longer the integer that was sent: refuse rather than round.
    if (!Number.isSafeInteger(value)) return fail('int_parsing_size', 'Unable to parse input string as an integer, exceeded maximum size');
    return bounds(value === 0 ? 0 : value, c); // no -0 on the wire
  }, schema);
}

const FLOAT_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A finite number; lax like pydantic (`"1.5"` and booleans are accepted). */
export function float(c: { ge?: number; le?: number; gt?: number } = {}): Field<number> {
  let schema = z.number();
  if (c.gt !== undefined) schema = schema.gt(c.gt);
  if (c.ge !== undefined) schema = schema.gte(c.ge);
  if (c.le !== undefined) schema = schema.lte(c.le);
  return field((input) => {
    let value: number;
    if (typeof input === 'boolean') value = input ? 1 : 0;
    else if (typeof input === 'number') value = input;
    else if (typeof input === 'string') {
      const text = input.trim();
      if (!FLOAT_TEXT.test(text)) return fail('float_parsing', 'Input should be a valid number, unable to parse string as a number');
      value = Number(text);
    } else return fail('float_type', 'Input should be a valid number');
    if (!Number.isFinite(value)) return fail('finite_number', 'Input should be a finite number');
    return bounds(value, c);
  }, schema);
}

const TRUE_TEXT = new Set(['1', 'on', 't', 'true', 'y', 'yes']);
const FALSE_TEXT = new Set(['0', 'off', 'f', 'false', 'n', 'no']);

/** A boolean; lax like pydantic (`0`/`1`, `"yes"`/`"no"`, `"true"`/`"false"` …). */
export function bool(): Field<boolean> {
  return field((input) => {
    if (typeof input === 'boolean') return ok(input);
    if (input === 0 || input === 1) return ok(input === 1);
    if (typeof input === 'string') {
      const text = input.trim().toLowerCase();
      if (TRUE_TEXT.has(text)) return ok(true);
      if (FALSE_TEXT.has(text)) return ok(false);
    }
    if (typeof input === 'string' || typeof input === 'number') {
      return fail('bool_parsing', 'Input should be a valid boolean, unable to interpret input');
    }
    return fail('bool_type', 'Input should be a valid boolean');
  }, z.boolean());
}

/** Python's wording of a choice: `'A' or 'B'`, `'A', 'B' or 'C'`. */
export function expectedText(values: readonly string[]): string {
  const quoted = values.map((v) => `'${v}'`);
  return quoted.length <= 1 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
}

/** One of a fixed set of strings, reported as pydantic reports an `Enum` field. */
export function enumOf<const T extends string>(values: readonly T[]): Field<T> {
  const expected = expectedText(values);
  return field((input) =>
    typeof input === 'string' && (values as readonly string[]).includes(input)
      ? ok(input as T)
      : fail('enum', `Input should be ${expected}`, { expected }),
    z.enum(values as readonly [T, ...T[]]),
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function issue(loc: Loc, input: unknown, f: Failure): ValidationIssue {
  const out: ValidationIssue = { type: f.type, loc, msg: f.msg, input };
  if (f.ctx !== undefined) out.ctx = f.ctx;
  return out;
}

/**
 * Checks every field of `shape` against `data` (a JSON body, the query or the path parameters)
 * and collects all issues. Unknown keys are ignored, as FastAPI ignores them.
 */
export function checkFields<S extends Shape>(data: unknown, shape: S, source: Source): { value: Partial<Parsed<S>>; issues: ValidationIssue[] } {
  // FastAPI treats an empty body and a JSON null alike: the body is missing.
  if ((data === undefined || data === null) && source === 'body') {
    return { value: {}, issues: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }] };
  }
  if (!isPlainObject(data)) {
    const f = { type: 'model_attributes_type', msg: 'Input should be a valid dictionary or object to extract fields from' };
    return { value: {}, issues: [issue([source], data, f)] };
  }
  const value: Record<string, unknown> = {};
  const issues: ValidationIssue[] = [];
  for (const [name, rule] of Object.entries(shape)) {
    const present = Object.hasOwn(data, name) && data[name] !== undefined;
    if (!present) {
      // pydantic shows the whole body as the input of a missing body field; null elsewhere.
      if (!rule.optional) issues.push(issue([source, name], source === 'body' ? data : null, { type: 'missing', msg: 'Field required' }));
      continue;
    }
    const result = rule.check(data[name]);
    if (result.ok) value[name] = result.value;
    else issues.push(issue([source, name], data[name], result.failure));
  }
  return { value: value as Partial<Parsed<S>>, issues };
}

/** `checkFields`, throwing a 422 when anything failed. */
export function parseFields<S extends Shape>(data: unknown, shape: S, source: Source): Parsed<S> {
  const { value, issues } = checkFields(data, shape, source);
  if (issues.length > 0) throw new RequestValidationError(issues);
  return value as Parsed<S>;
}
