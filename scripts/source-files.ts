// What the lint checks over src/ (import-cycles.ts, vscode-areas.ts) agree on: which files are
// source files, and which file an import's relative specifier names.

import * as fs from 'node:fs';
import * as path from 'node:path';

const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts'];

/** The source files under `folder` (declaration files aside), as absolute paths, sorted. */
export function sourceFiles(folder: string): string[] {
  return fs
    .readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => SOURCE_EXTENSIONS.includes(path.extname(name)) && !name.endsWith('.d.ts'))
    .map((name) => path.join(folder, name))
    .sort();
}

/** `./a` is `./a.ts` or `./a/index.ts`; a `.js` suffix written for ESM output names the `.ts` file. */
export function resolveSourceFile(base: string): string | undefined {
  const stem = base.replace(/\.[cm]?js$/, '');
  const candidates = [base, ...SOURCE_EXTENSIONS.map((extension) => stem + extension), ...SOURCE_EXTENSIONS.map((extension) => path.join(base, `index${extension}`))];
  return candidates.find((candidate) => SOURCE_EXTENSIONS.includes(path.extname(candidate)) && isFile(candidate));
}

function isFile(candidate: string): boolean {
  try {
    return fs.statSync(candidate).isFile();
  } catch {
    // Missing, or a path through a file (package.json/index.ts).
    return false;
  }
}
