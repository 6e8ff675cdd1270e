// The `agent-skills` executable (dist/agent-skills.js): the command line itself on every Node the
// product supports, and compiled code kept for a later start: on a Node with a compile cache (22.1
// and later), that cache turned on; on Node 20, V8's code cache kept by src/cli/code-cache.ts.

import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as nodeModule from 'node:module';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { nodeBinaryPath } from '../../../scripts/harness/vscode-server';
import { codeCacheFolder } from '../../../src/cli/code-cache';
import { BUNDLE, ensureBundle, REPOSITORY } from './bundle';
import { removeDir, skillText, tempDir, writeTree } from '../../fixtures/trees/tree';

const LAUNCHER = path.join(REPOSITORY, 'dist', 'agent-skills.js');

/** Runs `script` with `node`, the temporary folder (where Node keeps its compile cache by default) in `tmp`. */
async function run(node: string, script: string, args: string[], tmp: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmp, TMP: tmp, TEMP: tmp };
  delete env.NODE_COMPILE_CACHE;
  delete env.NODE_DISABLE_COMPILE_CACHE;
  const { stdout } = await promisify(execFile)(node, [script, ...args], { env: { ...env, ...extraEnv } });
  return stdout;
}

/** This Node has no compile cache of its own (before 22.1): the executable keeps V8's code cache itself. */
const KEEPS_ITS_OWN_CACHE = !('enableCompileCache' in nodeModule);

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

  it('keeps a command’s young generation at its first size however much it reads, where dist/cli.js alone lets it grow', async () => {
    // Each process reports, as it exits, how large V8's young generation (new space) has become.
    const probe = path.join(tmp, 'young-generation-probe.js');
    const report = path.join(tmp, 'young-generation.txt');
    await fs.promises.writeFile(
      probe,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(report)}, String(require('node:v8').getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size)));`,
    );
    const youngGeneration = async (script: string, tree: string): Promise<number> => {
      await run(process.execPath, script, ['validate', '--json', tree], tmp, { NODE_OPTIONS: `--require ${JSON.stringify(probe)}` });
      return Number(await fs.promises.readFile(report, 'utf8'));
    };
    const oneSkill = path.join(tmp, 'one-skill');
    const manySkills = path.join(tmp, 'many-skills');
    await writeTree(oneSkill, { 'only-skill/SKILL.md': skillText('only-skill', 'Does the one task there is when asked.') });
    const body = 'A line of instructions that the validator reads and checks.\n'.repeat(150);
    await writeTree(manySkills, Object.fromEntries(Array.from({ length: 300 }, (_, index) => [`skill-${index}/SKILL.md`, skillText(`skill-${index}`, `Does task ${index} when asked for it.`, body)])));

    const firstSize = await youngGeneration(LAUNCHER, oneSkill);
    assert.equal(await youngGeneration(LAUNCHER, manySkills), firstSize);
    assert.ok((await youngGeneration(BUNDLE, manySkills)) > firstSize, 'the 300 skills do not make the young generation grow without the executable’s flags');
  });

  describe('on a Node without a compile cache', () => {
    let cacheRoot: string;
    let skills: string;
    beforeEach(async function () {
      if (!KEEPS_ITS_OWN_CACHE) {
        this.skip();
      }
      cacheRoot = await tempDir();
      skills = path.join(REPOSITORY, 'skills');
    });
    afterEach(async () => cacheRoot && removeDir(cacheRoot));

    const cacheFiles = (folder: string): string[] => (fs.existsSync(folder) ? fs.readdirSync(folder).sort() : []);

    it('keeps the compiled code of each command in a folder only its user may write, and reuses it unchanged', async () => {
      const env = { NODE_COMPILE_CACHE: cacheRoot };
      const folder = path.join(cacheRoot, 'agent-skills');
      const expected = await run(process.execPath, BUNDLE, ['validate', '--json', skills], tmp);
      assert.equal(await run(process.execPath, LAUNCHER, ['validate', '--json', skills], tmp, env), expected);
      const [kept, ...others] = cacheFiles(folder);
      assert.match(kept, /^cli\.js-[0-9a-f]{8}-\d+-\d+-v[\d.]+-\w+-validate\.cache$/);
      assert.deepEqual(others, []);
      assert.equal(fs.statSync(folder).mode & 0o777, 0o700);
      assert.equal(fs.statSync(path.join(folder, kept)).mode & 0o777, 0o600);
      const first = fs.statSync(path.join(folder, kept));

      assert.equal(await run(process.execPath, LAUNCHER, ['validate', '--json', skills], tmp, env), expected);
      assert.equal(fs.statSync(path.join(folder, kept)).mtimeMs, first.mtimeMs, 'a start that used the cache wrote it again');
      assert.match(await run(process.execPath, LAUNCHER, ['--help'], tmp, env), /^agent-skills \d+\.\d+\.\d+: /);
      assert.deepEqual(cacheFiles(folder), [kept.replace('-validate.', '-other.'), kept].sort(), 'each command keeps its own');
    });

    it('runs as usual from a damaged cache and replaces it, and drops the caches of other builds of the same copy', async () => {
      const env = { NODE_COMPILE_CACHE: cacheRoot };
      const folder = path.join(cacheRoot, 'agent-skills');
      await run(process.execPath, LAUNCHER, ['--version'], tmp, env);
      const [kept] = cacheFiles(folder);
      const garbage = Buffer.alloc(4096, 7);
      fs.writeFileSync(path.join(folder, kept), garbage);
      const copy = /^cli\.js-[0-9a-f]{8}-/.exec(kept)![0];
      fs.writeFileSync(path.join(folder, `${copy}1-2-v20.0.0-x64-other.cache`), garbage);
      const otherCopy = 'cli.js-0badc0de-1-2-v20.0.0-x64-other.cache';
      fs.writeFileSync(path.join(folder, otherCopy), garbage);

      assert.match(await run(process.execPath, LAUNCHER, ['--version'], tmp, env), /^\d+\.\d+\.\d+\n$/);
      assert.deepEqual(cacheFiles(folder), [otherCopy, kept].sort(), 'the cache of another build of the same copy is dropped, that of another copy kept');
      assert.notDeepEqual(fs.readFileSync(path.join(folder, kept)), garbage);
    });

    it('keeps nothing when turned off, or in a folder others may write to', async () => {
      await run(process.execPath, LAUNCHER, ['--version'], tmp, { NODE_COMPILE_CACHE: cacheRoot, NODE_DISABLE_COMPILE_CACHE: '1' });
      assert.deepEqual(cacheFiles(cacheRoot), []);

      const shared = path.join(cacheRoot, 'agent-skills');
      fs.mkdirSync(shared, { mode: 0o777 });
      fs.chmodSync(shared, 0o777);
      assert.equal(codeCacheFolder({ NODE_COMPILE_CACHE: cacheRoot }), undefined);
      assert.match(await run(process.execPath, LAUNCHER, ['--version'], tmp, { NODE_COMPILE_CACHE: cacheRoot }), /^\d+\.\d+\.\d+\n$/);
      assert.deepEqual(cacheFiles(shared), []);
      fs.chmodSync(shared, 0o700);
      assert.equal(codeCacheFolder({ NODE_COMPILE_CACHE: cacheRoot }), shared);
    });
  });
});
