#!/usr/bin/env node
// The `perpsim` command. Installed from the package it runs the built JavaScript in dist/
// (plain node: fast start, no TypeScript compiler). In a checkout, where src/ is present, it
// runs the TypeScript sources through tsx (src/cli/bin.js), so an edit never needs a rebuild.
// `--version` alone is answered here, before either (no TypeScript loader, no commander).
import { existsSync, readFileSync } from 'node:fs';

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else if (existsSync(new URL('../src/cli/main.ts', import.meta.url))) await import('../src/cli/bin.js');
else await import('../dist/cli/cli.js');
