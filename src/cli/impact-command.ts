import { impactExponent, measureImpact, type ImpactPoint } from '../sim/impact.ts';
import { resolveScenario } from './scenario-arg.ts';
import { UsageError } from './usage-error.ts';

/** What `perpsim impact` was asked to do (flags parsed by `commands/impact.ts`). */
export interface ImpactRequest {
  scenario?: string;
  seed?: number;
  symbol?: string;
  sizes?: number[];
  childLots?: number;
  everySec?: number;
  warmup?: bigint;
  repeats?: number;
  json: boolean;
}

/**
 * `perpsim impact [--scenario S] [--seed N] [--symbol SYM] [--sizes 4,16,64,256] [--child-lots N]
 * [--every SEC] [--warmup D] [--repeats N] [--json]`: buys metaorders of growing size (child
 * IOC buys of `--child-lots` every `--every` seconds) on the seeded scenario and prints the
 * impact curve against the same run without them, with the fitted exponents (1 linear, 0.5
 * square-root).
 */
export function impactCommand(request: ImpactRequest): number {
  const scenario = resolveScenario(request.scenario ?? 'default');
  const sizes = request.sizes ?? [4, 16, 64, 256];
  const childLots = request.childLots ?? Math.max(1, Math.round(sizes[0]! / 2));
  const every = request.everySec ?? 1;
  const repeats = request.repeats ?? 4;
  if (childLots <= 0 || every <= 0 || repeats <= 0) throw new UsageError('--child-lots, --every and --repeats must be positive');
  const symbol = request.symbol;
  if (symbol !== undefined && !scenario.instruments.some((i) => i.symbol === symbol)) throw new UsageError(`--symbol ${symbol} is not an instrument of ${scenario.name}`);
  const warmupSec = Number((request.warmup ?? 600_000_000_000n) / 1_000_000_000n);
  const seed = request.seed ?? scenario.seed;
  const longest = Math.ceil(sizes[sizes.length - 1]! / childLots) * every;
  const points = measureImpact(scenario, { symbol, sizesLots: sizes, childLots, childEverySec: every, warmupSec, repeats, spacingSec: longest + 300, seed });
  const peak = impactExponent(points);
  const cost = impactExponent(points.map((p) => ({ ...p, impactBps: p.shortfallBps })));
  const name = symbol ?? scenario.instruments[0]!.symbol;
  if (request.json) {
    process.stdout.write(JSON.stringify({ scenario: scenario.name, seed, symbol: name, child_lots: childLots, every_sec: every, repeats, points, peak_exponent: peak, cost_exponent: cost }) + '\n');
    return 0;
  }
  process.stdout.write(`perpsim impact: ${scenario.name} seed ${seed}, ${name}, children of ${childLots} lots every ${every} s, ${repeats} repeats\n`);
  process.stdout.write(table(points));
  process.stdout.write(`exponent (log-log slope): peak impact ${peak.toFixed(2)}, cost ${cost.toFixed(2)}  (1 linear, 0.5 square-root)\n`);
  return 0;
}

/** `--sizes 4,16,64`: ascending positive whole numbers of lots. */
export function parseSizes(text: string): number[] {
  const sizes = text.split(',').map((s) => (/^\d+$/.test(s.trim()) ? Number(s) : Number.NaN));
  if (sizes.some((s) => !Number.isSafeInteger(s) || s <= 0) || sizes.some((s, i) => i > 0 && s <= sizes[i - 1]!)) {
    throw new UsageError(`--sizes must be ascending positive whole numbers of lots such as 4,16,64, got "${text}"`);
  }
  return sizes;
}

function table(points: readonly ImpactPoint[]): string {
  const rows = [['lots', 'seconds', 'peak impact bps', 'cost bps', 'filled lots'], ...points.map((p) => [String(p.qtyLots), String(p.durationSec), p.impactBps.toFixed(3), p.shortfallBps.toFixed(3), p.filledLots.toFixed(1)])];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((c, i) => c.padStart(widths[i]!)).join('  ')).join('\n') + '\n';
}
