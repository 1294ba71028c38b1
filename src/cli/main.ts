import { runDemo } from '../sim/demo.ts';
import { runVerifyCommand } from '../replay/verify-command.ts';
import { backtestCommand } from './backtest-command.ts';
import { convertCommand } from './convert-command.ts';
import { integerFlag, parseFlags, UsageError } from './flags.ts';
import { recordCommand } from './record-command.ts';
import { reportCommand } from './report-command.ts';
import { runCommand } from './run-command.ts';
import { serveCommand } from './serve-command.ts';

const HELP = `perpsim — a deterministic perpetual-futures exchange simulator

Usage: perpsim <command> [options]

Commands:
  demo [--seed N] [--hours H]   run a short seeded market on the embedded default
                                instruments and print what happened
  verify lobster <MESSAGE.csv ORDERBOOK.csv | SAMPLE.zip>
                                replay LOBSTER messages order by order and compare the
                                book with the orderbook file after every row; ends with
                                "rows: N matched: M" (exit 0 all matched, 1 mismatch)
  run [--scenario NAME|FILE] [--seed N] [--duration D] [--out DIR]
                                run a scenario headless as fast as possible (default
                                scenario: default; D like 30m, 1h, 1d); writes
                                DIR/events.arrow and DIR/summary.json (default DIR:
                                out/run-<scenario>-<seed>), prints state_hash
  run --replay FILE… [--queue-model risk-averse|prob] [--tick-size T --lot-size L]
                                the same on recorded L2 data (tardis CSVs or Binance
                                raw captures); with --scenario, into its market.replay
  report [DIR|FILE.arrow]       stylized facts of an event log next to typical values
                                of liquid perps (default: the latest out/run-*)
  backtest STRATEGY.ts [--params JSON] (--scenario NAME|FILE | --replay FILE…)
           [--seed N] [--duration D] [--cash C] [--out DIR]
                                run a strategy file in-process on a scenario or on
                                replayed recordings (see run for --replay); writes
                                report.json, report.html, fills.csv, fills.arrow and
                                equity.csv to DIR (default: out/backtest-<strategy>-
                                <scenario>-<seed>) and prints the metrics
  serve [--scenario NAME|FILE] [--seed N] [--host H] [--port P] [--app-port P]
        [--speed N|max] [--manual] [--admin-token T] [--replay FILE… …]
                                serve the exchange over REST + websockets (default:
                                scenario default with its agents, 127.0.0.1:8080,
                                real time; --port 0 picks a free port; --manual moves
                                time only via POST /admin/clock/advance); prints the
                                URLs, the admin token and the demo users (npm start)
  record --url ws://HOST/md/ws --symbols A,B --out FILE.arrow [--level LEVEL_2|LEVEL_1]
         [--duration D] [--username U --password P] [--tick-size T]
                                record a server's market-data websocket into an Arrow
                                file of normalized records (until D, Ctrl-C or close)
  convert IN... --to arrow|csv --out FILE [--from tardis|binance|lobster|perpsim|
          recording|arrow] [--tick-size T --lot-size L] [--symbol S] [--skip-bad-rows]
                                any supported recording (or several, merged by time)
                                as normalized market records in Arrow or CSV
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
    if (command === 'run') return await runCommand(rest);
    if (command === 'serve') return await serveCommand(rest);
    if (command === 'report') return await reportCommand(rest);
    if (command === 'record') return await recordCommand(rest);
    if (command === 'convert') return await convertCommand(rest);
    if (command === 'backtest') return await backtestCommand(rest);
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
