import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookLevel, BookUpdate, FillDetails, OrderFeed, TickerStats, WsOrder } from '../../../src/wire/index.ts';
import { BTC, startConformance, type Conformance } from '../../conformance/harness.ts';

/**
 * docs/websocket.md against the code: each pushed message's table lists exactly the keys of
 * its type in src/wire (the key lists below fail to compile when a type gains or loses a key),
 * and each request's "required" fields are what a live server refuses to go without.
 */

/** The keys of T, all of them and nothing else (checked by the compiler). */
function keysOf<T>() {
  return <const K extends readonly (keyof T)[]>(keys: K & ([Exclude<keyof T, K[number]>] extends [never] ? unknown : ['missing keys', Exclude<keyof T, K[number]>])) => keys as readonly string[];
}

const WIRE_KEYS: Record<string, readonly string[]> = {
  OrderFeed: keysOf<OrderFeed>()(['t', 'ts', 'tn', 'eid', 'o', 'r', 'xr', 'txt', 'xs', 'oid']),
  WsOrder: keysOf<WsOrder>()(['oid', 'u', 's', 'p', 'q', 'xq', 'rq', 'o', 'd', 'tif', 'liq', 'ts', 'tn']),
  FillDetails: keysOf<FillDetails>()(['tid', 's', 'q', 'p', 'd', 'agg']),
  BookUpdate: keysOf<BookUpdate>()(['t', 'ts', 'tn', 's', 'b', 'a']),
  BookLevel: keysOf<BookLevel>()(['p', 'q', 'o']),
  TickerStats: keysOf<TickerStats>()(['t', 'ts', 'tn', 's', 'p', 'q', 'o', 'l', 'h', 'v']),
};

const DOC = readFileSync(new URL('../../../docs/websocket.md', import.meta.url), 'utf8');

/** Rows of the first table after a heading matching `heading`, as arrays of cells. */
function tableAfter(heading: RegExp, from = 0): string[][] {
  const lines = DOC.slice(from).split('\n');
  const start = lines.findIndex((l) => heading.test(l));
  if (start < 0) throw new Error(`no heading ${heading} in docs/websocket.md`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('#')) break;
    if (!line.startsWith('|')) {
      if (rows.length > 0) break;
      continue;
    }
    rows.push(line.split('|').slice(1, -1).map((cell) => cell.trim()));
  }
  return rows.slice(2); // header and separator
}

const code = (cell: string) => /^`([^`]+)`$/.exec(cell)?.[1] ?? cell;
/** Field names of a "fields" cell: each `name` that starts the cell or follows ", ". */
const fieldsOf = (cell: string) => [...cell.matchAll(/(?:^|, )`(\w+)`/g)].map((m) => m[1]!);

describe('docs/websocket.md', () => {
  for (const [type, keys] of Object.entries(WIRE_KEYS)) {
    it(`lists exactly the keys of ${type}`, () => {
      const rows = tableAfter(new RegExp(`^### .*\\(\`${type}\`\\)$`));
      expect(rows.map((r) => code(r[0]!))).toEqual([...keys]);
    });
  }

  describe('requests, against a live server', () => {
    let c: Conformance;
    beforeAll(async () => {
      c = await startConformance();
    });
    afterAll(() => c.close());

    const ORDER_AT = DOC.indexOf('## Order websocket');
    const MD_AT = DOC.indexOf('## Market-data websocket');
    const orderRequests = () => tableAfter(/^### Requests$/, ORDER_AT).map((r) => ({ t: code(r[0]!), fields: fieldsOf(r[2]!) }));
    const mdRequests = () => tableAfter(/^### Requests$/, MD_AT).map((r) => ({ type: code(r[0]!), fields: fieldsOf(r[2]!) }));

    it('order socket: the documented fields are enough, and each is required', async () => {
      const token = (await c.bearer('alice')).Authorization!.slice('Bearer '.length);
      const valid: Record<string, unknown> = { u: 'alice', k: token, s: BTC, d: 'B', q: 1, p: '49000', tif: 'GTC', po: false, oid: 'O-NONE' };
      const requests = orderRequests();
      expect(requests.map((r) => r.t)).toEqual(['a', 'z', 'p', 'x', 'o']);
      for (const { t, fields } of requests) {
        // login is tried on fresh sockets; everything else on a logged-in one
        const socket = async () => (t === 'a' ? c.socket('/orders') : c.orderSocket('alice'));
        for (const missing of fields) {
          const body = Object.fromEntries(fields.filter((f) => f !== missing).map((f) => [f, valid[f]]));
          const reply = await (await socket()).request({ rid: c.rid(), t, ...body });
          expect({ t, missing, err: reply.err }).toEqual({ t, missing, err: { code: 400, msg: `${missing} is required` } });
        }
        const reply = await (await socket()).request({ rid: c.rid(), t, ...Object.fromEntries(fields.map((f) => [f, valid[f]])) });
        expect({ t, err: reply.err }).toEqual({ t, err: undefined });
      }
    });

    it('market-data socket: the documented fields are enough, and each is required', async () => {
      const token = (await c.bearer('alice')).Authorization!.slice('Bearer '.length);
      const valid: Record<string, unknown> = { username: 'alice', token, symbol: BTC, level: 'LEVEL_1' };
      const requests = mdRequests();
      expect(requests.map((r) => r.type)).toEqual(['login', 'logout', 'subscribe', 'unsubscribe']);
      for (const { type, fields } of requests) {
        const socket = async () => {
          if (type === 'login') return c.socket('/md/ws');
          const s = await c.mdSocket('alice');
          if (type === 'unsubscribe') await s.request({ request_id: c.rid(), type: 'subscribe', symbol: BTC, level: 'LEVEL_1' }, 'request_id');
          return s;
        };
        for (const missing of fields) {
          const body = Object.fromEntries(fields.filter((f) => f !== missing).map((f) => [f, valid[f]]));
          const reply = await (await socket()).request({ request_id: c.rid(), type, ...body }, 'request_id');
          expect({ type, missing, error: reply.error }).toEqual({ type, missing, error: { code: 400, message: `${missing} is required` } });
        }
        const reply = await (await socket()).request({ request_id: c.rid(), type, ...Object.fromEntries(fields.map((f) => [f, valid[f]])) }, 'request_id');
        expect({ type, error: reply.error }).toEqual({ type, error: undefined });
      }
    });
  });
});
