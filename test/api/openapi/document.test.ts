import { Validator } from '@seriousme/openapi-schema-validator';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Exchange } from '../../../src/api/exchange.ts';
import { openApiDocument } from '../../../src/api/openapi/document.ts';
import { ROUTES } from '../../../src/api/openapi/routes.ts';
import { createRestApp } from '../../../src/api/rest/app.ts';
import type { Field } from '../../../src/api/rest/validation.ts';
import * as S from '../../../src/api/openapi/schemas.ts';
import type { ApiRiskSnapshot, CandleHistory, CandleRecord, FundingRateRecord, InstrumentInfo, MarkPriceRecord, PositionRiskSnapshot, PositionView, RestOrder, SymbolRiskView } from '../../../src/wire/index.ts';
import { emptyScenario } from '../ws/helpers.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Routes that are not the exchange's API: the documentation itself, and GET /health (a probe
 * for CI and orchestrators, added with `serve --port-file`; documenting it is welcome, and
 * then it leaves this list).
 */
const DOC_ROUTES = /^\/(openapi\.json|docs(\/.*)?|health)$/;

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1 by the official JSON schema', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(openApiDocument()));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('documents every route the server answers, and no other (a new route needs its entry in src/api/openapi/routes.ts)', async () => {
    const exchange = await Exchange.create(emptyScenario(), { manual: true, scryptCost: 1024, adminToken: 'x' });
    const served = createRestApp(exchange)
      .routes.filter((r) => r.method !== 'ALL' && !DOC_ROUTES.test(r.path))
      .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:(\w+)/g, '{$1}')}`);
    const documented = Object.entries(openApiDocument().paths as Json).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`));
    expect([...served].sort()).toEqual([...documented].sort());
    exchange.driver.stop();
  });

  it("request bodies list each field with its validator's bounds, required unless optional", () => {
    const doc = openApiDocument() as Json;
    const insert = doc.components.schemas.InsertOrderRequest;
    expect(insert.required).toEqual(['username', 'symbol', 'price', 'quantity', 'side', 'time_in_force', 'post_only']);
    expect(insert.properties.price).toEqual({ type: 'string', minLength: 1, maxLength: 10, pattern: '^\\d+\\.?\\d*$' });
    expect(insert.properties.side).toEqual({ type: 'string', enum: ['B', 'S'] });
    expect(doc.components.schemas.GetUserTokenRequest.properties.expiration_seconds).toMatchObject({ type: 'integer', minimum: 1, maximum: 2_592_000 });
    expect(doc.components.schemas.CreateApiKeyRequest.required).toEqual(['username', 'password']);
    expect(doc.components.schemas.CreateApiKeyRequest.properties.totp).toEqual({ type: ['string', 'null'] });
    expect(doc.components.schemas.SettlementRequest.properties.start_time).toEqual({ type: 'string', format: 'date-time' });
  });
});

/** True when a schema's values are values of W and it has exactly W's keys (a compile error otherwise, where `true` is passed). */
type Same<Schema extends z.ZodType, W> = z.infer<Schema> extends W ? ([keyof z.infer<Schema>] extends [keyof W] ? ([keyof W] extends [keyof z.infer<Schema>] ? true : false) : false) : false;
const same = <Schema extends z.ZodType, W>(schema: Schema, ok: Same<Schema, W>): boolean => ok && schemaIsNamed(schema);
const schemaIsNamed = (schema: z.ZodType) => S.schemaRegistry.get(schema)?.id !== undefined;

describe('answer schemas', () => {
  it('have the keys and types of what the handlers return (src/wire): the compiler checks each pair', () => {
    const pairs = [
      same<typeof S.Order, RestOrder>(S.Order, true),
      same<typeof S.Instrument, InstrumentInfo>(S.Instrument, true),
      same<typeof S.MarkPrice, MarkPriceRecord>(S.MarkPrice, true),
      same<typeof S.FundingRate, FundingRateRecord>(S.FundingRate, true),
      same<typeof S.Candle, CandleRecord>(S.Candle, true),
      same<typeof S.CandleResponse, CandleHistory>(S.CandleResponse, true),
      same<typeof S.Position, PositionView>(S.Position, true),
      same<typeof S.PositionRiskSnapshot, PositionRiskSnapshot>(S.PositionRiskSnapshot, true),
      same<typeof S.SymbolRisk, SymbolRiskView>(S.SymbolRisk, true),
      same<typeof S.ApiRiskSnapshot, ApiRiskSnapshot>(S.ApiRiskSnapshot, true),
    ];
    expect(pairs).toEqual(Array(pairs.length).fill(true));
  });
});

/** Every field rule of every documented input, with where it is used. */
function documentedFields(): { where: string; rule: Field<unknown> }[] {
  return ROUTES.flatMap((r) =>
    [r.body?.shape, r.query, r.params].flatMap((shape) => Object.entries(shape ?? {}).map(([name, rule]) => ({ where: `${r.method} ${r.path} ${name}`, rule }))),
  );
}

/** Values of every JSON type, biased toward the edges of the documented bounds. */
const jsonValue = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.stringMatching(/^[-A-Za-z0-9_@.+]{0,55}$/),
  fc.stringMatching(/^\d{1,12}\.?\d{0,3}$/),
  fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString()),
  fc.constantFrom('B', 'S', 'GTC', 'IOC', 'max', 'OPEN', 'HALTED', 'BTCUSD-PERP', 'ABC234====', ''),
  fc.integer({ min: -3_000_000, max: 3_000_000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e9 }),
  fc.boolean(),
  fc.constant(null),
);

const jsonType = (v: unknown) => (v === null ? 'null' : Number.isInteger(v) ? 'integer' : typeof v === 'number' ? 'number' : typeof v);

describe('field rules and the document', () => {
  // The document is read back from its JSON, as a client sees it.
  const fields = documentedFields().map(({ where, rule }) => {
    const json = z.toJSONSchema(rule.schema, { io: 'input' }) as Json;
    return { where, rule, json, documented: z.fromJSONSchema(json as Parameters<typeof z.fromJSONSchema>[0]) };
  });

  it('accept every value the document allows (a client that follows it is never refused)', () => {
    fc.assert(
      fc.property(jsonValue, (value) => {
        for (const f of fields) {
          if (f.documented.safeParse(value).success) expect(f.rule.check(value).ok, `${f.where}: ${JSON.stringify(value)}`).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('refuse no value of the documented JSON type that the document allows, and allow none it refuses (date-times aside: the check also takes lax forms)', () => {
    fc.assert(
      fc.property(jsonValue, (value) => {
        for (const f of fields) {
          const types = ([] as string[]).concat(f.json.type ?? (f.json.anyOf as Json[] | undefined)?.map((s) => s.type) ?? []);
          const typed = types.includes(jsonType(value)) || (types.includes('number') && typeof value === 'number');
          if (!typed || f.json.format === 'date-time') continue;
          expect(f.rule.check(value).ok, `${f.where}: ${JSON.stringify(value)}`).toBe(f.documented.safeParse(value).success);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
