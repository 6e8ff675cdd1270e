// Entry of the `agent-skills` command, runnable in-process: parses the command name, runs it, and
// turns every failure into a one-line message and an exit code, never a stack trace.

import { activateCommand } from './activate-command';
import { catalogCommand } from './catalog-command';
import { findCommand } from './find-command';
import { USAGE, VERSION } from './help';
import { ExitCode, InputError, PROGRAM, UsageError, type CliIo } from './io';
import { listCommand } from './list-command';
import { mcpCommand } from './mcp/mcp-command';
import { validateCommand } from './validate-command';
import { errorMessage } from '../core/util/errors';

type Command = (args: readonly string[], io: CliIo) => Promise<number>;

const COMMANDS: Readonly<Record<string, Command>> = {
  validate: validateCommand,
  list: listCommand,
  catalog: catalogCommand,
  activate: activateCommand,
  find: findCommand,
  mcp: mcpCommand,
};

const HELP_FLAGS: ReadonlySet<string> = new Set(['--help', '-h']);

/** Runs one command line (without the program name) and resolves to the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`${PROGRAM}: ${error.message}\nRun "${PROGRAM} --help" for usage.\n`);
      return ExitCode.usage;
    }
    if (error instanceof InputError) {
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
  if (name === undefined || HELP_FLAGS.has(name) || (name in COMMANDS && ownArguments.some((arg) => HELP_FLAGS.has(arg)))) {
    (name === undefined ? io.stderr : io.stdout)(USAGE);
    return name === undefined ? ExitCode.usage : ExitCode.ok;
  }
  if (name === '--version') {
    io.stdout(`${VERSION}\n`);
    return ExitCode.ok;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    throw new UsageError(`unknown command "${name}" (commands: ${Object.keys(COMMANDS).join(', ')}).`);
  }
  return command(args, io);
}
