// `agent-skills mcp --project DIR` follows the project as the editor follows a workspace folder: a
// skill location in a new sub-project is served as it appears, through the real watchers.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { startSkillsService } from '../../../../src/cli/mcp/mcp-command';
import { ProjectWatcher } from '../../../../src/cli/mcp/project-watcher';
import { MAX_SUBPROJECT_DEPTH } from '../../../../src/core/discovery/nested-locations';
import { projectRoots } from '../../../../src/core/discovery/project';
import { removeDir, root, skillText, tempDir, writeTree } from '../../../fixtures/trees/tree';
import { waitFor } from './wait';

describe('agent-skills mcp --project, following the project', function () {
  this.timeout(40_000);
  let dir: string;

  beforeEach(async () => {
    dir = await tempDir();
  });

  afterEach(async () => {
    await removeDir(dir);
  });

  it('serves a skill location that appears in a new package, later skills in it too, and drops it when the package goes', async () => {
    await writeTree(dir, {
      '.agent': { skills: { deploy: { 'SKILL.md': skillText('deploy', 'Deploy everything.') } } },
      packages: { web: { '.agent': { skills: { 'web-lint': { 'SKILL.md': skillText('web-lint', 'Lint the web app.') } } } } },
      typed: { 'typed-skill': { 'SKILL.md': skillText('typed-skill', 'From a ROOT argument.') } },
    });
    const project = await projectRoots(dir);
    const logs: string[] = [];
    const roots = [...project.roots, root(path.join(dir, 'typed'), 'env')];
    const service = await startSkillsService({ roots, project: project.folder, allowlist: [], catalogBudgetChars: 16_000, log: (message) => logs.push(message) });
    try {
      await Promise.all([service.watcher.ready, service.projectWatched]);
      const usable = (name: string): boolean => service.registry.snapshot.usable(name) !== undefined;
      assert.ok(usable('deploy') && usable('web-lint'));

      const billing = path.join(dir, 'packages', 'billing');
      const location = path.join(billing, '.agent', 'skills');
      // Written at once, as a checkout does.
      await writeTree(location, { invoice: { 'SKILL.md': skillText('invoice', 'Draft an invoice.') } });
      await waitFor(() => usable('invoice'), 'the skill of the new package');
      assert.equal(service.registry.snapshot.usable('invoice')?.root.package, 'packages/billing');
      assert.ok(logs.includes(`project locations: +${location}.`), logs.join('\n'));
      await writeTree(location, { refund: { 'SKILL.md': skillText('refund', 'Refund a payment.') } });
      await waitFor(() => usable('refund'), 'a second skill in the new location');

      await fs.rm(billing, { recursive: true, force: true });
      await waitFor(() => !usable('invoice') && !usable('refund'), 'the skills of the removed package to go');
      assert.ok(usable('deploy') && usable('web-lint') && usable('typed-skill'), 'the roots beside the project are kept');
      // The roots' watcher may see the skills go before the project's watcher sees the package go.
      await waitFor(() => logs.length === 2, 'the location dropped');
      assert.deepEqual(logs, [`project locations: +${location}.`, `project locations: -${location}.`]);
    } finally {
      await service.close();
    }
  });

  it('changes nothing when a folder that is no skill location appears, and says nothing', async () => {
    await writeTree(dir, { '.agent': { skills: { deploy: { 'SKILL.md': skillText('deploy', 'Deploy everything.') } } }, packages: {} });
    const project = await projectRoots(dir);
    const logs: string[] = [];
    const service = await startSkillsService({ roots: project.roots, project: project.folder, allowlist: [], catalogBudgetChars: 16_000, log: (message) => logs.push(message) });
    try {
      await Promise.all([service.watcher.ready, service.projectWatched]);
      await fs.mkdir(path.join(dir, 'packages', 'docs', 'guides'), { recursive: true });
      // The project watcher reports the folders within its quiet time; by then the roots would have been found again.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      assert.deepEqual(logs, []);
      assert.ok(service.registry.snapshot.usable('deploy'));
    } finally {
      await service.close();
    }
  });

  it('watches as deep as the longest configured location in the deepest sub-project', async () => {
    const subProject = path.join(dir, 'apps', 'web', 'client');
    await writeTree(dir, {
      '.vscode': { 'settings.json': JSON.stringify({ 'agentSkills.locations': ['tools/agent/skills'] }) },
      tools: { agent: { skills: { deploy: { 'SKILL.md': skillText('deploy', 'Deploy everything.') } } } },
    });
    await fs.mkdir(path.join(subProject, 'tools', 'agent'), { recursive: true });
    const project = await projectRoots(dir);
    const service = await startSkillsService({ roots: project.roots, project: project.folder, allowlist: [], catalogBudgetChars: 16_000, log: () => undefined });
    try {
      await Promise.all([service.watcher.ready, service.projectWatched]);
      // Only the last folder of the location is new: the watcher must see that deep.
      await writeTree(path.join(subProject, 'tools', 'agent', 'skills'), { 'web-lint': { 'SKILL.md': skillText('web-lint', 'Lint the web client.') } });
      await waitFor(() => service.registry.snapshot.usable('web-lint') !== undefined, 'the skill of the location in the deepest sub-project');
    } finally {
      await service.close();
    }
  });
});

