#!/usr/bin/env node
// Entry point of the `perpsim` command in a checkout (bin/perpsim.js comes here when src/ is
// present): registers tsx so the TypeScript sources (and user strategy files) run directly,
// with no build step to remember. The installed package runs dist/cli/cli.js instead.
// Both loaders: a strategy file outside an ESM package (no "type": "module" nearby) is
// compiled as CommonJS, which only the CJS hook can load.
import { register } from 'tsx/esm/api';
import { register as registerCjs } from 'tsx/cjs/api';

register();
registerCjs();
globalThis[Symbol.for('perpsim.tsx-registered')] = true; // backtest/typescript-loader.ts: already done
const { endQuietlyWhenStdoutCloses } = await import('./closed-stdout.ts');
endQuietlyWhenStdoutCloses(); // `perpsim … | head`: status 141, no stack trace (closed-stdout.ts)
const { main } = await import('./main.ts');
process.exitCode = await main(process.argv.slice(2));
