import { createRequire } from 'node:module';
import { z } from 'zod';
import { shapeSchema, type Shape } from '../rest/validation.ts';
import { ROUTES, type RouteDoc } from './routes.ts';
import { schemaRegistry } from './schemas.ts';

/**
 * The OpenAPI 3.1 document of the REST wire, generated: request bodies, query and path
 * parameters from the field rules the handlers validate with (`shapeSchema`), answers from
 * `schemas.ts`, both through zod's `z.toJSONSchema` (JSON Schema 2020-12, OpenAPI 3.1's dialect).
 */

type Json = Record<string, unknown>;

const { version } = createRequire(import.meta.url)('../../../package.json') as { version: string };
const REF = (id: string) => `#/components/schemas/${id}`;
const ERROR_TEXT: Record<number, string> = {
  401: 'Missing, unknown or expired token',
  403: 'The body or query names another user than the token',
  404: 'Not found',
  409: 'Conflict',
  422: 'Validation error: every failing field, FastAPI style',
};

let cached: Json | undefined;

/** The document (built once; the routes and schemas are fixed at startup). */
export function openApiDocument(): Json {
  return (cached ??= build());
}

function build(): Json {
  // Request bodies join the registry under their names, so components list them beside the answers.
  const bodies = new Map<string, Shape>();
  for (const r of ROUTES) {
    if (r.body === undefined) continue;
    const known = bodies.get(r.body.id);
    if (known !== undefined && known !== r.body.shape) throw new Error(`two request bodies named ${r.body.id}`);
    if (known === undefined) schemaRegistry.add(shapeSchema(r.body.shape), { id: r.body.id });
    bodies.set(r.body.id, r.body.shape);
  }
  const components = z.toJSONSchema(schemaRegistry, { io: 'input', uri: REF }).schemas as Record<string, Json>;
  const paths: Record<string, Record<string, Json>> = {};
  for (const r of ROUTES) (paths[r.path] ??= {})[r.method] = operation(r);
  return {
    openapi: '3.1.0',
    info: {
      title: 'perpsim exchange',
      version,
      description:
        'The REST side of the exchange interface (exchange-interface.md, with the choices of decisions.md) as perpsim serves it, plus the admin API. ' +
        'Paths under /api are {app_url}: the same port unless `perpsim serve --app-port` splits them. The two websockets ({base_url}/orders and ' +
        '{ws_base_url}/md/ws) are described in docs/websocket.md.',
    },
    tags: [...new Set(ROUTES.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(components).map(([id, schema]) => [id, clean(schema)])),
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'A token from /auth/get_user_token or /auth/get_user_token_api_key (a bare token without "Bearer" is accepted too).' },
        admin: { type: 'http', scheme: 'bearer', description: 'The admin token of `perpsim serve` (--admin-token).' },
      },
    },
  };
}

function operation(r: RouteDoc): Json {
  const op: Json = { tags: [r.tag], summary: r.summary, operationId: `${r.method}${r.path.replace(/[^A-Za-z0-9]+(.)?/g, (_, ch: string | undefined) => (ch ?? '').toUpperCase())}` };
  if (r.description !== undefined) op.description = r.description;
  op.security = r.access === 'public' ? [] : [{ [r.access === 'admin' ? 'admin' : 'bearer']: [] }];
  const parameters = [...params(r.params, 'path'), ...params(r.query, 'query')];
  if (parameters.length > 0) op.parameters = parameters;
  if (r.body !== undefined) op.requestBody = { required: true, content: { 'application/json': { schema: { $ref: REF(r.body.id) } } } };
  const responses: Record<string, Json> = { '200': { description: 'Success', content: { 'application/json': { schema: ref(r.ok) } } } };
  const errors = new Set<number>(r.errors ?? []);
  if (r.access !== 'public') errors.add(401);
  for (const status of [...errors].sort()) responses[String(status)] = errorResponse(status, 'HTTPError');
  if (r.body !== undefined || r.query !== undefined || r.params !== undefined) responses['422'] = errorResponse(422, 'HTTPValidationError');
  op.responses = responses;
  return op;
}

function errorResponse(status: number, id: string): Json {
  return { description: ERROR_TEXT[status], content: { 'application/json': { schema: { $ref: REF(id) } } } };
}

function ref(schema: z.ZodType): Json {
  const id = schemaRegistry.get(schema)?.id;
  if (id === undefined) throw new Error('every answer of the document is a named schema (schemas.ts)');
  return { $ref: REF(id) };
}

function params(shape: Shape | undefined, where: 'path' | 'query'): Json[] {
  return Object.entries(shape ?? {}).map(([name, rule]) => ({
    name,
    in: where,
    required: where === 'path' || !rule.optional,
    schema: clean(z.toJSONSchema(rule.schema, { io: 'input' }) as Json),
  }));
}

/** Drops what each standalone JSON Schema carries but an OpenAPI schema object need not: `$schema`, `$id`, and zod's long date-time regex next to `format`. */
function clean(schema: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema' || key === '$id') continue;
    if (key === 'pattern' && schema.format === 'date-time') continue;
    out[key] = Array.isArray(value) ? value.map((v) => (isObject(v) ? clean(v) : v)) : isObject(value) ? clean(value) : value;
  }
  return out;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
