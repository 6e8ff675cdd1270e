// What a command needs from its surroundings, so the whole CLI runs in-process in tests, and the
// failures a command reports without a stack trace.

import * as path from 'node:path';
import { InputProblem } from '../core/util/errors';
import { relativeInside } from '../core/util/paths';

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** The folder relative arguments are resolved against, and shown paths are relative to. */
  cwd: string;
  /** Terminal width when stdout is a terminal; long table cells are cut to fit it. */
  columns?: number;
  /** The environment variables a command may read (API keys); the process's own by default. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Asks a question on the terminal and resolves to the answer; absent when there is no terminal to ask on. */
  ask?: (question: string) => Promise<string>;
}

export const ExitCode = {
  ok: 0,
  /** A skill has an error, an input cannot be read, or the named skill cannot be activated. */
  failure: 1,
  usage: 2,
  /** A bug: an error nothing anticipated (EX_SOFTWARE). */
  internal: 70,
} as const;

export const PROGRAM = 'agent-skills';

/** The command line is wrong: reported with a pointer to --help, exit 2. */
export class UsageError extends Error {}

/** An input is unusable (missing path, not a folder...): reported in one line, exit 1, as every InputProblem of the core. */
export class InputError extends InputProblem {}

/** A path as the user reads it best: relative to the working folder when inside it. */
export function displayPath(file: string, io: CliIo): string {
  const relative = relativeInside(io.cwd, file);
  return relative === undefined || relative === '' ? file : relative.split(path.sep).join('/');
}

export { plural } from '../core/util/text';

/** What outputPieces cuts long output into. */
export const OUTPUT_PIECE_LENGTH = 64 * 1024;

/**
 * Long output (validate --json over thousands of skills writes megabytes) in pieces of at most
 * `length` characters, never cut between the two halves of a character outside the Basic
 * Multilingual Plane: each piece is encoded on its own, in memory used again for the next, where
 * encoding megabytes at once takes freshly mapped memory, which costs on some systems.
 */
export function outputPieces(text: string, length = OUTPUT_PIECE_LENGTH): string[] {
  const pieces: string[] = [];
  for (let at = 0; at < text.length;) {
    let end = Math.min(at + length, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && end - 1 > at && last >= 0xd800 && last <= 0xdbff) {
      end--;
    }
    pieces.push(text.slice(at, end));
    at = end;
  }
  return pieces;
}
