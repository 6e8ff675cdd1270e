// The `agent-skills` executable (dist/agent-skills.js): the command line itself on every Node the
// product supports, and on a Node with a compile cache (22.1 and later), that cache turned on, so a
// later start reads the bundles' compiled code instead of compiling them again.

import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { nodeBinaryPath } from '../../../scripts/harness/vscode-server';
import { BUNDLE, ensureBundle, REPOSITORY } from './bundle';
import { removeDir, tempDir } from '../../fixtures/trees/tree';

const LAUNCHER = path.join(REPOSITORY, 'dist', 'agent-skills.js');

/** Runs `script` with `node`, the temporary folder (where Node keeps its compile cache by default) in `tmp`. */
async function run(node: string, script: string, args: string[], tmp: string): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmp, TMP: tmp, TEMP: tmp };
  delete env.NODE_COMPILE_CACHE;
  delete env.NODE_DISABLE_COMPILE_CACHE;
  const { stdout } = await promisify(execFile)(node, [script, ...args], { env });
  return stdout;
}

/** This Node when it has a compile cache, else the Node 24 the integration harness keeps (npm run test:integration installs it). */
function nodeWithCompileCache(): string | undefined {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major > 22 || (major === 22 && minor >= 1)) {
    return process.execPath;
  }
  return fs.existsSync(nodeBinaryPath()) ? nodeBinaryPath() : undefined;
}

describe('agent-skills executable', function () {
  this.timeout(60000);
  let tmp: string;

  before(async () => {
    await ensureBundle();
    tmp = await tempDir();
  });

  after(async () => removeDir(tmp));

  it('runs the command line on this Node, printing what dist/cli.js prints', async () => {
    const help = await run(process.execPath, LAUNCHER, ['--help'], tmp);
    assert.match(help, /^agent-skills \d+\.\d+\.\d+: /);
    assert.equal(help, await run(process.execPath, BUNDLE, ['--help'], tmp));
  });

  it('turns on Node’s compile cache where Node has one, which dist/cli.js alone leaves off', async function () {
    const node = nodeWithCompileCache();
    if (!node) {
      this.skip();
    }
    const cache = path.join(tmp, 'node-compile-cache');
    await run(node!, BUNDLE, ['--version'], tmp);
    assert.equal(fs.existsSync(cache), false, 'dist/cli.js run alone wrote a compile cache');
    assert.match(await run(node!, LAUNCHER, ['--version'], tmp), /^\d+\.\d+\.\d+\n$/);
    const cached = fs.readdirSync(cache, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
    assert.ok(cached.length > 0, 'the executable left no compiled code in the cache');
  });
});
