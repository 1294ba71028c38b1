#!/usr/bin/env node
// Entry point of the `perpsim` command: registers tsx so the TypeScript sources (and user
// strategy files) run directly, with no build step to remember.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./main.ts');
process.exitCode = await main(process.argv.slice(2));
