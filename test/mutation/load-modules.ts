// Loaded by Stryker's test runner before the first test (stryker.config.json, mochaOptions.require):
// every module of src/core and src/cli, so each module's top-level code (constants, tables) runs
// outside any test. Stryker then sees those mutants as static, which a module loaded later cannot
// be: `agent-skills` requires a command's module when the command first runs, inside some test,
// and a mutant switched on after that load never changes the value the module already computed.
// The entry point (src/cli/main.ts) is left out: it runs the command line on load.

import * as fs from 'node:fs';
import * as path from 'node:path';

// Tests run git in folders they make. A mutant that drops such a call's folder runs git in
// Stryker's sandbox, which lies inside this repository: without a ceiling, git would find this
// repository from there and fetch or check out into it.
process.env.GIT_CEILING_DIRECTORIES = path.dirname(path.resolve(__dirname, '..', '..'));

const SOURCE_FOLDERS = ['src/core', 'src/cli'];
const ENTRY_POINT = path.join('src', 'cli', 'main.ts');

function modulesUnder(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(folder, entry.name);
    return entry.isDirectory() ? modulesUnder(file) : entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

for (const module of SOURCE_FOLDERS.flatMap((folder) => modulesUnder(folder))) {
  if (module !== ENTRY_POINT) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loading every module up front is the point
    require(path.resolve(module));
  }
}
