import { rmSync } from 'node:fs';
import type { Speed } from '../api/clock-driver.ts';
import { Exchange } from '../api/exchange.ts';
import { startServer, type RunningServer } from '../api/server.ts';
import type { Scenario } from '../scenario/schema.ts';
import { checkBind } from './bind-safety.ts';
import { exchangeForDataDir } from './data-dir.ts';
import { DEFAULT_SNAPSHOT_POLICY, type SnapshotPolicy } from '../api/journal/snapshotter.ts';
import { buildRequestedRun, replayErrorLine, type ReplayRequest } from './replay-flags.ts';
import { ReplayError } from '../replay/replay-error.ts';
import { formatTimestampNs } from '../core/time.ts';
import { prepareOutFile } from './out-path.ts';
import { announcement, writePortFile } from './serve-announce.ts';
import type { ProgressStream } from './progress.ts';
import { watchServedReplay } from './replay-progress.ts';
import { UsageError } from './usage-error.ts';

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
  /** The live web view at / (default on; `--no-ui` turns it off). */
  ui?: boolean;
  /** `--port-file PATH`: where to write the port once listening (removed at the end). */
  portFile?: string;
  /** `--json`: the first stdout line is JSON (URLs, admin token); human text goes to stderr. */
  json?: boolean;
  /** `--data-dir DIR`: journal every command there; restore from it at start. */
  dataDir?: string;
  /** `--snapshot-entries` / `--snapshot-seconds` (default: DEFAULT_SNAPSHOT_POLICY). */
  snapshots?: SnapshotPolicy;
  /** `--user-passwords FILE`: passwords replacing the scenario users' demo passwords. */
  userPasswords?: Record<string, string>;
  /** `--quiet`: no replay progress on stderr. */
  quiet?: boolean;
}

/** A running `perpsim serve`: the exchange, its server, and the text printed at start. */
export interface Serving {
  exchange: Exchange;
  server: RunningServer;
  banner: string;
  /** The `--json` line: rest, ws, app, port, admin_token, scenario, seed, users. */
  json: string;
  close(): Promise<void>;
}

/**
 * Builds the venue of the scenario with its agents (so the default scenario is a live market),
 * serves it, and returns the running server with the banner describing it.
 */
export async function startServing(request: ServeRequest, options: { scryptCost?: number; warn?: (text: string) => void; progress?: { out: ProgressStream; everyMs?: number } } = {}): Promise<Serving> {
  const { warn = (text: string) => process.stderr.write(text + '\n'), progress, ...exchangeOptions } = options;
  const passwords = request.userPasswords === undefined ? {} : { userPasswords: request.userPasswords };
  options = { ...exchangeOptions, ...passwords };
  const checkHost = (scenario: Scenario) => {
    const warning = checkBind(request.host, scenario.users.map((u) => u.username), request.userPasswords);
    if (warning !== undefined) warn(warning);
  };
  if (request.dataDir !== undefined) {
    const d = await exchangeForDataDir(request.dataDir, { ...request, snapshots: request.snapshots ?? DEFAULT_SNAPSHOT_POLICY }, { speed: request.speed, manual: request.manual, adminToken: request.adminToken, ...options }, checkHost);
    const server = await startServer(d.exchange, { host: request.host, port: request.port, appPort: request.appPort, ui: request.ui !== false });
    const journal = `journal:          ${request.dataDir} (${d.restored === 0 && d.fromSnapshot === undefined ? 'new' : `restored ${d.restored} entries`})\n` + `snapshots:        ${d.snapshots}\n`;
    const json = JSON.stringify(announcement(server, request.adminToken, d.scenario, d.seed));
    return { exchange: d.exchange, server, banner: banner(d.scenario, d.seed, request, server) + journal, json, close: () => server.close() };
  }
  const { scenario, sim, built } = await buildRequestedRun(request);
  checkHost(scenario);
  const exchange = await Exchange.forSimulation(sim, { speed: request.speed, manual: request.manual, adminToken: request.adminToken, ...options });
  const server = await startServer(exchange, { host: request.host, port: request.port, appPort: request.appPort, ui: request.ui !== false });
  const announced = JSON.stringify(announcement(server, request.adminToken, scenario, sim.seed));
  // A long replay says how far it is (stderr, every 10 s); --quiet turns it off.
  const stopProgress = built.replayer === undefined || request.quiet === true ? () => {} : watchServedReplay(progress?.out ?? process.stderr, sim, built.replayer, 'perpsim serve: replay', progress?.everyMs);
  const close = async () => {
    stopProgress();
    await server.close();
  };
  return { exchange, server, banner: banner(scenario, sim.seed, request, server), json: announced, close };
}

