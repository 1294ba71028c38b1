import type { Scenario, ScenarioInstrument } from '../../scenario/schema.ts';
import { mappedInstrument, replayFiles, type ReplaySpec } from '../../scenario/replay-schema.ts';
import type { LatencyModel } from '../../sim/latency.ts';
import { buildSimulationParts, type BuildOptions, type BuiltSimulation } from '../../sim/build.ts';
import type { Market } from '../../venue/market.ts';
import { TickSize } from '../../core/price.ts';
import { formatTimestampNs } from '../../core/time.ts';
import { RecordedFeedDelay } from './feed-delay.ts';
import type { L2Event } from './l2-event.ts';
import { L2Replayer, recordedPriceTicks } from './l2-replayer.ts';
import { streamL2Batches, type L2FileSpec } from './l2-sources.ts';
import { sniffFile } from '../sniff.ts';
import { indexTickersFound, scanMinFeedDelayNs, streamFeed } from './l2-stream.ts';
import { queueModelOf } from './queue-model.ts';
import { arrayFeed, type L2Feed } from './l2-feed.ts';
import { RecordedTouch } from '../l1/recorded-touch.ts';

/** A built simulation whose market comes from recordings, with the replayer. */
export interface BuiltReplaySimulation extends BuiltSimulation {
  replayer: L2Replayer;
  /**
   * The recorded feed delay when the spec says `marketData: "recorded"` (the default): give it
   * to ports added later (a backtest's strategy) so they see the market as the agents do.
   */
  recordedMarketDataLatency: LatencyModel | undefined;
}

/**
 * Builds a simulation whose replayed instruments get their liquidity, trades and (when
 * recorded) mark, index and funding from the scenario's `market.replay` files; everything else
 * (users, agents, other instruments, latency of the order path) is as `buildSimulationParts`
 * builds it, so the result is used exactly like a synthetic run. Reads the files first
 * (async); the run itself is synchronous and deterministic.
 *
 * @throws Error when the scenario has no `market.replay`, or a ReplayError naming file, line
 *   and column for a bad row.
 */
export async function buildReplaySimulation(scenario: Scenario, options: ReplayBuildOptions = {}): Promise<BuiltReplaySimulation> {
  const { events, ...buildOptions } = options;
  if (events !== undefined) return buildReplaySimulationFrom(scenario, events, buildOptions);
  const spec = replaySpecOf(scenario);
  const files = replayPlan(spec, scenario).files;
  const read = { skipBadRows: spec.skipBadRows };
  // Streamed: only files that may carry index prices are read first, keeping just those tickers.
  const tickers = await indexTickers(files, read);
  const feedDelay = new RecordedFeedDelay(() => scanMinFeedDelayNs(files, read));
  return buildFromFeed(scenario, { feed: streamFeed(files, read), feedDelay, tickers }, buildOptions);
}

/**
 * The tickers with an index price of the files that may have them (tardis derivative tickers,
 * normalized Arrow files and event logs, freqtrade series), for the recorded index process; the
 * formats of books, trades and quotes are not read for it.
 */
async function indexTickers(files: readonly L2FileSpec[], read: { skipBadRows: boolean }): Promise<L2Event[]> {
  const candidates: L2FileSpec[] = [];
  for (const f of files) {
    const { format, firstLine } = await sniffFile(f.path);
    if (format === 'arrow' || format.startsWith('freqtrade') || (format === 'tardis' && firstLine.includes('index_price'))) candidates.push(f);
  }
  const out: L2Event[] = [];
  if (candidates.length === 0) return out;
  // A single file the span pass read through: its index tickers are known (the same rows, `l2-span-columns.ts`).
  const found = candidates.length === files.length ? indexTickersFound(files, read) : undefined;
  if (found !== undefined) return found;
  for await (const b of streamL2Batches(candidates, { ...read, tickersOnly: true })) for (const e of b.tickers.values()) if (e.indexPrice !== undefined) out.push(e);
  return out;
}

/** `buildReplaySimulation` with the events already loaded (`loadL2Events(replayPlan(...).files)`): synchronous. */
export function buildReplaySimulationFrom(scenario: Scenario, events: readonly L2Event[], options: Omit<BuildOptions, 'marketDataLatency'> = {}): BuiltReplaySimulation {
  return buildFromFeed(scenario, { feed: arrayFeed(events), feedDelay: RecordedFeedDelay.of(events), tickers: events }, options);
}

/** A recording to replay: its feed, its feed delay, and the tickers that carry index prices. */
export interface ReplayRecording {
  feed: L2Feed;
  feedDelay: RecordedFeedDelay;
  /** Events whose tickers give the recorded index (others are ignored). */
  tickers: Iterable<L2Event>;
}

