import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILT_IN_DIR, builtInScenarios } from '../scenario/load.ts';

/** One built-in scenario as `perpsim scenarios` lists it. */
export interface ScenarioListing {
  name: string;
  description: string;
  /** The scenario's own duration (what a run simulates without --duration). */
  duration: string;
}

/** The built-in scenarios, by name. */
export function listScenarios(): ScenarioListing[] {
  return builtInScenarios().map((name) => {
    const raw = JSON.parse(readFileSync(join(BUILT_IN_DIR, `${name}.json`), 'utf8')) as { description?: string; duration?: string };
    return { name, description: raw.description ?? '', duration: raw.duration ?? '24h' }; // 24h: the schema's default
  });
}

/** `perpsim scenarios`: each built-in scenario, its default duration and what it shows. */
export function scenariosCommand(width = 100): number {
  const lines: string[] = [];
  for (const s of listScenarios()) {
    lines.push(`${s.name}  (default duration ${s.duration})`);
    lines.push(...wrap(s.description, width - 4).map((l) => `    ${l}`));
  }
  lines.push('', 'Use one with --scenario NAME (run, backtest, serve), or give a scenario JSON file by path.');
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w.length > 0)) {
    if (line.length > 0 && line.length + 1 + word.length > width) {
      out.push(line);
      line = word;
    } else line = line.length === 0 ? word : `${line} ${word}`;
  }
  if (line.length > 0) out.push(line);
  return out;
}
