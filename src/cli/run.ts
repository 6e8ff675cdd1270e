// Entry of the `agent-skills` command, runnable in-process: parses the command name, runs it, and
// turns every failure into a one-line message and an exit code, never a stack trace.

import { commandHelp, USAGE, VERSION, type CommandName } from './help';
import { ExitCode, PROGRAM, UsageError, type CliIo } from './io';
import { errorMessage, InputProblem } from '../core/util/errors';

type Command = (args: readonly string[], io: CliIo) => Promise<number>;

/**
 * Each command's module is required only when the command runs: `--help` then starts about as fast
 * as Node itself, and no command pays for loading the dependencies of another. The commands used
 * rarely (rare-commands, mcp) are side bundles beside dist/cli.js (scripts/side-bundles.mjs), so
 * the commands used on every edit do not even parse their code.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- loading on demand is the point */
const rareCommands = (): typeof import('./rare-commands') => require('./rare-commands') as typeof import('./rare-commands');
const COMMANDS: Readonly<Record<CommandName, () => Command>> = {
  validate: () => (require('./validate-command') as typeof import('./validate-command')).validateCommand,
  list: () => (require('./list-command') as typeof import('./list-command')).listCommand,
  catalog: () => (require('./catalog-command') as typeof import('./catalog-command')).catalogCommand,
  activate: () => (require('./activate-command') as typeof import('./activate-command')).activateCommand,
  find: () => (require('./find-command') as typeof import('./find-command')).findCommand,
  eval: () => rareCommands().evalCommand,
  tune: () => rareCommands().tuneCommand,
  audit: () => rareCommands().auditCommand,
  add: () => rareCommands().addCommand,
  update: () => rareCommands().updateCommand,
  check: () => rareCommands().checkCommand,
  remove: () => rareCommands().removeCommand,
  install: () => rareCommands().installCommand,
  publish: () => rareCommands().publishCommand,
  mcp: () => (require('./mcp/mcp-command') as typeof import('./mcp/mcp-command')).mcpCommand,
};
/* eslint-enable @typescript-eslint/no-require-imports */

const HELP_FLAGS: ReadonlySet<string> = new Set(['--help', '-h']);

function isCommandName(name: string): name is CommandName {
  return Object.hasOwn(COMMANDS, name);
}

/** Runs one command line (without the program name) and resolves to the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`${PROGRAM}: ${error.message}\nRun "${PROGRAM} --help" for usage.\n`);
      return ExitCode.usage;
    }
    // The CLI's own InputError included: a bad source, lock or folder is the input's fault, not a bug.
    if (error instanceof InputProblem) {
      io.stderr(`${PROGRAM}: ${error.message}\n`);
      return ExitCode.failure;
    }
    io.stderr(`${PROGRAM}: internal error: ${errorMessage(error)}\n`);
    return ExitCode.internal;
  }
}

async function dispatch(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...args] = argv;
  // Help wins wherever it appears before the activated skill's own arguments.
  const ownArguments = name === 'activate' ? args.slice(0, 2) : args;
  if (name === undefined || HELP_FLAGS.has(name)) {
    (name === undefined ? io.stderr : io.stdout)(USAGE);
    return name === undefined ? ExitCode.usage : ExitCode.ok;
  }
  if (name === 'help') {
    return printHelp(args, io);
  }
  if (isCommandName(name) && ownArguments.some((arg) => HELP_FLAGS.has(arg))) {
    io.stdout(commandHelp(name) ?? USAGE);
    return ExitCode.ok;
  }
  if (name === '--version') {
    io.stdout(`${VERSION}\n`);
    return ExitCode.ok;
  }
  const loadCommand = isCommandName(name) ? COMMANDS[name] : undefined;
  if (!loadCommand) {
    throw new UsageError(`unknown command "${name}" (commands: ${Object.keys(COMMANDS).join(', ')}).`);
  }
  return loadCommand()(args, io);
}

/** `help` prints every command's usage; `help COMMAND` that command's, as `COMMAND --help` does. */
function printHelp(args: readonly string[], io: CliIo): number {
  const [name, ...rest] = args;
  if (rest.length > 0) {
    throw new UsageError(`help: give at most one COMMAND, not ${args.length}.`);
  }
  if (name === undefined) {
    io.stdout(USAGE);
    return ExitCode.ok;
  }
  const help = isCommandName(name) ? commandHelp(name) : undefined;
  if (help === undefined) {
    throw new UsageError(`help: unknown command "${name}" (commands: ${Object.keys(COMMANDS).join(', ')}).`);
  }
  io.stdout(help);
  return ExitCode.ok;
}