function buildFromFeed(scenario: Scenario, recording: ReplayRecording, options: Omit<BuildOptions, 'marketDataLatency'>): BuiltReplaySimulation {
  const spec = replaySpecOf(scenario);
  const { symbols, recordedTicks } = replayPlan(spec, scenario);
  const { market: _replay, ...synthetic } = scenario;
  const withIndex = withRecordedIndexes(synthetic, symbols, recordedTicks, recording.tickers);
  const feedDelay = recording.feedDelay;
  const md = spec.latency.marketData;
  // Recorded delays go to every agent; a model becomes the default of agents without their own.
  const parts =
    md === 'recorded'
      ? buildSimulationParts(withIndex, { ...options, marketDataLatency: feedDelay })
      : buildSimulationParts({ ...withIndex, latency: { ...withIndex.latency, marketData: md } }, options);
  const { sim } = parts;
  const markets: Market[] = symbols.map((s) => sim.venue.market(s)!);
  const replayer = new L2Replayer(sim.venue, markets, recordedTicks, recording.feed, queueModelOf(spec.queueModel), feedDelay, spec.mode === 'l1' ? new RecordedTouch() : undefined);
  sim.onStart(() => replayer.start());
  return { ...parts, replayer, recordedMarketDataLatency: md === 'recorded' ? feedDelay : undefined };
}

function replaySpecOf(scenario: Scenario): ReplaySpec {
  const spec = scenario.market?.replay;
  if (spec === undefined) throw new Error(`scenario ${scenario.name} has no market.replay`);
  return spec;
}

/** Options of `buildReplaySimulation`. */
export interface ReplayBuildOptions extends Omit<BuildOptions, 'marketDataLatency'> {
  /** Events already loaded with `loadL2Events(replayPlan(...).files)` (several runs of one recording); else the files are streamed. */
  events?: readonly L2Event[];
}

/** The replayed instrument symbols (in first-use order) and each file's reading plan. */
export function replayPlan(spec: ReplaySpec, scenario: Scenario): { symbols: string[]; files: L2FileSpec[]; recordedTicks: TickSize[] } {
  const symbols: string[] = [];
  const recordedTicks: TickSize[] = [];
  const files = replayFiles(spec).files.map((f) => {
    const { symbol, lotSize, tickSize } = mappedInstrument(spec.symbolMap[f.recordedSymbol]!);
    const inst = scenario.instruments.find((i) => i.symbol === symbol)!;
    if (!symbols.includes(symbol)) {
      symbols.push(symbol);
      recordedTicks.push(new TickSize(tickSize ?? inst.tickSize));
    }
    return { path: f.path, market: symbols.indexOf(symbol), tickSize: tickSize ?? inst.tickSize, lotSize, symbol: f.recordedSymbol, ...(spec.mode === 'l1' ? { l1: true } : {}) };
  });
  return { symbols, files, recordedTicks };
}

/**
 * Instruments whose recording carries index prices (derivative ticker) get a recorded index
 * process with those points, so the scenario's index machinery publishes them; the others keep
 * the scenario's index process.
 */
function withRecordedIndexes(scenario: Omit<Scenario, 'market'>, symbols: readonly string[], recordedTicks: readonly TickSize[], events: Iterable<L2Event>): Omit<Scenario, 'market'> {
  const points = symbols.map(() => [] as { time: string; price: number; text: string }[]);
  const instTicks = symbols.map((s) => new TickSize(scenario.instruments.find((i) => i.symbol === s)!.tickSize));
  for (const e of events) {
    if (e.kind !== 'ticker' || e.indexPrice === undefined) continue;
    // Recorded price steps are instrument ticks: re-express the price in instrument units.
    const text = instTicks[e.market]!.toPrice(recordedPriceTicks(recordedTicks[e.market]!, e.indexPrice));
    // The time as RFC 3339 text with all nine digits: the index process reads it back as the same ns.
    points[e.market]!.push({ time: formatTimestampNs(e.tsNs), price: Number(text), text });
  }
  const instruments = scenario.instruments.map((inst): ScenarioInstrument => {
    const p = points[symbols.indexOf(inst.symbol)];
    if (p === undefined || p.length === 0) return inst;
    return { ...inst, indexPrice: p[0]!.text, index: { kind: 'recorded', file: '(replay derivative_ticker)', points: p.map(({ time, price }) => ({ time, price })) } };
  });
  return { ...scenario, instruments };
}
