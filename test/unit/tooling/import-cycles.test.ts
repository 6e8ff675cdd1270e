// `npm run lint` fails on any circle of imports among the files of src/ (scripts/import-cycles.ts).

import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { findImportCycles } from '../../../scripts/import-cycles';
import { useSourceTree } from './source-tree';

describe('import cycles', () => {
  const { folder, write } = useSourceTree('import-cycles-');

  it('finds two files that import each other, even when one import is only of a type', () => {
    write({
      'a.ts': "import type { B } from './b';\nexport interface A { b: B }\n",
      'b.ts': "import { a } from './a';\nexport type B = typeof a;\n",
      'c.ts': "import type { A } from './a';\nexport type C = A;\n",
    });
    assert.deepEqual(findImportCycles(folder()), [['a.ts', 'b.ts', 'a.ts']]);
  });

  it('follows re-exports, require(), import() and index files across folders', () => {
    write({
      'one/index.ts': "export { two } from '../two';\n",
      'two.ts': "export const two = (): unknown => require('./three');\n",
      'three.ts': "export const three = () => import('./one');\n",
    });
    assert.deepEqual(findImportCycles(folder()), [['one/index.ts', 'two.ts', 'three.ts', 'one/index.ts']]);
  });

  it('reports each circle once, and nothing for imports that only go one way', () => {
    write({
      'a.ts': "import './b';\n",
      'b.ts': "import './a';\nimport 'node:path';\nimport './missing';\n",
      'c.ts': "import './a';\nimport './d';\n",
      'd.ts': "import './e';\n",
      'e.ts': "import './d';\n",
      'f.ts': "import './c';\n",
    });
    assert.deepEqual(findImportCycles(folder()), [
      ['a.ts', 'b.ts', 'a.ts'],
      ['d.ts', 'e.ts', 'd.ts'],
    ]);
  });

  it('src/ has no import cycle', function () {
    this.timeout(30_000);
    assert.deepEqual(findImportCycles(path.resolve(__dirname, '..', '..', '..', 'src')), []);
  });
});
