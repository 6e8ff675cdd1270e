// The tooling checks' fixtures: a folder of source files each test writes, removed after it.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface SourceTree {
  /** The current test's folder. */
  folder(): string;
  /** Writes each file (a path relative to the folder, folders made as needed) with its text. */
  write(files: Record<string, string>): void;
}

/** A fresh folder for each test of the calling describe(); `prefix` names it in the temporary folder. */
export function useSourceTree(prefix: string): SourceTree {
  let folder = '';
  beforeEach(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  });
  afterEach(() => {
    fs.rmSync(folder, { recursive: true, force: true });
  });
  return {
    folder: () => folder,
    write(files) {
      for (const [name, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(folder, name)), { recursive: true });
        fs.writeFileSync(path.join(folder, name), text);
      }
    },
  };
}
