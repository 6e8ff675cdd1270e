// Where the bench runs from: `npm run bench` runs the bundles in out/bench/ (see build.mjs); the
// sources in bench/ still run as they are with `tsx bench/run.ts`, for readable stack traces.

import * as fs from 'node:fs';
import * as path from 'node:path';

/** The extension of the bench's own modules: '.js' when bundled, '.ts' under tsx. */
export const MODULE_EXTENSION = path.extname(__filename);

/** The nearest folder above the running module that holds package.json: the repository. */
export const repositoryRoot = findRepositoryRoot(__dirname);

function findRepositoryRoot(start: string): string {
  for (let folder = start; ; folder = path.dirname(folder)) {
    if (fs.existsSync(path.join(folder, 'package.json'))) return folder;
    if (path.dirname(folder) === folder) throw new Error(`no package.json above ${start}`);
  }
}

/** The bench's own folder: out/bench bundled, bench under tsx. */
export const benchFolder = MODULE_EXTENSION === '.ts' ? path.join(repositoryRoot, 'bench') : path.join(repositoryRoot, 'out', 'bench');

/** The command line that runs a bench module (`bench/<relative>` without extension) in a child Node process, with `nodeOptions` first. */
export function nodeArguments(relative: string, nodeOptions: readonly string[]): string[] {
  const file = path.join(benchFolder, ...relative.split('/')) + MODULE_EXTENSION;
  return MODULE_EXTENSION === '.ts' ? [...nodeOptions, '--import', 'tsx', file] : [...nodeOptions, file];
}