/**
 * `perpsim serve` (flags parsed by `commands/serve.ts`): serves until SIGINT or SIGTERM, then closes
 * every socket, stops the clock and resolves with exit code 0 — or 1 when the journal failed.
 */
export async function serveCommand(request: ServeRequest): Promise<number> {
  if (request.portFile !== undefined) prepareOutFile('--port-file', request.portFile);
  // With --json, stdout carries exactly one line (the JSON); everything for humans goes to stderr.
  const say = (text: string) => (request.json === true ? process.stderr : process.stdout).write(text);
  let serving: Serving;
  try {
    serving = await startServing(request);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
      // The error names the port that failed: with --app-port it may be the second one.
      const port = (e as { port?: number }).port ?? request.port;
      throw new UsageError(`cannot listen on ${request.host}:${port}: ${code}${code === 'EADDRINUSE' ? ' (the port is taken: pick another, or --port 0 for a free one)' : ''}`);
    }
    throw e;
  }
  // The port file first: whoever reads the JSON line may look for the file too.
  if (request.portFile !== undefined) writePortFile(request.portFile, serving.server.port);
  if (request.json === true) process.stdout.write(`${serving.json}\n`);
  say(serving.banner);
  // The exit code when the server stops by itself: 1 after a journal failure, 2 when a recording
  // turned bad mid-run (bad input), 1 for any other error an event threw.
  const failed = await new Promise<number | undefined>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop); // a second signal now kills the process the default way
      say(`perpsim serve: ${signal}, closing\n`);
      resolve(undefined);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    // A failed journal write or sync has already stopped the server (it said why on stderr).
    void serving.server.failed.then(() => resolve(1));
    // An event that threw while the clock ran (a recording changed or cut after the span pass
    // read it) stopped the clock there: say so in one line and stop serving.
    const driver = serving.exchange.driver;
    driver.onFailure = (err) => {
      const what = err instanceof ReplayError ? 'replay failed' : 'the simulation stopped';
      process.stderr.write(`perpsim serve: ${what} at ${formatTimestampNs(serving.exchange.clock.nowNs)}: ${replayErrorLine(err)}; stopped serving\n`);
      resolve(err instanceof ReplayError ? 2 : 1);
    };
  });
  await serving.close();
  if (failed !== undefined) return failed;
  if (request.portFile !== undefined) rmSync(request.portFile, { force: true }); // a stale port file would point at nothing
  say('perpsim serve: stopped\n');
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
    ...(request.ui === false ? [] : [`web view:         ${server.url}/`]),
    `admin token:      ${request.adminToken}`,
  ];
  if (scenario.users.length === 0) lines.push('demo users:       none (add some with POST /admin/users)');
  else {
    const password = (u: Scenario['users'][number]) => (request.userPasswords?.[u.username] !== undefined ? '(from --user-passwords)' : u.password);
    lines.push('demo users:       ' + scenario.users.map((u) => `${u.username} / ${password(u)} (cash ${u.cash})`).join(', '));
  }
  lines.push('Ctrl-C stops the server.');
  return lines.join('\n') + '\n';
}
