#!/usr/bin/env node
// The entry point of the built command (dist/cli/cli.js): plain node, no TypeScript loader.
// A strategy file (.ts) registers tsx lazily when it is loaded (backtest/typescript-loader.ts).
import { main } from './main.ts';

process.exitCode = await main(process.argv.slice(2));
