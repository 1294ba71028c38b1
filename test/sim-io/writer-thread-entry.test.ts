import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { workerEntry } from '../../src/sim-io/threaded-writer.ts';

describe('the event log writer thread in a checkout', () => {
  it('starts from the cached JavaScript bundle of its TypeScript entry, not from the tsx wrapper', () => {
    const entry = fileURLToPath(workerEntry());
    expect(dirname(entry)).toBe(tmpdir());
    expect(basename(entry)).toMatch(/^perpsim-event-log-writer-[0-9a-f]{16}\.mjs$/);
    // The header names every bundled source with its digest, the thread's entry among them.
    const header = readFileSync(entry, 'utf8').split('\n', 1)[0]!;
    expect(header.startsWith('// perpsim event log writer sources: ')).toBe(true);
    const sources = Object.keys((JSON.parse(header.slice(header.indexOf('{'))) as { sources: Record<string, string> }).sources);
    expect(sources).toContain(fileURLToPath(new URL('../../src/sim-io/event-log-thread.ts', import.meta.url)));
    expect(sources.some((s) => s.includes('apache-arrow'))).toBe(true);
  });
});