describe('ProjectWatcher (agent-skills mcp --project)', function () {
  this.timeout(30_000);
  /** Long enough for a folder event and the coalescer's quiet time; a report would have come by then. */
  const SETTLE_MS = 700;
  const settle = (): Promise<unknown> => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  let dir: string;
  let watcher: ProjectWatcher | undefined;
  let reports: number;

  beforeEach(async () => {
    dir = await tempDir();
    reports = 0;
  });

  afterEach(async () => {
    await watcher?.dispose();
    watcher = undefined;
    await removeDir(dir);
  });

  async function start(locationDepth = 2): Promise<ProjectWatcher> {
    watcher = new ProjectWatcher(dir, locationDepth, () => reports++);
    await watcher.ready;
    return watcher;
  }

  it('reports the folders already there at start as no change, then new and removed folders', async () => {
    await fs.mkdir(path.join(dir, 'packages', 'web', '.agent', 'skills'), { recursive: true });
    await start();
    await settle();
    assert.equal(reports, 0, 'the folders there at start');
    await fs.mkdir(path.join(dir, 'packages', 'billing', '.agent', 'skills'), { recursive: true });
    await waitFor(() => reports > 0, 'the new folders');
    await settle();
    const beforeRemoval = reports;
    await fs.rm(path.join(dir, 'packages', 'billing'), { recursive: true });
    await waitFor(() => reports > beforeRemoval, 'the removed folders');
  });

  it("sees a folder as deep as the deepest sub-project's longest location", async () => {
    const locationDepth = 2;
    let deepest = dir;
    for (let level = 1; level < MAX_SUBPROJECT_DEPTH + locationDepth; level++) {
      deepest = path.join(deepest, `level-${level}`);
    }
    await fs.mkdir(deepest, { recursive: true });
    await start(locationDepth);
    await fs.mkdir(path.join(deepest, 'skills'));
    await waitFor(() => reports > 0, 'a folder at the deepest level');
  });

  it('reports no folder under node_modules or .git, nor files', async () => {
    await fs.mkdir(path.join(dir, 'node_modules'));
    await fs.mkdir(path.join(dir, '.git'));
    await start();
    await fs.mkdir(path.join(dir, 'node_modules', 'pkg', '.agent', 'skills'), { recursive: true });
    await fs.mkdir(path.join(dir, '.git', 'refs'));
    await fs.writeFile(path.join(dir, 'README.md'), 'a file');
    await settle();
    assert.equal(reports, 0);
  });

  it('reports nothing once disposed', async () => {
    await (await start()).dispose();
    watcher = undefined;
    await fs.mkdir(path.join(dir, 'packages', 'web'), { recursive: true });
    await settle();
    assert.equal(reports, 0);
  });
});
