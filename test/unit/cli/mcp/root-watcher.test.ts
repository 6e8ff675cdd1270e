// The watcher behind `agent-skills mcp`: what it reports of the files under its roots, and a root
// that does not exist yet (a new user's ~/.agent/skills), reported once it appears, however deep
// and however fast it is made. Through the real file watcher, on temporary folders.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { RootWatcher } from '../../../../src/cli/mcp/root-watcher';
import type { SkillChange } from '../../../../src/core/discovery/registry';
import { removeDir, skillText, tempDir } from '../../../fixtures/trees/tree';
import { waitFor } from './wait';

/** Long enough for a watcher event and the coalescer's quiet time; a report would have come by then. */
const SETTLE_MS = 600;

describe('RootWatcher (agent-skills mcp)', function () {
  this.timeout(30_000);
  let dir: string;
  let watcher: RootWatcher | undefined;
  let changes: SkillChange[];

  beforeEach(async () => {
    dir = await tempDir();
    changes = [];
  });

  afterEach(async () => {
    await watcher?.dispose();
    watcher = undefined;
    await removeDir(dir);
  });

  function start(roots: string[]): RootWatcher {
    watcher = new RootWatcher(roots, (batch) => changes.push(...batch));
    return watcher;
  }

  const has = (file: string, kind: SkillChange['kind']): boolean => changes.some((change) => change.path === file && change.kind === kind);
  /** A new file may be reported as created or as changed (the watcher sees the write after the creation). */
  const reported = (file: string): boolean => changes.some((change) => change.path === file && change.kind !== 'deleted');

  it('reports a SKILL.md created, changed and deleted under a root, and nothing under node_modules', async () => {
    const root = path.join(dir, 'skills');
    await fs.mkdir(path.join(root, 'node_modules', 'pkg'), { recursive: true });
    await start([root]).ready;
    const file = path.join(root, 'deploy', 'SKILL.md');
    await fs.mkdir(path.dirname(file));
    await fs.writeFile(file, skillText('deploy', 'Deploys.'));
    await waitFor(() => reported(file), 'the created SKILL.md');
    await fs.writeFile(path.join(root, 'node_modules', 'pkg', 'SKILL.md'), skillText('pkg', 'A dependency.'));
    await fs.writeFile(file, skillText('deploy', 'Deploys, changed.'));
    await waitFor(() => has(file, 'changed'), 'the changed SKILL.md');
    await fs.rm(path.dirname(file), { recursive: true });
    await waitFor(() => has(path.dirname(file), 'deleted'), 'the deleted skill folder');
    assert.ok(!changes.some((change) => change.path.includes('node_modules')), JSON.stringify(changes));
  });

  it('reports a missing root as created when it appears, one level at a time, then the files in it', async () => {
    const root = path.join(dir, 'home', '.agent', 'skills');
    await start([root]).ready;
    await fs.mkdir(path.join(dir, 'home'));
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    await fs.mkdir(path.join(dir, 'home', '.agent'));
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    assert.deepEqual(changes, [], 'nothing to report before the root itself exists');
    await fs.mkdir(root);
    await waitFor(() => has(root, 'created'), 'the root reported as created');
    const file = path.join(root, 'review', 'SKILL.md');
    await fs.mkdir(path.dirname(file));
    await fs.writeFile(file, skillText('review', 'Reviews.'));
    await waitFor(() => reported(file), 'a SKILL.md in the new root');
  });

  it('reports a missing root made in one go (mkdir -p), and one that exists by the time the watcher is ready', async () => {
    const deep = path.join(dir, 'a', 'b', 'c');
    const early = path.join(dir, 'early');
    const w = start([deep, early]);
    await fs.mkdir(early);
    await w.ready;
    await fs.mkdir(deep, { recursive: true });
    await waitFor(() => has(deep, 'created') && has(early, 'created'), 'both roots reported as created');
  });

  it('follows the roots it is given later: a dropped root is no longer reported, an added one is', async () => {
    const kept = path.join(dir, 'kept');
    const dropped = path.join(dir, 'dropped');
    const added = path.join(dir, 'added');
    const missing = path.join(dir, 'missing');
    await Promise.all([kept, dropped, added].map((folder) => fs.mkdir(folder)));
    const w = start([kept, dropped, missing]);
    await w.ready;
    w.setRoots([kept, added]);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    await fs.writeFile(path.join(dropped, 'SKILL.md'), 'dropped');
    await fs.mkdir(missing);
    await fs.writeFile(path.join(added, 'SKILL.md'), 'added');
    await fs.writeFile(path.join(kept, 'SKILL.md'), 'kept');
    await waitFor(() => reported(path.join(added, 'SKILL.md')) && reported(path.join(kept, 'SKILL.md')), 'the kept and added roots');
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    assert.ok(!changes.some((change) => change.path.startsWith(dropped) || change.path.startsWith(missing)), JSON.stringify(changes));
  });

  it('follows a missing root it is given later until it appears, and reports an existing one only when something in it changes', async () => {
    const kept = path.join(dir, 'kept');
    const existing = path.join(dir, 'existing');
    const missing = path.join(dir, 'home', '.agent', 'skills');
    await Promise.all([kept, existing].map((folder) => fs.mkdir(folder)));
    const w = start([kept]);
    await w.ready;
    w.setRoots([kept, existing, missing]);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    assert.deepEqual(changes, [], 'a root added that already exists');
    await fs.mkdir(missing, { recursive: true });
    await waitFor(() => has(missing, 'created'), 'the missing root reported as created');
    const file = path.join(missing, 'review', 'SKILL.md');
    await fs.mkdir(path.dirname(file));
    await fs.writeFile(file, skillText('review', 'Reviews.'));
    await fs.writeFile(path.join(existing, 'SKILL.md'), 'existing');
    await waitFor(() => reported(file) && reported(path.join(existing, 'SKILL.md')), 'files in both added roots');
  });

  it('holds no file watch once disposed, also after its roots changed', async () => {
    const watches = (): number => process.getActiveResourcesInfo().filter((resource) => resource === 'FSEventWrap').length;
    const before = watches();
    const root = path.join(dir, 'skills');
    const missing = path.join(dir, 'later', 'skills');
    await fs.mkdir(root);
    const w = start([root, missing]);
    await w.ready;
    w.setRoots([root, missing]);
    w.setRoots([missing]);
    w.setRoots([root, missing]);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    assert.ok(watches() > before);
    await w.dispose();
    watcher = undefined;
    // Each watch is closed a moment after close() resolves.
    await waitFor(() => watches() === before, 'every file watch closed');
  });

  it('reports nothing once disposed, also of a missing root appearing', async () => {
    const root = path.join(dir, 'skills');
    const missing = path.join(dir, 'later');
    await fs.mkdir(root);
    const w = start([root, missing]);
    await w.ready;
    await w.dispose();
    watcher = undefined;
    await fs.writeFile(path.join(root, 'SKILL.md'), 'x');
    await fs.mkdir(missing);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    assert.deepEqual(changes, []);
  });
});
