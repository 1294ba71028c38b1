import fc from 'fast-check';

/**
 * Generated Binance raw captures (hftbacktest's `<receipt ns> <JSON>` lines) for properties of
 * the readers of that format: snapshots, depth diffs whose update ids chain or break or are
 * stale, empty diffs, trades, book tickers; receipt and event times that repeat and step back.
 */

const level = (p: number, q: number): string => `["${(p / 10).toFixed(1)}","${(q / 1000).toFixed(3)}"]`;

/** One generated line: a message kind with its fields, turned into capture text by `render`. */
export type Msg =
  | { kind: 'snapshot'; dRecv: number; dE: number; idJump: number; levels: number }
  | { kind: 'depth'; dRecv: number; dE: number; idJump: number; chain: 'follow' | 'break' | 'stale'; bids: number; asks: number }
  | { kind: 'trade'; dRecv: number; dE: number; price: number; maker: boolean }
  | { kind: 'ticker'; dRecv: number; dE: number };

const delta = fc.constantFrom(0, 0, 0, 0, 0, 0, 1, 3, 700, -2, -500);
export const msg: fc.Arbitrary<Msg> = fc.oneof(
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('snapshot' as const), dRecv: delta, dE: delta, idJump: fc.constantFrom(-5, 0, 1, 1, 2, 2, 3, 40), levels: fc.integer({ min: 0, max: 3 }) }) },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('depth' as const), dRecv: delta, dE: delta, idJump: fc.integer({ min: 1, max: 5 }), chain: fc.constantFrom('follow' as const, 'follow' as const, 'follow' as const, 'break' as const, 'stale' as const), bids: fc.integer({ min: 0, max: 2 }), asks: fc.integer({ min: 0, max: 2 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('trade' as const), dRecv: delta, dE: delta, price: fc.integer({ min: 600_000, max: 600_050 }), maker: fc.boolean() }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('ticker' as const), dRecv: delta, dE: delta }) },
);

/** Capture text: receipt ns and E (ms) wander (steps back too), update ids chain unless told to break. */
export function render(msgs: Msg[]): string[] {
  let recvMs = 1_723_161_255_000;
  let eMs = 1_723_161_255_500;
  let u = 5_000_000;
  return msgs.map((m, i) => {
    recvMs += m.dRecv;
    eMs += m.dE;
    // Lines of the same receipt and event time are one book row unless another record comes between.
    const recv = `${recvMs}000123`;
    const times = `"E":${eMs},"T":${eMs}`;
    if (m.kind === 'snapshot') {
      const last = u + m.idJump;
      const side = (base: number) => Array.from({ length: m.levels }, (_, k) => level(base + k, 5 + k)).join(',');
      return `${recv} {"lastUpdateId":${last},${times},"bids":[${side(600_000 - 10)}],"asks":[${side(600_010)}]}`;
    }
    if (m.kind === 'depth') {
      const pu = m.chain === 'break' ? u + 7 : m.chain === 'stale' ? u - 40 : u;
      const first = pu + 1;
      const final = m.chain === 'stale' ? u - 30 : first + m.idJump;
      if (m.chain !== 'stale') u = final;
      const side = (n: number, base: number) => Array.from({ length: n }, (_, k) => level(base + ((i + k) % 7), (i * 3 + k) % 4)).join(',');
      return `${recv} {"stream":"btcusdt@depth@0ms","data":{"e":"depthUpdate",${times},"s":"BTCUSDT","U":${first},"u":${final},"pu":${pu},"b":[${side(m.bids, 599_990)}],"a":[${side(m.asks, 600_011)}]}}`;
    }
    if (m.kind === 'trade') {
      return `${recv} {"stream":"btcusdt@trade","data":{"e":"trade",${times},"s":"BTCUSDT","t":${i},"p":"${(m.price / 10).toFixed(1)}","q":"0.002","X":"MARKET","m":${m.maker}}}`;
    }
    return `${recv} {"stream":"btcusdt@bookTicker","data":{"e":"bookTicker","u":${u},"s":"BTCUSDT","b":"60000.0","B":"1.000","a":"60001.0","A":"1.000","T":${eMs},"E":${eMs}}}`;
  });
}


/**
 * A line's JSON in another shape than the exchange's (whitespace, an escape, a fraction, a read
 * key twice, other key orders) or with other text for the same values (a two-byte character in a
 * string, a trailing zero, exponent form): readers that take the plain shape in place must read
 * these as the full decoder does. The first three leave the line as it is.
 */
export const variants: ((json: string) => string)[] = [
  (j) => j,
  (j) => j,
  (j) => j,
  (j) => j.replace(/":/g, '": ').replace(/,"/g, ', "'), // whitespace
  (j) => j.replace('"BTCUSDT"', '"\\u0042TCUSDT"'), // an escape
  (j) => j.replace('"BTCUSDT"', '"BTCÜSDT"'), // a character of two bytes
  (j) => j.replace(/"E":(\d+)/, (_, v) => `"E":${v}.0`), // a fraction
  (j) => j.replace(/"(b|a|p)":/, '"$1":"1","$1":'), // a read key given twice (JSON keeps the last)
  (j) => j.replace(/^\{"stream":("[^"]*"),"data":(.*)\}$/, '{"data":$2,"stream":$1}'), // other key order
  (j) => j.replace(/"b":(\[[^\]]*?\]\]|\[\]),"a":(\[[^\]]*?\]\]|\[\])/, '"a":$2,"b":$1'), // asks before bids
  (j) => j.replace(/"(\d+)\.(\d)"/, '"$1.$20"'), // a trailing zero
  (j) => j.replace(/"(\d+)\.(\d)"/, '"$1.$2e0"'), // exponent form (decimalSteps reads it)
  (j) => j.replace('{"e":"bookTicker",', '{"e":"bookTicker","E":0,'), // a ticker's E twice (JSON keeps the last)
  (j) => j.replace(/,"T":(\d+),"E":(\d+)\}\}$/, ',"E":$2,"T":$1}}'), // a ticker's times the other way round
  (j) => j.replace(/^(.*"e":"bookTicker","u":\d+,)(.*),"E":(\d+)\}\}$/, '$1"E":$3,$2,"Z":7}}'), // a ticker's E early, another field last
];

/** Capture lines with each line's JSON in the shape `picks[i]` names (an index into `variants`). */
export function inShapes(lines: readonly string[], picks: readonly number[]): string[] {
  return lines.map((l, i) => {
    const sp = l.indexOf(' ');
    return `${l.slice(0, sp)} ${variants[picks[i % picks.length]!]!(l.slice(sp + 1))}`;
  });
}
