// What `agent-skills` evaluates before it runs any command: the entry and the modules it imports
// statically. Each command's modules are required when the command runs (src/cli/run.ts), so
// `--help` costs what this graph costs; the libraries that parse and check skills (zod, js-yaml,
// gray-matter) take a fifth of a start to set up and are for the commands alone.

import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { REPOSITORY } from './bundle';

/** The repository paths of the modules evaluated at start: a `require()` (a command loaded on demand) is not followed. */
async function modulesEvaluatedAtStart(): Promise<string[]> {
  const result = await esbuild.build({
    entryPoints: [path.join(REPOSITORY, 'src', 'cli', 'main.ts')],
    absWorkingDir: REPOSITORY,
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'cjs',
    logLevel: 'silent',
    mainFields: ['module', 'main'],
    plugins: [
      {
        name: 'commands-on-demand',
        setup(build) {
          build.onResolve({ filter: /.*/ }, (args) => (args.kind === 'require-call' ? { path: args.path, external: true } : undefined));
        },
      },
    ],
  });
  return Object.keys(result.metafile.inputs);
}

describe('agent-skills start-up', () => {
  it('evaluates no schema, YAML or front-matter library before a command needs one (--help prints without them)', async () => {
    const modules = await modulesEvaluatedAtStart();
    assert.ok(modules.includes('src/cli/help.ts'), `the graph of src/cli/main.ts misses the help text: ${modules.join(', ')}`);
    const libraries = modules.filter((module) => /(^|\/)node_modules\/(zod|js-yaml|gray-matter)\//.test(module));
    assert.deepEqual(libraries, []);
  });
});
