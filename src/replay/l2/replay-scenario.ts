import { basename } from 'node:path';
import { TickSize } from '../../core/price.ts';
import { formatTimestampNs } from '../../core/time.ts';
import { parseScenario } from '../../scenario/load.ts';
import type { ReplaySpec } from '../../scenario/replay-schema.ts';
import type { Scenario } from '../../scenario/schema.ts';
import type { L2Event } from './l2-event.ts';
import { loadL2Events } from './l2-sources.ts';
import { replayPlan } from './build-replay.ts';
import { recordedPriceTicks } from './l2-replayer.ts';
import { ANY_SYMBOL } from '../market-arrow.ts';
import type { SymbolUnits } from '../market-records.ts';
import { openRecordSources, type RecordSource } from '../open-records.ts';
import { scanSpan } from './l2-stream.ts';
import { addToSpan, emptySpan } from './l2-span.ts';

/** What `--replay FILES…` on the command line asks for. */
export interface ReplayArgs {
  files: string[];
  /** `l1`: L1 + trades (top of book and trades only); default `l2` (or the base scenario's). */
  mode?: 'l2' | 'l1';
  /** Queue model name (`risk-averse` or `prob`). */
  queueModel?: 'risk-averse' | 'prob';
  /** Price tick and recording quantity per lot, when the symbol is not a known one. */
  tickSize?: string;
  lotSize?: string;
}

/** Tick and lot of the instruments in the shared recordings (Binance futures exchange info). */
const KNOWN_UNITS: Record<string, { tickSize: string; lotSize: string }> = {
  BTCUSDT: { tickSize: '0.1', lotSize: '0.001' },
  ETHUSDT: { tickSize: '0.01', lotSize: '0.001' },
  BTCUSD_PERP: { tickSize: '0.1', lotSize: '1' },
  XRPUSDT: { tickSize: '0.0001', lotSize: '0.1' },
};

/** A user for serving a recording (the server shows demo users in its banner). */
const DEMO_USER = { username: 'trader', password: 'trader', cash: '1000000' };

/**
 * A scenario for recordings named on the command line. With `base` (a scenario that has
 * `market.replay`), its files are replaced. Otherwise one instrument per recorded symbol
 * (named `<SYMBOL>-PERP`), the format told by the file name (`.csv[.gz]`: tardis, else a
 * Binance raw capture), start and duration covering the recording, index at the first
 * recorded price, one demo user. With `load`, returns the loaded events too (a sweep replays
 * them many times); else the run streams the files and only a span pass is made here.
 */
