import { Command, CommanderError, type Help } from 'commander';

/**
 * The `perpsim` program on commander. Every command is registered from its own file in
 * `commands/` (see `commands/index.ts`); this class only makes commander's behaviour ours:
 * - every usage error is one line on stderr (`perpsim: …`) and exit code 2, never a help page;
 * - an unknown option lists every option the command takes;
 * - an action may return its exit code (a number), which `main` returns.
 */
export class PerpsimCommand extends Command {
  /** The exit code the action returned (root command only). */
  actionExitCode = 0;

  override createCommand(name?: string): PerpsimCommand {
    return new PerpsimCommand(name);
  }

  override action(fn: (...args: any[]) => unknown): this {
    return super.action(async (...args: unknown[]) => {
      const code = await fn.apply(this, args);
      if (typeof code === 'number') root(this).actionExitCode = code;
    });
  }

  unknownOption(flag: string): never {
    const name = flag.split('=')[0]!;
    const known = this.options.find((o) => o.long === name);
    if (known !== undefined && flag.includes('=')) this.error(`error: ${name} takes no value`, { code: 'commander.unknownOption', exitCode: 2 });
    const allowed = this.createHelp()
      .visibleOptions(this)
      .map((o) => o.long)
      .filter((long): long is string => long !== undefined && long !== '--help');
    const list = allowed.length === 0 ? 'it takes no options' : `allowed: ${allowed.join(', ')}`;
    const where = this.parent === null ? '' : ` for ${this.name()}`;
    this.error(`error: unknown option "${flag}"${where} (${list})`, { code: 'commander.unknownOption', exitCode: 2 });
  }
}

/** Commander's codes that are not errors: help or the version was asked for. */
const INFORMATIONAL = new Set(['commander.helpDisplayed', 'commander.help', 'commander.version']);

/** The exit code for a commander exception: 0 for help and version, 2 for every usage error. */
export function exitCodeOf(e: CommanderError): number {
  return INFORMATIONAL.has(e.code) && e.exitCode === 0 ? 0 : 2;
}

/** The root program with perpsim's output and error conventions; commands are added to it. */
export function createProgram(version: string): PerpsimCommand {
  const program = new PerpsimCommand('perpsim');
  program
    .description('perpsim: a deterministic perpetual-futures exchange simulator and backtester')
    .version(version, '-V, --version', 'print the version and exit')
    .helpOption('-h, --help', 'show this help')
    .helpCommand('help [command]', 'show help for a command')
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureHelp({ sortSubcommands: true, showGlobalOptions: false } satisfies Partial<Help>)
    .configureOutput({
      // Commander's messages start "error: "; ours are "perpsim: …", on one line.
      outputError: (text, write) => write(`perpsim: ${text.replace(/^error: /, '').replace(/\s*\n\s*(?=.)/g, ' ')}`),
    });
  return program;
}

function root(cmd: Command): PerpsimCommand {
  let c = cmd;
  while (c.parent !== null) c = c.parent;
  return c as PerpsimCommand;
}

export { CommanderError };
