// The watcher behind `agent-skills mcp`: what it reports of the files under its roots, and a root
// that does not exist yet (a new user's ~/.agent/skills), reported once it appears, however deep
// and however fast it is made. Through the real file watcher, on temporary folders.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { logWatchFailures } from '../../../../src/cli/mcp/folder-tree-watcher';
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

  /** Writes the skill `review` into `root` and waits until its SKILL.md is reported; `where` names the root in a failure. */
  async function writeReviewSkill(root: string, where: string): Promise<void> {
    const file = path.join(root, 'review', 'SKILL.md');
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, skillText('review', 'Reviews.'));
    await waitFor(() => reported(file), `a SKILL.md in ${where}`);
  }

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
    await writeReviewSkill(root, 'the new root');
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

  it('follows a missing root when the folder it waits in goes away before the root appears', async () => {
    const root = path.join(dir, 'a', 'b', 'skills');
    await start([root]).ready;
    await fs.mkdir(path.join(dir, 'a'));
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    await fs.rm(path.join(dir, 'a'), { recursive: true });
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    await fs.mkdir(root, { recursive: true });
    await waitFor(() => has(root, 'created'), 'the root made after the folder on its way went and came back');
  });

  it('watches each folder once, not each file, and reports a change however deep', async () => {
    const watches = (): number => process.getActiveResourcesInfo().filter((resource) => resource === 'FSEventWrap').length;
    const before = watches();
    const root = path.join(dir, 'skills');
    const folders = ['deploy', 'review', path.join('review', 'references'), path.join('review', 'references', 'deep')];
    for (const folder of folders) {
      await fs.mkdir(path.join(root, folder), { recursive: true });
      for (let file = 0; file < 10; file++) {
        await fs.writeFile(path.join(root, folder, `file-${file}.md`), 'text');
      }
    }
    // The same folders again through a second root inside the first: no watch twice.
    await start([root, path.join(root, 'review')]).ready;
    assert.equal(watches() - before, 1 + folders.length, 'one watch per folder, the root included');
    const deepFile = path.join(root, 'review', 'references', 'deep', 'file-3.md');
    await fs.writeFile(deepFile, 'changed');
    await waitFor(() => has(deepFile, 'changed'), 'the changed file four folders down');
  });

  it('reports the files of a folder made and filled at once', async () => {
    const root = path.join(dir, 'skills');
    await fs.mkdir(root);
    await start([root]).ready;
    const file = path.join(root, 'deploy', 'references', 'guide.md');
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, 'guide');
    await waitFor(() => reported(file), 'the file written as its folders were made');
    await fs.writeFile(file, 'guide, changed');
    await waitFor(() => has(file, 'changed'), 'a later change to it');
  });

  it('watches a folder put in the place of a watched one, as a tool that swaps in a new version does', async () => {
    const root = path.join(dir, 'skills');
    await fs.mkdir(path.join(root, 'deploy'), { recursive: true });
    await fs.writeFile(path.join(root, 'deploy', 'SKILL.md'), skillText('deploy', 'Deploys.'));
    const prepared = path.join(dir, 'prepared');
    await fs.mkdir(path.join(prepared, 'references'), { recursive: true });
    await fs.writeFile(path.join(prepared, 'SKILL.md'), skillText('deploy', 'Deploys, new version.'));
    await fs.writeFile(path.join(prepared, 'references', 'guide.md'), 'guide');
    await start([root]).ready;
    await fs.rename(path.join(root, 'deploy'), path.join(dir, 'old-deploy'));
    await fs.rename(prepared, path.join(root, 'deploy'));
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    changes = [];
    const guide = path.join(root, 'deploy', 'references', 'guide.md');
    await fs.writeFile(guide, 'guide, changed');
    await waitFor(() => has(guide, 'changed'), 'a change in the folder swapped in');
    await fs.writeFile(path.join(dir, 'old-deploy', 'SKILL.md'), 'moved away');
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    assert.ok(!changes.some((change) => change.path.includes('old-deploy') || change.path === path.join(root, 'deploy', 'SKILL.md')), JSON.stringify(changes));
  });

  it('reports a root that goes away, and follows it when it comes back', async () => {
    const root = path.join(dir, 'skills');
    await fs.mkdir(path.join(root, 'deploy'), { recursive: true });
    await start([root]).ready;
    await fs.rm(root, { recursive: true });
    await waitFor(() => has(root, 'deleted'), 'the root reported as deleted');
    await fs.mkdir(root);
    await waitFor(() => has(root, 'created'), 'the root reported as created when it is back');
    await writeReviewSkill(root, 'the root that came back');
  });

  it('watches a root anew when another folder is renamed into its place', async () => {
    const root = path.join(dir, 'skills');
    await fs.mkdir(path.join(root, 'deploy'), { recursive: true });
    const prepared = path.join(dir, 'prepared');
    await fs.mkdir(path.join(prepared, 'review'), { recursive: true });
    await start([root]).ready;
    await fs.rename(root, path.join(dir, 'old-skills'));
    await fs.rename(prepared, root);
    await waitFor(() => has(root, 'created'), 'the root reported as created once replaced');
    await writeReviewSkill(root, 'the folder that took the place of the root');
    await fs.writeFile(path.join(dir, 'old-skills', 'deploy', 'SKILL.md'), 'moved away');
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    assert.ok(!changes.some((change) => change.path === path.join(root, 'deploy', 'SKILL.md')), JSON.stringify(changes));
  });

  it('follows links: a linked folder is watched at the link, a linked SKILL.md reports edits of its target, a loop ends', async () => {
    const root = path.join(dir, 'skills');
    const elsewhere = path.join(dir, 'elsewhere');
    await fs.mkdir(path.join(elsewhere, 'shared'), { recursive: true });
    await fs.mkdir(path.join(root, 'linked-file'), { recursive: true });
    await fs.writeFile(path.join(elsewhere, 'SKILL.md'), skillText('linked-file', 'Linked.'));
    await fs.symlink(path.join(elsewhere, 'shared'), path.join(root, 'shared'));
    await fs.symlink(path.join(elsewhere, 'SKILL.md'), path.join(root, 'linked-file', 'SKILL.md'));
    await fs.symlink(root, path.join(root, 'linked-file', 'loop'));
    await start([root]).ready;
    await fs.writeFile(path.join(elsewhere, 'shared', 'SKILL.md'), skillText('shared', 'Shared.'));
    await waitFor(() => reported(path.join(root, 'shared', 'SKILL.md')), 'a file made in the linked folder, at the link');
    await fs.writeFile(path.join(elsewhere, 'SKILL.md'), skillText('linked-file', 'Linked, changed.'));
    await waitFor(() => has(path.join(root, 'linked-file', 'SKILL.md'), 'changed'), 'the linked SKILL.md changed at its target');
    // Saved as editors save: a new file renamed over the target. Its later edits are still seen.
    await fs.writeFile(path.join(elsewhere, 'SKILL.md.tmp'), skillText('linked-file', 'Saved by rename.'));
    await fs.rename(path.join(elsewhere, 'SKILL.md.tmp'), path.join(elsewhere, 'SKILL.md'));
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    changes = [];
    await fs.writeFile(path.join(elsewhere, 'SKILL.md'), skillText('linked-file', 'Edited after the rename.'));
    await waitFor(() => has(path.join(root, 'linked-file', 'SKILL.md'), 'changed'), 'an edit of the target that replaced the first');
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

  it('keeps watching a root inside a dropped root, and nothing else of the dropped one', async () => {
    const outer = path.join(dir, 'skills');
    const inner = path.join(outer, 'team');
    await fs.mkdir(path.join(inner, 'deploy'), { recursive: true });
    await fs.mkdir(path.join(outer, 'review'));
    const w = start([outer, inner]);
    await w.ready;
    w.setRoots([inner]);
    await fs.writeFile(path.join(outer, 'review', 'SKILL.md'), 'review');
    const kept = path.join(inner, 'deploy', 'SKILL.md');
    await fs.writeFile(kept, 'deploy');
    await waitFor(() => reported(kept), 'a file in the inner root');
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    assert.ok(!changes.some((change) => change.path.startsWith(path.join(outer, 'review'))), JSON.stringify(changes));
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

describe('logWatchFailures', () => {
  const failure = (code: string): NodeJS.ErrnoException => Object.assign(new Error(`${code}: failed`), { code });

  it('names the first folder of each kind of failure once, and at the limit of watches the setting to raise', () => {
    const lines: string[] = [];
    const failed = logWatchFailures((line) => lines.push(line));
    failed('/skills/a', failure('ENOSPC'));
    failed('/skills/b', failure('ENOSPC'));
    failed('/skills/c', failure('EMFILE'));
    failed('/skills/d', failure('EMFILE'));
    assert.equal(lines.length, 2, lines.join('\n'));
    assert.match(lines[0], /^cannot watch \/skills\/a for changes, nor the folders after it: .*fs\.inotify\.max_user_watches.*until the server restarts\.$/);
    assert.match(lines[1], /^cannot watch \/skills\/c for changes \(EMFILE; other folders that fail alike are not named\)\./);
  });
});
