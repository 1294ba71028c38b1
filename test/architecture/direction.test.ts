import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cycles, graphFigures, importEdges, importSpecifiers, LAYER_RANK, layerOf, ROOT, violation, type ImportEdge } from '../../scripts/import-graph.ts';

const edge = (from: string, to: string): ImportEdge => ({ from, to, fromLayer: layerOf(from)!, toLayer: layerOf(to)! });

describe('the direction of imports', () => {
  it('gives every folder of src/ a rank, so a new folder cannot slip past the rule', () => {
    const folders = readdirSync(join(ROOT, 'src'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    const unranked = folders.filter((f) => LAYER_RANK[f] === undefined);
    // Fix: add the folder to LAYER_RANK in scripts/import-graph.ts, at its place in the stack.
    expect(unranked).toEqual([]);
  });

  it('finds no import of a folder ranked above the importer', () => {
    const upward = importEdges().flatMap((e) => {
      const why = violation(e);
      return why === undefined ? [] : [`${e.from} → ${e.to}: ${why}`];
    });
    expect(upward).toEqual([]);
  });

  it('finds no cycle between folders', () => {
    expect(graphFigures().layerCycles).toEqual([]);
  });

  it('reads the imports it checks: the venue is seen importing the book, the wire and the core', () => {
    const venueImports = new Set(importEdges().filter((e) => e.fromLayer === 'venue').map((e) => e.toLayer));
    expect([...venueImports].sort()).toEqual(expect.arrayContaining(['book', 'core', 'venue', 'wire']));
  });

  it('flags an import from a lower folder into a higher one, and allows the other way', () => {
    expect(violation(edge('src/book/order-book.ts', 'src/venue/venue.ts'))).toMatch(/book \(rank 2\) imports venue \(rank 3\)/);
    expect(violation(edge('src/venue/venue.ts', 'src/book/order-book.ts'))).toBeUndefined();
    expect(violation(edge('src/cli/main.ts', 'src/api/server.ts'))).toBeUndefined();
    expect(violation(edge('src/sim/build.ts', 'src/api/server.ts'))).toMatch(/sim .* imports api/);
  });

  it('keeps strategies, agents, the wire client and the examples to the wire, the strategy seam and the core', () => {
    expect(violation(edge('src/agents/noise-trader.ts', 'src/venue/feeds.ts'))).toMatch(/agents may import only/);
    expect(violation(edge('examples/momentum.ts', 'src/sim/build.ts'))).toMatch(/examples may import only/);
    expect(violation(edge('src/api/client/rest-client.ts', 'src/api/rest/app.ts'))).toMatch(/api\/client may import only/);
    expect(violation(edge('src/strategy/strategy.ts', 'src/wire/order.ts'))).toBeUndefined();
    expect(violation(edge('examples/lib/market.ts', 'src/core/price.ts'))).toBeUndefined();
  });

  it('reads static, type-only, re-exported, multi-line and dynamic imports, and skips commented ones', () => {
    const text = [
      "import { a } from './a.ts';",
      "import type { B } from '../b.ts';",
      "export { c } from './c.ts';",
      "import {\n  d,\n  e,\n} from './d.ts';",
      "const f = await import('./f.ts');",
      "import './g.ts';",
      "// import { h } from './h.ts';",
      "/* import { i } from './i.ts'; */",
      "import { z } from 'zod';",
    ].join('\n');
    expect(importSpecifiers(text)).toEqual(['./a.ts', '../b.ts', './c.ts', './d.ts', './f.ts', './g.ts']);
  });

  it('finds a cycle of three and ignores a chain', () => {
    expect(cycles([['a', 'b'], ['b', 'c'], ['c', 'a'], ['c', 'd']])).toEqual([['a', 'b', 'c']]);
    expect(cycles([['a', 'b'], ['b', 'c']])).toEqual([]);
  });
});
