import { runDemo } from '../sim/demo.ts';
import { runVerifyCommand } from '../replay/verify-command.ts';
import { integerFlag, parseFlags, UsageError } from './flags.ts';
import { reportCommand } from './report-command.ts';
import { runCommand } from './run-command.ts';

const HELP = `perpsim — a deterministic perpetual-futures exchange simulator

Usage: perpsim <command> [options]

Commands:
  demo [--seed N] [--hours H]   run a short seeded market on the embedded default
                                instruments and print what happened (npm start)
  verify lobster <MESSAGE.csv ORDERBOOK.csv | SAMPLE.zip>
                                replay LOBSTER messages order by order and compare the
                                book with the orderbook file after every row; ends with
                                "rows: N matched: M" (exit 0 all matched, 1 mismatch)
  run [--scenario NAME|FILE] [--seed N] [--duration D] [--out DIR]
                                run a scenario headless as fast as possible (default
                                scenario: default; D like 30m, 1h, 1d); writes
                                DIR/events.arrow and DIR/summary.json (default DIR:
                                out/run-<scenario>-<seed>), prints state_hash
  report [DIR|FILE.arrow]       stylized facts of an event log next to typical values
                                of liquid perps (default: the latest out/run-*)
  help                          show this text

Options:
  -h, --help                    show this text
`;

/** Runs the CLI; returns the process exit code. */
export async function main(argv: string[]): Promise<number> {
  try {
    const [command = 'help', ...rest] = argv;
    if (command === 'help' || command === '--help' || command === '-h' || rest.includes('--help') || rest.includes('-h')) {
      process.stdout.write(HELP);
      return 0;
    }
    if (command === 'demo') return demo(parseFlags(rest, ['seed', 'hours']));
    if (command === 'verify') return runVerifyCommand(rest, { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) });
    if (command === 'run') return runCommand(rest);
    if (command === 'report') return await reportCommand(rest);
    throw new UsageError(`unknown command "${command}" (try: perpsim --help)`);
  } catch (e) {
    if (e instanceof UsageError || e instanceof RangeError) {
      process.stderr.write(`perpsim: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
}

function demo(flags: Map<string, string>): number {
  const seed = integerFlag(flags, 'seed', 42);
  const hours = integerFlag(flags, 'hours', 9);
  const r = runDemo(seed, hours * 3600);
  const out = process.stdout;
  out.write(`perpsim demo: seed ${seed}, ${hours} h of simulated time, 8 random traders on 2 perps\n`);
  out.write(`orders ${r.orders}, trades ${r.trades}, volume ${r.volumeLots} contracts, funding settlements ${r.fundingSettlements}\n`);
  out.write(`feeds: ${Object.entries(r.feeds).sort().map(([t, n]) => `${t}=${n}`).join(' ')}\n`);
  for (const m of r.markets) {
    out.write(`${m.symbol}: last ${m.last}, mark ${m.mark}, best bid ${m.bid}, best ask ${m.ask}, ${m.depth} resting orders\n`);
  }
  out.write(`state_hash: ${r.stateHash}\n`);
  return 0;
}
