#!/usr/bin/env node
// The entry point of the built command (dist/cli/cli.js): plain node, no TypeScript loader.
// A strategy file (.ts) registers tsx lazily when it is loaded (backtest/typescript-loader.ts).
// `--version` alone is answered before commander and the command table are imported (half of
// that call's start-up); everything else goes through main.
import { endQuietlyWhenStdoutCloses } from './closed-stdout.ts';
import { asksVersionOnly, packageVersion } from './version.ts';

endQuietlyWhenStdoutCloses();
const argv = process.argv.slice(2);
if (asksVersionOnly(argv)) process.stdout.write(`${packageVersion()}\n`);
else {
  const { main } = await import('./main.ts');
  process.exitCode = await main(argv);
}
