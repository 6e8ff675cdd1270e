// `npm run lint` keeps src/vscode one way to wire a feature (scripts/vscode-areas.ts): area
// folders, each with one register.ts that only extension.ts calls, a shared/ library, and types
// across areas only through types.ts.

import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { areaViolations } from '../../../scripts/vscode-areas';
import { useSourceTree } from './source-tree';

describe('src/vscode areas', () => {
  const { folder, write } = useSourceTree('vscode-areas-');

  /** Two areas wired the allowed ways: `tree` needs `skills`' host, and everyone uses shared/. */
  const WIRED = {
    'extension.ts': "import { register as registerSkills } from './skills/register';\nimport { register as registerTree } from './tree/register';\nimport { internal } from './tree/rows';\n",
    'api.ts': "import type { Host } from './skills/types';\nimport { COMMANDS } from './shared/manifest';\n",
    'side-bundles.ts': "export const treeOnDemand = (): typeof import('./tree/on-demand') => require('./tree/on-demand');\n",
    'shared/manifest.ts': "import { Disposable } from './disposable';\nexport const COMMANDS = {};\n",
    'shared/disposable.ts': 'export class Disposable {}\n',
    'skills/register.ts': "import { Host } from './host';\nexport function register(): Host { return new Host(); }\n",
    'skills/host.ts': 'export class Host {}\n',
    'skills/types.ts': "import type { Host } from './host';\nexport type { Host } from './host';\nexport interface Skills { host: Host }\n",
    'tree/register.ts':
      "import type { Host } from '../skills/types';\nimport { type Skills } from '../skills/types';\nimport { treeOnDemand } from '../side-bundles';\nimport { COMMANDS } from '../shared/manifest';\nexport function register(host: Host, skills: Skills): void {}\n",
    'tree/rows.ts': "import { Disposable } from '../shared/disposable';\nexport const internal = 1;\n",
    'tree/on-demand.ts': "export { internal } from './rows';\n",
  };

  it('accepts areas that reach each other only through register handles, types.ts and shared/', () => {
    write(WIRED);
    assert.deepEqual(areaViolations(folder()), []);
  });

  it("finds an area importing another area's module, its register.ts, or its types.ts as a value", () => {
    write({
      ...WIRED,
      'tree/rows.ts':
        "import { Host } from '../skills/host';\nimport { register } from '../skills/register';\nimport { Skills } from '../skills/types';\nexport const viaRequire = () => require('../skills/host');\n",
    });
    assert.deepEqual(areaViolations(folder()), [
      'tree/rows.ts: imports ../skills/host: skills/host.ts is inside the skills area: take its handle from extension.ts, or name its types through skills/types.ts',
      'tree/rows.ts: imports ../skills/register: only extension.ts calls skills/register.ts: take the handle it passes instead',
      'tree/rows.ts: imports ../skills/types: skills/types.ts is named with `import type` only',
      'tree/rows.ts: imports ../skills/host: skills/host.ts is inside the skills area: take its handle from extension.ts, or name its types through skills/types.ts',
    ]);
  });

  it("counts a type-only import of another area's internals, and a re-export of them", () => {
    write({ ...WIRED, 'tree/rows.ts': "import type { Host } from '../skills/host';\nexport { Host as Again } from '../skills/host';\n" });
    assert.equal(areaViolations(folder()).length, 2);
  });

  it('finds shared/ using an area, an area using a top file other than side-bundles.ts, and side bundles loaded from elsewhere', () => {
    write({
      ...WIRED,
      'shared/manifest.ts': "import type { Host } from '../skills/types';\n",
      'skills/host.ts': "import { createApi } from '../api';\nexport const load = () => require('../tree/on-demand');\n",
    });
    assert.deepEqual(areaViolations(folder()), [
      'shared/manifest.ts: imports ../skills/types: shared/ is the library every area uses: it uses no area',
      'skills/host.ts: imports ../api: only extension.ts uses api.ts',
      'skills/host.ts: imports ../tree/on-demand: tree/on-demand.ts is inside the tree area: take its handle from extension.ts, or name its types through tree/types.ts',
    ]);
  });

  it('finds a loose file at the top, an area without register.ts, and a types.ts holding code', () => {
    write({ ...WIRED, 'settings.ts': 'export const x = 1;\n', 'usage/usage.ts': 'export const y = 1;\n', 'skills/types.ts': 'export const host = 1;\n' });
    assert.deepEqual(areaViolations(folder()), [
      'settings.ts: a file of src/vscode belongs in an area folder (only extension.ts, deferred.ts, api.ts, side-bundles.ts stay at the top)',
      'usage/: an area has one entry, register.ts, and this one has none',
      'skills/types.ts: a types.ts declares and re-exports types only',
    ]);
  });

  it('src/vscode keeps to it', () => {
    assert.deepEqual(areaViolations(path.resolve(__dirname, '..', '..', '..', 'src', 'vscode')), []);
  });
});
