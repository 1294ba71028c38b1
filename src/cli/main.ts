import { runDemo } from '../sim/demo.ts';

const HELP = `perpsim — a deterministic perpetual-futures exchange simulator

Usage: perpsim <command> [options]

Commands:
  demo [--seed N] [--hours H]   run a short seeded market on the embedded default
                                instruments and print what happened (npm start)
  help                          show this text

Options:
  -h, --help                    show this text
`;

/** A bad command line: printed as one line, exit code 2. */
export class UsageError extends Error {}

/** Runs the CLI; returns the process exit code. */
export async function main(argv: string[]): Promise<number> {
  try {
    const [command = 'help', ...rest] = argv;
    if (command === 'help' || command === '--help' || command === '-h' || rest.includes('--help') || rest.includes('-h')) {
      process.stdout.write(HELP);
      return 0;
    }
    if (command === 'demo') return demo(parseFlags(rest, ['seed', 'hours']));
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

/** Parses `--name value` pairs, allowing only `allowed` names. */
export function parseFlags(args: string[], allowed: string[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const name = arg.startsWith('--') ? arg.slice(2) : undefined;
    if (name === undefined || !allowed.includes(name)) throw new UsageError(`unexpected argument "${arg}"`);
    const value = args[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    flags.set(name, value);
  }
  return flags;
}

function integerFlag(flags: Map<string, string>, name: string, fallback: number): number {
  const text = flags.get(name);
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text)) throw new UsageError(`--${name} must be a non-negative integer, got "${text}"`);
  return Number(text);
}
