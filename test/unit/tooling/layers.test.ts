// The architecture's layers are lint rules (eslint.config.mjs): this lints imports that cross a
// layer as if they were written in a real file of each layer, and expects exactly those to fail.

import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { ESLint } from 'eslint';

const repositoryRoot = path.resolve(__dirname, '..', '..', '..');
const eslint = new ESLint({ cwd: repositoryRoot, ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-imports' });

/** The layer-rule messages for `imports` written at the top of the existing file `file`. */
async function layerViolations(file: string, imports: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${imports}\nexport const probe = 1;\n`, { filePath: path.join(repositoryRoot, file) });
  return result.messages.map((message) => message.message);
}

describe('layer rules', function () {
  // Type-aware linting starts a TypeScript project service on first use.
  this.timeout(60_000);

  it('src/core imports neither vscode, the editor glue, the command line, the tests nor the scripts', async () => {
    const file = 'src/core/util/text.ts';
    for (const forbidden of [
      "import * as vscode from 'vscode';",
      "import { COMMANDS } from '../../vscode/manifest';",
      "import { runCli } from '../../cli/run';",
      "import { fakeSnapshot } from '../../../test/unit/fake-snapshot';",
      "import { repositoryRoot } from '../../../scripts/harness/repository';",
    ]) {
      assert.equal((await layerViolations(file, forbidden)).length, 1, forbidden);
    }
    assert.deepEqual(await layerViolations(file, "import * as path from 'node:path';\nimport { errorMessage } from './errors';"), []);
  });

  it('src/cli runs without the editor: no vscode, no editor glue', async () => {
    const file = 'src/cli/io.ts';
    assert.equal((await layerViolations(file, "import * as vscode from 'vscode';")).length, 1);
    assert.equal((await layerViolations(file, "import { COMMANDS } from '../vscode/manifest';")).length, 1);
    assert.deepEqual(await layerViolations(file, "import { errorMessage } from '../core/util/errors';"), []);
  });

  it('src/cli takes the MCP libraries only through src/cli/mcp/libraries.ts, which the build bundles apart', async () => {
    for (const forbidden of ["import { McpServer } from '@modelcontextprotocol/server';", "import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';"]) {
      assert.equal((await layerViolations('src/cli/mcp/skills-server.ts', forbidden)).length, 1, forbidden);
    }
    assert.deepEqual(
      await layerViolations('src/cli/mcp/libraries.ts', "export { McpServer } from '@modelcontextprotocol/server';\nexport { serveStdio } from '@modelcontextprotocol/server/stdio';"),
      [],
    );
    assert.equal((await layerViolations('src/cli/mcp/libraries.ts', "import * as vscode from 'vscode';")).length, 1);
  });

  it('src/vscode does not reach into the command line or the tests', async () => {
    const file = 'src/vscode/shared/convert.ts';
    assert.equal((await layerViolations(file, "import { runCli } from '../cli/run';")).length, 1);
    assert.equal((await layerViolations(file, "import { fakeSnapshot } from '../../test/unit/fake-snapshot';")).length, 1);
    assert.deepEqual(await layerViolations(file, "import * as vscode from 'vscode';\nimport { errorMessage } from '../core/util/errors';"), []);
  });

  it("no layer writes YAML or reads it with JavaScript types: the bundles keep only js-yaml's safe reading", async () => {
    for (const file of ['src/core/skill-file/fixes.ts', 'src/cli/io.ts', 'src/vscode/shared/convert.ts']) {
      for (const forbidden of ['safeDump', 'dump', 'load']) {
        assert.equal((await layerViolations(file, `import { ${forbidden} } from 'js-yaml';`)).length, 1, `${forbidden} in ${file}`);
      }
      assert.deepEqual(await layerViolations(file, "import { safeLoad } from 'js-yaml';"), [], file);
    }
  });

  it('scripts and the bench do not import test suites', async () => {
    assert.equal((await layerViolations('scripts/test.ts', "import './../test/integration/suites/smoke/activation.test';")).length, 1);
    assert.equal((await layerViolations('bench/run.ts', "import '../test/unit/core/use/find.test';")).length, 1);
    assert.deepEqual(await layerViolations('scripts/test.ts', "import { integrationSuites } from '../test/integration/registry';"), []);
  });
});
