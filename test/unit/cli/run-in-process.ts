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

/** Answers a question asked on the terminal. */
export type Answerer = (question: string) => Promise<string>;

/**
 * Runs `argv` in `cwd`. With `answers`, a terminal answers each question with the next one (then
 * nothing), or with what the function returns. `env` stands in for the process's environment.
 */
export async function cli(cwd: string, argv: string[], answers?: string[] | Answerer, env?: CliIo['env']): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const asked: string[] = [];
  const io: CliIo = {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    cwd,
    ...(env && { env }),
    ask: answers
      ? async (question) => {
          asked.push(question);
          return typeof answers === 'function' ? answers(question) : (answers.shift() ?? '');
        }
      : undefined,
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr, asked };
}
