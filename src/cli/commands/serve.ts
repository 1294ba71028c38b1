import { randomBytes } from 'node:crypto';
import { PerpsimCommand } from '../program.ts';
import type { Speed } from '../../api/clock-driver.ts';
import { integerOption, portOption, speedOption, textOption } from '../option-parsers.ts';
import type { ServeRequest } from '../serve-command.ts';
import { readUserPasswords } from '../bind-safety.ts';
import { UsageError } from '../usage-error.ts';
import { DEFAULT_SNAPSHOT_POLICY } from '../../api/journal/snapshotter.ts';
import { addReplayOptions, DEFAULT_SCENARIO, replayRequest, type ReplayOptionValues } from './scenario-options.ts';

/** The options of `perpsim serve` as commander parses them. */
export interface ServeOptions extends ReplayOptionValues {
  scenario?: string;
  seed?: number;
  host?: string;
  port?: number;
  appPort?: number;
  speed?: Speed;
  manual?: boolean;
  adminToken?: string;
  /** false with --no-ui. */
  ui?: boolean;
  portFile?: string;
  json?: boolean;
  dataDir?: string;
  snapshotEntries?: number;
  snapshotSeconds?: number;
  userPasswords?: string;
  quiet?: boolean;
}

export function register(program: PerpsimCommand): void {
  const cmd = program
    .command('serve')
    .summary('serve the exchange over REST + websockets (npm start)')
    .description(
      "Builds the scenario's venue with its agents and serves the interface document (REST, order websocket, market-data websocket, admin API) on one port; prints the URLs, the admin token and the demo users. Ctrl-C or SIGTERM closes every socket and exits 0.",
    );
  addServeOptions(cmd).action(async (opts: ServeOptions) => {
    const { serveCommand } = await import('../serve-command.ts');
    return serveCommand(serveRequest(opts));
  });
}

/** Adds the serve options to `cmd`. */
export function addServeOptions<C extends PerpsimCommand>(cmd: C): C {
  cmd
    .option('--scenario <name|file>', 'built-in scenario name (perpsim scenarios lists them) or a scenario JSON file (default: default)', textOption('scenario'))
    .option('--seed <n>', "random seed (default: the scenario's seed)", integerOption('seed'))
    .option('--host <host>', 'interface to listen on (default: 127.0.0.1)', textOption('host'))
    .option('--port <p>', 'port of REST and both websockets; 0 picks a free one (default: 8080)', portOption('port'))
    .option('--app-port <p>', 'serve the /api endpoints ({app_url}) on this second port (default: the same port)', portOption('app-port'))
    .option('--speed <n|max>', 'sim seconds per wall second, or max (default: 1)', speedOption('speed'))
    .option('--manual', 'hold time still until POST /admin/clock/advance (default: off)')
    .option('--admin-token <t>', 'bearer token of the admin API (default: $PERPSIM_ADMIN_TOKEN, else 24 random bytes)', textOption('admin-token'))
    .option('--no-ui', 'do not serve the live web view at / (default: served)')
    .option('--port-file <path>', 'once listening, write the port there (removed at the end): for --port 0 in test suites (default: none)', textOption('port-file'))
    .option('--json', 'print one JSON line first: rest, ws, app, port, admin_token, scenario, seed, users; human text goes to stderr (default: off)')
    .option('--user-passwords <file>', 'JSON {"user": "password"} replacing the scenario users\' demo passwords, needed with a non-loopback --host (default: the scenario\'s passwords)', textOption('user-passwords'))
    .option('--data-dir <dir>', 'journal every accepted command in DIR; restart on the same DIR restores the exact state (default: no journal)', textOption('data-dir'))
    .option('--snapshot-entries <n>', 'with --data-dir: write a snapshot every N journal entries, 0 = never (default: 100000; scenarios without agents only)', integerOption('snapshot-entries'))
    .option('--snapshot-seconds <s>', 'with --data-dir: write a snapshot every S seconds of wall time when something was journaled, 0 = never (default: 300)', integerOption('snapshot-seconds'))
    .option('--quiet', 'no replay progress lines on stderr (default: with --replay, a line every 10 s of wall time: sim time, recorded events, events/s)');
  return addReplayOptions(cmd);
}

/**
 * The request from parsed options. The admin token comes from `--admin-token`, else `env`'s
 * PERPSIM_ADMIN_TOKEN, else 24 random bytes (base64url).
 */
export function serveRequest(opts: ServeOptions, env: NodeJS.ProcessEnv = process.env): ServeRequest {
  if (opts.manual === true && opts.speed !== undefined) throw new UsageError('--speed and --manual exclude each other (a manual clock moves only through the admin API)');
  const request: ServeRequest = {
    scenario: opts.scenario ?? DEFAULT_SCENARIO,
    host: opts.host ?? '127.0.0.1',
    port: opts.port ?? 8080,
    speed: opts.speed ?? 1,
    manual: opts.manual === true,
    ui: opts.ui !== false,
    adminToken: opts.adminToken ?? (env.PERPSIM_ADMIN_TOKEN || randomBytes(24).toString('base64url')),
  };
  if (opts.seed !== undefined) request.seed = opts.seed;
  if (opts.appPort !== undefined) request.appPort = opts.appPort;
  if (opts.portFile !== undefined) request.portFile = opts.portFile;
  if (opts.json === true) request.json = true;
  if (opts.dataDir !== undefined) request.dataDir = opts.dataDir;
  for (const [flag, value] of [['--snapshot-entries', opts.snapshotEntries], ['--snapshot-seconds', opts.snapshotSeconds]] as const) {
    if (value === undefined) continue;
    if (opts.dataDir === undefined) throw new UsageError(`${flag} needs --data-dir`);
  }
  if (opts.snapshotEntries !== undefined || opts.snapshotSeconds !== undefined) {
    request.snapshots = { everyEntries: opts.snapshotEntries ?? DEFAULT_SNAPSHOT_POLICY.everyEntries, everySeconds: opts.snapshotSeconds ?? DEFAULT_SNAPSHOT_POLICY.everySeconds };
  }
  if (opts.quiet === true) request.quiet = true;
  if (opts.userPasswords !== undefined) request.userPasswords = readUserPasswords(opts.userPasswords);
  const replay = replayRequest(opts);
  if (replay !== undefined) request.replay = replay;
  return request;
}

/** `perpsim serve` flags (as after `perpsim serve`) → the request; for tests and embedding. */
export function parseServeArgs(args: string[], env: NodeJS.ProcessEnv = process.env): ServeRequest {
  const cmd = addServeOptions(new PerpsimCommand('serve').exitOverride());
  cmd.parse(args, { from: 'user' });
  return serveRequest(cmd.opts<ServeOptions>(), env);
}
