import { renameSync, rmSync, writeFileSync } from 'node:fs';
import type { RunningServer } from '../api/server.ts';

/** The first stdout line of `perpsim serve --json`: where to connect, and how to administer. */
export interface ServeAnnouncement {
  /** {base_url}: REST (and /admin, /health). */
  rest: string;
  /** {ws_base_url}: the order websocket is at `${ws}/orders`, market data at `${ws}/md/ws`. */
  ws: string;
  /** {app_url}: /api endpoints (the REST URL unless --app-port was given). */
  app: string;
  port: number;
  admin_token: string;
  scenario: string;
  seed: number;
  /** The demo users of the scenario (username, password, cash). */
  users: { username: string; password: string; cash: string }[];
}

export function announcement(server: RunningServer, adminToken: string, scenario: { name: string; users: readonly { username: string; password: string; cash: string }[] }, seed: number): ServeAnnouncement {
  return {
    rest: server.url,
    ws: server.wsUrl,
    app: server.appUrl,
    port: server.port,
    admin_token: adminToken,
    scenario: scenario.name,
    seed,
    users: scenario.users.map(({ username, password, cash }) => ({ username, password, cash })),
  };
}

/**
 * Writes the port (decimal, then a newline) to `path` atomically: a temporary file renamed into
 * place, so a test suite polling for the file never reads it half-written.
 */
export function writePortFile(path: string, port: number): void {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, `${port}\n`);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}