export async function replayScenario(args: ReplayArgs, base?: Scenario, options: { load?: boolean } = {}): Promise<{ scenario: Scenario; events: L2Event[] | undefined }> {
  if (base !== undefined) {
    if (base.market === undefined) throw new RangeError(`--replay with --scenario: scenario ${base.name} has no market.replay to take the files`);
    const scenario = { ...base, market: { replay: { ...base.market.replay, files: args.files, ...(args.queueModel ? { queueModel: args.queueModel } : {}), ...(args.mode ? { mode: args.mode } : {}) } } };
    const checked = parseScenario(scenario, `scenario ${base.name}`);
    const files = replayPlan(checked.market!.replay, checked).files;
    if (options.load === true) return { scenario: checked, events: await loadL2Events(files) };
    scanSpan(files); // reads every row once: a bad file fails here, before the run
    return { scenario: checked, events: undefined };
  }
  // Each file by its content: its symbols, and their units (its own, the flags, or known ones).
  const fixed = args.tickSize !== undefined && args.lotSize !== undefined ? { tickSize: args.tickSize, lotSize: args.lotSize } : undefined;
  const unitsOf = (symbol: string) => {
    const known = KNOWN_UNITS[symbol];
    const tickSize = args.tickSize ?? known?.tickSize;
    const lotSize = args.lotSize ?? known?.lotSize;
    return tickSize === undefined || lotSize === undefined ? undefined : { tickSize, lotSize };
  };
  const sources = await openRecordSources(args.files, { ...(fixed ? { units: fixed } : {}), unitsOf });
  const symbols = new Map<string, { symbol: string; lotSize: string; tickSize: string }>();
  const files: { path: string; symbol: string }[] = [];
  for (const source of sources) {
    const named: (readonly [string, SymbolUnits])[] = [];
    for (const [recorded, units] of Object.entries(source.instruments)) {
      if (recorded !== ANY_SYMBOL) named.push([recorded, units]);
      else if (source.symbol !== undefined) named.push([source.symbol, units]);
      else for (const symbol of await symbolsIn(source)) named.push([symbol, units]);
    }
    for (const [recorded, units] of named) {
      const known = symbols.get(recorded);
      if (known !== undefined && (known.tickSize !== units.tickSize || known.lotSize !== units.lotSize)) {
        throw new RangeError(`${source.name}: ${recorded} has tick ${units.tickSize} / lot ${units.lotSize} here but ${known.tickSize} / ${known.lotSize} in another file`);
      }
      symbols.set(recorded, { symbol: instrumentSymbolOf(recorded), lotSize: units.lotSize, tickSize: units.tickSize });
      for (const path of source.paths) files.push({ path, symbol: recorded });
    }
  }
  const replay: ReplaySpec = {
    files,
    symbolMap: Object.fromEntries([...symbols].map(([k, v]) => [k, { symbol: v.symbol, lotSize: v.lotSize, tickSize: v.tickSize }])),
    mode: args.mode ?? 'l2',
    queueModel: args.queueModel ?? 'risk-averse',
    latency: { marketData: 'recorded' },
    skipBadRows: false,
  };
  const draft = {
    name: `replay-${basename(args.files[0]!).replace(/\..*$/, '')}`,
    // Quoted per venue lot, so margin, fees and PnL are exact for fractional recorded lots.
    instruments: [...symbols.values()].map((s) => ({ symbol: s.symbol, tickSize: multiplyDecimals(s.tickSize, s.lotSize), indexPrice: '1' })),
    users: [DEMO_USER],
    market: { replay },
  };
  const skeleton = parseScenario(draft, 'replay');
  const plan = replayPlan(replay, skeleton).files;
  // Loaded, or streamed by the run: then one pass now for the start, the end and the first prices.
  const events = options.load === true ? await loadL2Events(plan) : undefined;
  const span = events === undefined ? scanSpan(plan) : addToSpan(emptySpan(), events);
  if (span.events === 0) throw new RangeError(`${args.files.join(', ')}: no events to replay`);
  const second = 1_000_000_000n;
  const startNs = (span.firstNs / second) * second;
  const durationSec = (span.lastNs - startNs) / second + 1n;
  const recordedTicks = [...symbols.values()].map((v) => new TickSize(v.tickSize));
  const instruments = skeleton.instruments.map((inst, i) => {
    const tick = new TickSize(inst.tickSize);
    const ticks = span.firstPriceTicks[i];
    const mark = span.firstMark[i];
    // A recording of mark and funding only: its first mark, in instrument ticks.
    const price = ticks !== undefined ? tick.toPrice(ticks) : mark !== undefined ? tick.toPrice(recordedPriceTicks(recordedTicks[i]!, mark)) : undefined;
    return { ...inst, indexPrice: price ?? inst.indexPrice };
  });
  const scenario = parseScenario({ ...draft, instruments, start: formatTimestampNs(startNs), duration: `${durationSec}s` }, 'replay');
  return { scenario, events };
}

/** Exact product of two decimal texts ("0.1" × "0.001" = "0.0001"). */
export function multiplyDecimals(a: string, b: string): string {
  const split = (t: string) => ({ digits: BigInt(t.replace('.', '') || '0'), scale: t.includes('.') ? t.length - t.indexOf('.') - 1 : 0 });
  const x = split(a);
  const y = split(b);
  const scale = x.scale + y.scale;
  const text = (x.digits * y.digits).toString().padStart(scale + 1, '0');
  const out = scale === 0 ? text : `${text.slice(0, text.length - scale)}.${text.slice(text.length - scale)}`;
  return out.includes('.') ? out.replace(/0+$/, '').replace(/\.$/, '') : out;
}

/**
 * `BTCUSDT` → `BTCUSDT-PERP`, `BTCUSD_PERP` → `BTCUSD-PERP`, `BTC-PERPETUAL` → `BTCUSD-PERP`
 * (the instrument symbol pattern needs a quote currency: USD when the name has none, as for
 * LOBSTER's stocks, `AMZN` → `AMZNUSD-PERP`).
 */
function instrumentSymbolOf(recorded: string): string {
  let core = recorded.toUpperCase().replace(/[^A-Z0-9]/g, '').replace(/PERP(ETUAL)?$/, '');
  if (!/(USD|USDT|USDC|EUR|BTC)$/.test(core) || core.length < 4) core = `${core.slice(0, 12)}USD`;
  return `${core.slice(0, 15)}-PERP`;
}

/**
 * The symbols in a source's rows, for a file whose units cover any symbol (`"*"`: a normalized
 * Arrow file converted with `--tick-size` / `--lot-size`), which names them nowhere else.
 */
async function symbolsIn(source: RecordSource): Promise<string[]> {
  const seen = new Set<string>();
  if (source.batches !== undefined) {
    for await (const b of source.batches()) for (let i = 0; i < b.length; i++) seen.add(b.symbols[b.symbol[i]!]!);
  } else {
    for await (const chunk of source.records.chunks()) for (const r of chunk) seen.add(r.symbol);
  }
  return [...seen].sort();
}
