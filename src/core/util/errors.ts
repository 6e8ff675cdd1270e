// What a caught error says, whatever was thrown, and the kind of error that is the input's fault.

/**
 * Something a user, a file or a remote gave cannot be used (a source, a lock, a folder far too large
 * to be a skill): reported in one line naming it, never as a bug. The command line exits 1 on it.
 */
export class InputProblem extends Error {}

/** The Node.js error code (`ENOENT`, `ELOOP`, …) of a file-system error, if any. */
export function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** The message of an Error, or the thrown value as text. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** For logs: the stack of an Error when it has one, else what `errorMessage` gives. */
export function errorDetail(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/** What `work` gives, or undefined when the file it needs does not exist (ENOENT); any other failure is thrown. */
export async function unlessMissing<T>(work: Promise<T>): Promise<T | undefined> {
  try {
    return await work;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') {
      return undefined;
    }
    throw error;
  }
}
