#!/usr/bin/env node
// The `perpsim` command. Installed from the package it runs the built JavaScript in dist/
// (plain node: fast start, no TypeScript compiler). In a checkout, where src/ is present, it
// runs the TypeScript sources through tsx (src/cli/bin.js), so an edit never needs a rebuild.
import { existsSync } from 'node:fs';

if (existsSync(new URL('../src/cli/main.ts', import.meta.url))) await import('../src/cli/bin.js');
else await import('../dist/cli/cli.js');
