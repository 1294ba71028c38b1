/**
 * The import graph of src/ (and examples/) between layers, and what breaks the direction rule.
 *
 *   npx tsx scripts/import-graph.ts          # summary: upward imports, folder cycles, file cycles
 *   npx tsx scripts/import-graph.ts --list   # plus every upward import, file by file
 *
 * The layer table is the one test/architecture/direction.test.ts enforces: a file may import its
 * own layer or a layer ranked lower, never one ranked higher.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Layers from the bottom (core) to the top (cli), per ../shared/design/architecture.md.
 * `api/client` is its own layer: the wire ExchangePort, usable by anything that talks to a
 * server (recorder, `perpsim live`), so it sits low and sees only the wire's vocabulary.
 * `examples` are user strategies: they stand outside the stack and may use only the layers
 * listed in ONLY_SEES.
 */
export const LAYER_RANK: Readonly<Record<string, number>> = {
  core: 0,
  wire: 1,
  codec: 1, // the folder wire/ replaces, ranked where it claimed to be (the before figures)
  book: 2,
  clock: 2,
  random: 2,
  market: 2,
  risk: 2,
  strategy: 3,
  venue: 3,
  'api/client': 4,
  agents: 4,
  scenario: 4,
  facts: 4, // market facts: statistics over normalized records, below the sim that feeds them
  sim: 5,
  'sim-io': 6,
  replay: 7,
  'web-assets': 7, // browser assets read from packages (lightweight-charts), for report.html and the web view
  run: 8,
  backtest: 9,
  live: 10,
  api: 10,
  sweep: 10, // parameter sweeps: many backtests and their executors (local pool, shards, BullMQ)
  cli: 11,
  examples: 11,
};

/** Layers held to an allow-list as well as to the ranking (issue 12: the strategy-facing side). */
export const ONLY_SEES: Readonly<Record<string, readonly string[]>> = {
  strategy: ['core', 'wire', 'strategy'],
  agents: ['core', 'wire', 'strategy', 'agents'],
  'api/client': ['core', 'wire', 'strategy', 'api/client'],
  examples: ['core', 'wire', 'strategy', 'examples'],
};

export interface ImportEdge {
  /** Importing file, relative to the repository root. */
  from: string;
  /** Imported file, relative to the repository root. */
  to: string;
  fromLayer: string;
  toLayer: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : /\.(ts|js)$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** The layer of a repository-relative path, or undefined outside src/ and examples/. */
export function layerOf(path: string): string | undefined {
  const parts = path.split('/');
  if (parts[0] === 'examples') return 'examples';
  if (parts[0] !== 'src' || parts.length < 3) return undefined;
  if (parts[1] === 'api' && parts[2] === 'client') return 'api/client';
  return parts[1];
}

/** Relative specifiers of static imports, re-exports and dynamic imports (comments ignored). */
export function importSpecifiers(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, '');
  const found: string[] = [];
  for (const m of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.[^'"]+)['"]/gm)) found.push(m[1]!);
  return found;
}

/** Every import between files of src/ and examples/ that both have a layer. */
export function importEdges(root: string = ROOT): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of [...sourceFiles(join(root, 'src')), ...sourceFiles(join(root, 'examples'))]) {
    const from = relative(root, file);
    const fromLayer = layerOf(from);
    if (fromLayer === undefined) continue;
    for (const spec of importSpecifiers(readFileSync(file, 'utf8'))) {
      const to = relative(root, resolve(dirname(file), spec));
      const toLayer = layerOf(to);
      if (toLayer !== undefined) edges.push({ from, to, fromLayer, toLayer });
    }
  }
  return edges.sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : a.to < b.to ? -1 : a.to > b.to ? 1 : 0));
}

/** Why an edge breaks the direction rules, or undefined when it is allowed. */
export function violation(edge: ImportEdge): string | undefined {
  if (edge.fromLayer === edge.toLayer) return undefined;
  const allowed = ONLY_SEES[edge.fromLayer];
  if (allowed !== undefined && !allowed.includes(edge.toLayer)) return `${edge.fromLayer} may import only ${allowed.join(', ')}`;
  const fromRank = LAYER_RANK[edge.fromLayer];
  const toRank = LAYER_RANK[edge.toLayer];
  if (fromRank === undefined) return `layer ${edge.fromLayer} has no rank`;
  if (toRank === undefined) return `layer ${edge.toLayer} has no rank`;
  if (toRank > fromRank) return `${edge.fromLayer} (rank ${fromRank}) imports ${edge.toLayer} (rank ${toRank})`;
  return undefined;
}

/** Strongly connected components with more than one node (Tarjan), each sorted, in sorted order. */
export function cycles(edges: ReadonlyArray<readonly [string, string]>): string[][] {
  const next = new Map<string, string[]>();
  for (const [a, b] of edges) {
    if (a === b) continue;
    if (!next.has(a)) next.set(a, []);
    if (!next.has(b)) next.set(b, []);
    next.get(a)!.push(b);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let counter = 0;
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1) out.push(comp.sort());
    }
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) visit(v);
  return out.sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
}

export interface GraphFigures {
  files: number;
  imports: number;
  upward: ImportEdge[];
  layerCycles: string[][];
  fileCycles: string[][];
}

export function graphFigures(root: string = ROOT): GraphFigures {
  const edges = importEdges(root);
  const files = new Set(edges.flatMap((e) => [e.from, e.to]));
  return {
    files: files.size,
    imports: edges.length,
    upward: edges.filter((e) => violation(e) !== undefined),
    layerCycles: cycles(edges.map((e) => [e.fromLayer, e.toLayer] as const)),
    fileCycles: cycles(edges.map((e) => [e.from, e.to] as const)),
  };
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const f = graphFigures();
  console.log(`files ${f.files}, imports ${f.imports}`);
  console.log(`upward imports (breaking the layer order): ${f.upward.length}`);
  console.log(`layer cycles: ${f.layerCycles.length}${f.layerCycles.map((c) => `\n  ${c.join(' ⇄ ')}`).join('')}`);
  console.log(`file cycles: ${f.fileCycles.length}${f.fileCycles.map((c) => `\n  ${c.join(' ⇄ ')}`).join('')}`);
  if (process.argv.includes('--list')) for (const e of f.upward) console.log(`  ${e.from} → ${e.to}: ${violation(e)}`);
}
