import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Exchange } from '../../src/api/exchange.ts';
import { JournalFile } from '../../src/api/journal/journal-file.ts';
import { parseMoney } from '../../src/core/money.ts';
import { startServer } from '../../src/api/server.ts';
import { loadScenario } from '../../src/scenario/load.ts';
import type { ClientJob } from './client-process.ts';
import { startBareWsFloor, startHonoFloor } from './floor-servers.ts';

/** A run that takes longer than this fails the bench instead of hanging. */
export const RUN_TIMEOUT_MS = 60_000;

/**
 * What serves a wire case: perpsim (`startServer` over the `empty` scenario, manual clock: sim
 * time stands still, only the commands move the book), perpsim with `serve --data-dir`'s
 * journal, or one of the floors (bench/wire/floor-servers.ts).
 */
export type ServerKind = 'perpsim' | 'perpsim+journal' | 'hono-floor' | 'ws-floor';

/** One server (in this process) and its client (a child process), started once per case. */
export class Rig {
  port = 0;
  token = 'floor-token';
  /** The journal of a `perpsim+journal` rig (its sync statistics go into the case's note). */
  journal: JournalFile | undefined;
  /** Users `trader1…N` made for loads with a socket per user (perpsim rigs with `traders` > 0), with their tokens. */
  traders: { user: string; token: string }[] = [];
  private child: ChildProcess | undefined;
  private stopServer: (() => Promise<void>) | undefined;

  constructor(
    readonly kind: ServerKind,
    private readonly traderCount = 0,
  ) {}

  get wsUrl(): string {
    return `ws://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (this.kind === 'hono-floor' || this.kind === 'ws-floor') {
      const floor = this.kind === 'hono-floor' ? await startHonoFloor() : await startBareWsFloor();
      this.port = floor.port;
      this.stopServer = () => floor.close();
    } else {
      const exchange = await Exchange.create(loadScenario('empty'), { manual: true, scryptCost: 1024 });
      let journalDir: string | undefined;
      if (this.kind === 'perpsim+journal') {
        journalDir = mkdtempSync(join(tmpdir(), 'perpsim-bench-journal-'));
        this.journal = JournalFile.create(journalDir, { perpsim_journal: 1, scenario: {}, seed: 0 });
        exchange.commands.attach(this.journal);
      }
      const server = await startServer(exchange, { port: 0 });
      this.port = server.port;
      this.token = (await exchange.users.tokenForPassword('alice', 'alice-password', 3600))!;
      for (let i = 1; i <= this.traderCount; i++) {
        const user = `trader${i}`;
        await exchange.addUser(user, `${user}-password`, parseMoney('1000000000'));
        this.traders.push({ user, token: (await exchange.users.tokenForPassword(user, `${user}-password`, 3600))! });
      }
      this.stopServer = async () => {
        await server.close();
        if (journalDir !== undefined) rmSync(journalDir, { recursive: true, force: true });
      };
    }
    this.child = fork(new URL('./client-process.ts', import.meta.url), { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  }

  /** Runs one job in the client; rejects on a client error or after RUN_TIMEOUT_MS. */
  ask<T>(job: ClientJob): Promise<T> {
    const child = this.child!;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`wire bench: ${job.op} took more than ${RUN_TIMEOUT_MS} ms`)), RUN_TIMEOUT_MS);
      child.once('message', (m: { ok: boolean; result?: T; error?: string }) => {
        clearTimeout(timer);
        if (m.ok) resolve(m.result as T);
        else reject(new Error(`wire client: ${m.error}`));
      });
      child.send(job);
    });
  }

  /**
   * Runs one load job and measures this process's CPU time while it ran: the server's alone,
   * since the client is another process (the other rig of a case is idle meanwhile).
   */
  async load<T>(job: ClientJob): Promise<{ result: T; serverCpuUs: number }> {
    const before = process.cpuUsage();
    const result = await this.ask<T>(job);
    const used = process.cpuUsage(before);
    return { result, serverCpuUs: used.user + used.system };
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (child !== undefined) {
      await this.ask({ op: 'close' }).catch(() => undefined);
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.disconnect();
        await exited;
      }
      this.child = undefined;
    }
    await this.stopServer?.();
  }
}
