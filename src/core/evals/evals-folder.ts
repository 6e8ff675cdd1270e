// The name of a skill's folder for its authors' evals, in a module of its own: what only needs the
// name (reading a skill's files, hashing or installing a folder) loads no trigger-test parser.

/** A skill's folder for its authors' tests, which the model never sees (see isAuthorOnlyPath). */
export const EVALS_FOLDER = 'evals';
