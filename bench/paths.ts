// Where the bench runs from: `npm run bench` runs the bundles in out/bench/ (see build.mjs); the
// sources in bench/ still run as they are with `tsx bench/run.ts`, for readable stack traces.

import * as path from 'node:path';
import { repositoryRoot } from '../scripts/harness/repository';

/** The extension of the bench's own modules: '.js' when bundled, '.ts' under tsx. */
export const MODULE_EXTENSION = path.extname(__filename);

/** The bench's own folder: out/bench bundled, bench under tsx. */
export const benchFolder = MODULE_EXTENSION === '.ts' ? path.join(repositoryRoot, 'bench') : path.join(repositoryRoot, 'out', 'bench');

/** The command line that runs a bench module (`bench/<relative>` without extension) in a child Node process, with `nodeOptions` first. */
export function nodeArguments(relative: string, nodeOptions: readonly string[]): string[] {
  const file = path.join(benchFolder, ...relative.split('/')) + MODULE_EXTENSION;
  return MODULE_EXTENSION === '.ts' ? [...nodeOptions, '--import', 'tsx', file] : [...nodeOptions, file];
}
