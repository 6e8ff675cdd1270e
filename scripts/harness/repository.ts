// The repository's root folder, found from the running module: the nearest folder above it that
// holds package.json. It holds whether the module runs from its source (tsx) or bundled into out/.
import * as fs from 'node:fs';
import * as path from 'node:path';

export function findRepositoryRoot(start: string): string {
  for (let folder = start; ; folder = path.dirname(folder)) {
    if (fs.existsSync(path.join(folder, 'package.json'))) {
      return folder;
    }
    if (path.dirname(folder) === folder) {
      throw new Error(`No package.json above ${start}.`);
    }
  }
}

export const repositoryRoot = findRepositoryRoot(__dirname);
