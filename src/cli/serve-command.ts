import { randomBytes } from 'node:crypto';
import type { Speed } from '../api/clock-driver.ts';
import { Exchange } from '../api/exchange.ts';
import { startServer, type RunningServer } from '../api/server.ts';
import type { Scenario } from '../scenario/schema.ts';
import { buildSimulation } from '../sim/build.ts';
import { integerFlag, parseFlags, UsageError } from './flags.ts';
import { buildReplayRun, REPLAY_FLAGS, replayArgs, replayRequest, type ReplayRequest } from './replay-flags.ts';
import { defaultScenarioName, resolveScenario } from './run-command.ts';

/** What `perpsim serve` was asked to do, after flag parsing. */
export interface ServeRequest {
  /** Built-in scenario name or path of a scenario file. */
  scenario: string;
  seed?: number;
  host: string;
  port: number;
  /** Serve the /api endpoints on this second port. */
  appPort?: number;
  speed: Speed;
  manual: boolean;
  adminToken: string;
  /** `--replay FILES…`: serve recordings (into `--scenario` when given). */
  replay?: ReplayRequest;
}

/** A running `perpsim serve`: the exchange, its server, and the text printed at start. */
export interface Serving {
  exchange: Exchange;
  server: RunningServer;
  banner: string;
  close(): Promise<void>;
}

const SERVE_FLAGS = ['scenario', 'seed', 'host', 'port', 'app-port', 'speed', 'admin-token'];
/** Flags that take no value. */
const SWITCHES = ['manual'];

/**
 * Parses `perpsim serve` flags. The admin token comes from `--admin-token`, else `env`'s
 * PERPSIM_ADMIN_TOKEN, else 24 random bytes (base64url).
 */
export function parseServeArgs(args: string[], env: NodeJS.ProcessEnv = process.env): ServeRequest {
  const { files, rest: withoutReplay } = replayArgs(args);
  const { rest, switches } = takeSwitches(withoutReplay, SWITCHES);
  const flags = parseFlags(rest, [...SERVE_FLAGS, ...(files === undefined ? [] : REPLAY_FLAGS)]);
  const request: ServeRequest = {
    scenario: flags.get('scenario') ?? defaultScenarioName(),
    host: flags.get('host') ?? '127.0.0.1',
    port: portFlag(flags, 'port', 8080)!,
    speed: speedFlag(flags.get('speed')),
    manual: switches.has('manual'),
    adminToken: flags.get('admin-token') ?? (env.PERPSIM_ADMIN_TOKEN || randomBytes(24).toString('base64url')),
  };
  if (flags.has('seed')) request.seed = integerFlag(flags, 'seed', 0);
  if (files !== undefined) request.replay = replayRequest(files, flags);
  const appPort = portFlag(flags, 'app-port', undefined);
  if (appPort !== undefined) request.appPort = appPort;
  if (request.manual && flags.has('speed')) throw new UsageError('--speed and --manual exclude each other (a manual clock moves only through the admin API)');
  return request;
}

/**
 * Builds the venue of the scenario with its agents (so the default scenario is a live market),
 * serves it, and returns the running server with the banner describing it.
 */
export async function startServing(request: ServeRequest, options: { scryptCost?: number } = {}): Promise<Serving> {
  const requested = request.replay === undefined ? resolveScenario(request.scenario) : undefined;
  const { scenario, sim } =
    requested !== undefined && requested.market === undefined
      ? { scenario: requested, sim: buildSimulation(requested, request.seed === undefined ? {} : { seed: request.seed }) }
      : await buildReplayRun(request); // a recorded market: read the files first
  const exchange = await Exchange.forSimulation(sim, { speed: request.speed, manual: request.manual, adminToken: request.adminToken, ...options });
  const server = await startServer(exchange, { host: request.host, port: request.port, appPort: request.appPort });
  return { exchange, server, banner: banner(scenario, sim.seed, request, server), close: () => server.close() };
}

/**
 * `perpsim serve [--scenario NAME|FILE] [--seed N] [--host H] [--port P] [--app-port P]
 * [--speed N|max] [--manual] [--admin-token T]`: serves until SIGINT or SIGTERM, then closes
 * every socket, stops the clock and resolves with exit code 0.
 */
export async function serveCommand(args: string[]): Promise<number> {
  const request = parseServeArgs(args);
  let serving: Serving;
  try {
    serving = await startServing(request);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
      throw new UsageError(`cannot listen on ${request.host}:${request.port}: ${code}`);
    }
    throw e;
  }
  process.stdout.write(serving.banner);
  await new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop); // a second signal now kills the process the default way
      process.stdout.write(`perpsim serve: ${signal}, closing\n`);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await serving.close();
  process.stdout.write('perpsim serve: stopped\n');
  return 0;
}

/** What the server prints at start: scenario, clock, URLs, admin token and demo users. */
function banner(scenario: Scenario, seed: number, request: ServeRequest, server: RunningServer): string {
  const clock = request.manual ? 'manual (POST /admin/clock/advance moves time)' : request.speed === 'max' ? 'as fast as possible (speed max)' : `speed ${request.speed} (sim seconds per wall second)`;
  const lines = [
    `perpsim serve: scenario ${scenario.name}, seed ${seed}, clock ${clock}`,
    `REST:             ${server.url}`,
    `order websocket:  ${server.wsUrl}/orders`,
    `market data ws:   ${server.wsUrl}/md/ws`,
    `app (/api):       ${server.appUrl}`,
    `admin API:        ${server.url}/admin  (Authorization: Bearer <admin token>)`,
    `admin token:      ${request.adminToken}`,
  ];
  if (scenario.users.length === 0) lines.push('demo users:       none (add some with POST /admin/users)');
  else lines.push('demo users:       ' + scenario.users.map((u) => `${u.username} / ${u.password} (cash ${u.cash})`).join(', '));
  lines.push('Ctrl-C stops the server.');
  return lines.join('\n') + '\n';
}

/** Removes value-less `--name` switches from `args`; `--name=value` for a switch is an error. */
function takeSwitches(args: string[], names: string[]): { rest: string[]; switches: Set<string> } {
  const switches = new Set<string>();
  const rest: string[] = [];
  for (const arg of args) {
    const name = arg.startsWith('--') ? arg.slice(2).split('=')[0]! : undefined;
    if (name === undefined || !names.includes(name)) rest.push(arg);
    else if (arg.includes('=')) throw new UsageError(`--${name} takes no value`);
    else if (switches.has(name)) throw new UsageError(`--${name} given twice`);
    else switches.add(name);
  }
  return { rest, switches };
}

function portFlag(flags: Map<string, string>, name: string, fallback: number | undefined): number | undefined {
  if (!flags.has(name)) return fallback;
  const port = integerFlag(flags, name, 0);
  if (port > 65535) throw new UsageError(`--${name} must be a port number from 0 to 65535, got "${flags.get(name)}"`);
  return port;
}

function speedFlag(text: string | undefined): Speed {
  if (text === undefined) return 1;
  if (text === 'max') return 'max';
  const speed = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || !(speed > 0) || !Number.isFinite(speed)) throw new UsageError(`--speed must be a positive number or "max", got "${text}"`);
  return speed;
}
