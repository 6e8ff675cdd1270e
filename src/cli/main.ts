// The `agent-skills` executable (bundled to dist/cli.js): runs the command line against the real
// process streams and working folder.

import { outputPieces } from './io';
import { runCli } from './run';

// A reader that stops early (`agent-skills list | head`) closes the pipe; that is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') {
    throw error;
  }
});

// runCli turns every failure into a message and an exit code; it does not reject.
void runCli(process.argv.slice(2), {
  stdout: (text) => {
    for (const piece of outputPieces(text)) {
      process.stdout.write(piece);
    }
  },
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
  columns: process.stdout.isTTY ? process.stdout.columns : undefined,
  env: process.env,
  ask: process.stdin.isTTY && process.stderr.isTTY ? askOnTerminal : undefined,
}).then((code) => {
  // exitCode rather than exit(): pending output is flushed first.
  process.exitCode = code;
});

/**
 * One question on the terminal (prompts go to stderr, keeping stdout for results). The readline
 * module is loaded only then: the commands that ask are few, and loading it is part of every start.
 */
async function askOnTerminal(question: string): Promise<string> {
  const readline = await import('node:readline/promises');
  const terminal = readline.createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await terminal.question(question);
  } finally {
    terminal.close();
  }
}
