// Runs the agent-skills command line in-process for the tests of the source commands, with what
// it printed, its exit code and the questions it asked on the (pretend) terminal.

import { runCli } from '../../../src/cli/run';
import type { CliIo } from '../../../src/cli/io';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** The questions asked on the terminal. */
  asked: string[];
}

/** Runs `argv` in `cwd`; with `answers`, a terminal answers each question with the next one (then nothing). */
export async function cli(cwd: string, argv: string[], answers?: string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const asked: string[] = [];
  const io: CliIo = {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    cwd,
    ask: answers
      ? async (question) => {
          asked.push(question);
          return answers.shift() ?? '';
        }
      : undefined,
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr, asked };
}
