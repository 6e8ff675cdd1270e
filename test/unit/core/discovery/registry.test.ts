import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { discoverSkills } from '../../../../src/core/discovery/discover';
import { discoverFirst, SkillRegistry, type RegistrySnapshot } from '../../../../src/core/discovery/registry';
import type { SkillRecord } from '../../../../src/core/model/types';
import { removeDir, root, skillText, tempDir, writeTree } from '../../../fixtures/trees/tree';
import { noting, withFs, type FsPromises } from './fs-stub';

/** Collects every snapshot the registry publishes. */
function recordEvents(registry: SkillRegistry): RegistrySnapshot[] {
  const events: RegistrySnapshot[] = [];
  registry.onDidChange((snapshot) => events.push(snapshot));
  return events;
}

function statuses(snapshot: RegistrySnapshot): string[] {
  return snapshot.skills.map((record) => `${record.root.label}/${record.name}:${record.status}`);
}

function recordNamed(snapshot: RegistrySnapshot, name: string): SkillRecord {
  const record = snapshot.byName(name)[0];
  assert.ok(record, `expected a skill named ${name}`);
  return record;
}

/** Rewrites a file and moves its mtime, so the change is seen even within one clock tick. */
async function rewrite(file: string, content: string): Promise<void> {
  const before = await fs.stat(file).catch(() => undefined);
  await fs.writeFile(file, content);
  if (before) {
    const later = new Date(before.mtimeMs + 2000);
    await fs.utimes(file, later, later);
  }
}

describe('SkillRegistry', () => {
  let dir: string;
  let workspace: string;
  let user: string;
  let registry: SkillRegistry;

  beforeEach(async () => {
    dir = await tempDir();
    workspace = path.join(dir, 'workspace');
    user = path.join(dir, 'user');
    await writeTree(workspace, {
      pdf: { 'SKILL.md': skillText('pdf', 'Extract PDF text.') },
      docs: { 'SKILL.md': skillText('docs', 'Write docs.') },
    });
    await writeTree(user, { pdf: { 'SKILL.md': skillText('pdf', 'User PDF.') }, notes: { 'SKILL.md': skillText('notes', 'Take notes.') } });
    registry = new SkillRegistry();
  });

  afterEach(async () => {
    registry.dispose();
    await removeDir(dir);
  });

  const setUp = (): Promise<void> =>
    registry.setRoots([
      { ...root(workspace), label: 'ws' },
      { ...root(user, 'user'), label: 'user' },
    ]);

  it('publishes one snapshot for setRoots, with shadowing across roots', async () => {
    const events = recordEvents(registry);
    await setUp();
    assert.equal(events.length, 1);
    assert.equal(events[0], registry.snapshot);
    assert.deepEqual(statuses(registry.snapshot), ['ws/docs:available', 'ws/pdf:available', 'user/notes:available', 'user/pdf:shadowed']);
    assert.equal(registry.snapshot.usable('pdf')?.root.label, 'ws');
    assert.equal(registry.snapshot.byName('pdf').length, 2);
    assert.equal(registry.snapshot.usable('missing'), undefined);
  });

  describe('apply', () => {
    let events: RegistrySnapshot[];

    beforeEach(async () => {
      await setUp();
      events = recordEvents(registry);
    });

    it('adds a created skill folder and keeps the other records as they were', async () => {
      const before = registry.snapshot;
      await writeTree(workspace, { lint: { 'SKILL.md': skillText('lint', 'Lint code.') } });
      await registry.apply([
        { path: path.join(workspace, 'lint'), kind: 'created' },
        { path: path.join(workspace, 'lint', 'SKILL.md'), kind: 'created' },
      ]);
      assert.equal(events.length, 1);
      assert.equal(registry.snapshot.usable('lint')?.metadata?.description, 'Lint code.');
      assert.equal(registry.snapshot.version, before.version + 1);
      for (const record of before.skills) {
        assert.ok(registry.snapshot.skills.includes(record), `${record.name} should be the same object`);
      }
    });

    it('re-reads an edited SKILL.md', async () => {
      const docsBefore = recordNamed(registry.snapshot, 'docs');
      await rewrite(path.join(workspace, 'docs', 'SKILL.md'), skillText('docs', 'Write better docs.'));
      await registry.apply([{ path: path.join(workspace, 'docs', 'SKILL.md'), kind: 'changed' }]);
      assert.equal(events.length, 1);
      const docsAfter = recordNamed(registry.snapshot, 'docs');
      assert.notEqual(docsAfter, docsBefore);
      assert.equal(docsAfter.metadata?.description, 'Write better docs.');
      // Records are immutable: the alike-descriptions index takes a record it met before as unchanged.
      assert.equal(docsBefore.metadata?.description, 'Write docs.', 'the earlier record is left as it was');
    });

    it('keeps the search index current: an edited description is found by its new words only', async () => {
      const names = (query: string): string[] => registry.snapshot.findSkills(query).map((match) => match.record.name);
      assert.deepEqual(names('docs'), ['docs']);
      await rewrite(path.join(workspace, 'docs', 'SKILL.md'), skillText('docs', 'Draft architecture diagrams.'));
      await registry.apply([{ path: path.join(workspace, 'docs', 'SKILL.md'), kind: 'changed' }]);
      assert.deepEqual(names('architecture diagrams'), ['docs']);
      assert.deepEqual(names('write'), []);
      // The shadowed user pdf is not offered; once the workspace one goes, it is.
      assert.deepEqual(
        registry.snapshot.findSkills('pdf').map((match) => match.record.metadata?.description),
        ['Extract PDF text.'],
      );
      await fs.rm(path.join(workspace, 'pdf'), { recursive: true });
      await registry.apply([{ path: path.join(workspace, 'pdf'), kind: 'deleted' }]);
      assert.deepEqual(
        registry.snapshot.findSkills('pdf').map((match) => match.record.metadata?.description),
        ['User PDF.'],
      );
    });

    it('does not re-read or publish when the file did not change', async () => {
      const before = registry.snapshot;
      await registry.apply([
        { path: path.join(workspace, 'docs', 'SKILL.md'), kind: 'changed' },
        { path: path.join(workspace, 'docs', 'scripts', 'tool.py'), kind: 'created' },
      ]);
      assert.equal(events.length, 0);
      assert.equal(registry.snapshot, before);
      assert.equal(recordNamed(registry.snapshot, 'docs'), recordNamed(before, 'docs'));
    });

    it('removes a deleted skill folder and un-shadows the skill it hid', async () => {
      await fs.rm(path.join(workspace, 'pdf'), { recursive: true });
      await registry.apply([
        { path: path.join(workspace, 'pdf', 'SKILL.md'), kind: 'deleted' },
        { path: path.join(workspace, 'pdf'), kind: 'deleted' },
      ]);
      assert.equal(events.length, 1);
      assert.deepEqual(statuses(registry.snapshot), ['ws/docs:available', 'user/notes:available', 'user/pdf:available']);
    });

    it('follows a renamed skill folder in one event', async () => {
      await fs.rename(path.join(workspace, 'docs'), path.join(workspace, 'documentation'));
      await registry.apply([
        { path: path.join(workspace, 'docs'), kind: 'deleted' },
        { path: path.join(workspace, 'documentation'), kind: 'created' },
      ]);
      assert.equal(events.length, 1);
      assert.equal(registry.snapshot.usable('docs')?.dir, path.join(workspace, 'documentation'));
      assert.equal(registry.snapshot.byName('docs').length, 1);
    });

    it('shadows a lower skill when a higher root gains the same name', async () => {
      await writeTree(workspace, { notes: { 'SKILL.md': skillText('notes', 'Workspace notes.') } });
      await registry.apply([{ path: path.join(workspace, 'notes', 'SKILL.md'), kind: 'created' }]);
      assert.equal(events.length, 1);
      const [winner, shadowed] = registry.snapshot.byName('notes');
      assert.equal(winner.status, 'available');
      assert.equal(shadowed.status, 'shadowed');
      assert.equal(shadowed.shadowedBy, winner.file);
    });

    it('keeps serving the last valid version of a broken skill, marked stale, until fixed', async () => {
      const file = path.join(workspace, 'docs', 'SKILL.md');
      await rewrite(file, '---\nname: docs\ndescription: [unclosed\n---\nBody\n');
      await registry.apply([{ path: file, kind: 'changed' }]);
      const stale = recordNamed(registry.snapshot, 'docs');
      assert.equal(stale.stale, true);
      assert.equal(stale.status, 'available');
      assert.equal(stale.metadata?.description, 'Write docs.');
      assert.ok(stale.diagnostics.some((diagnostic) => diagnostic.severity === 'error'));
      assert.equal(registry.snapshot.usable('docs'), stale);

      await rewrite(file, skillText('docs', 'Fixed docs.'));
      await registry.apply([{ path: file, kind: 'changed' }]);
      const fixed = recordNamed(registry.snapshot, 'docs');
      assert.equal(fixed.stale, undefined);
      assert.equal(fixed.metadata?.description, 'Fixed docs.');
      assert.deepEqual(fixed.diagnostics, []);
      assert.equal(events.length, 2);
    });

    it('marks a skill that was never valid as invalid, not stale', async () => {
      await writeTree(workspace, { bad: { 'SKILL.md': '---\nname: bad\n---\n' } });
      await registry.apply([{ path: path.join(workspace, 'bad'), kind: 'created' }]);
      const bad = recordNamed(registry.snapshot, 'bad');
      assert.equal(bad.status, 'invalid');
      assert.equal(bad.stale, undefined);
      assert.equal(registry.snapshot.usable('bad'), undefined);
    });

    it('rescans a root that appears after setRoots', async () => {
      const later = path.join(dir, 'later');
      await registry.setRoots([root(workspace), root(later, 'env')]);
      events.length = 0;
      await writeTree(later, { extra: { 'SKILL.md': skillText('extra', 'Arrived later.') } });
      await registry.apply([{ path: later, kind: 'created' }]);
      assert.equal(events.length, 1);
      assert.ok(registry.snapshot.usable('extra'));
    });

    it('promotes the second path to a real folder when the first one goes away', async () => {
      await fs.symlink(path.join(workspace, 'docs'), path.join(user, 'docs-link'));
      await registry.apply([{ path: path.join(user, 'docs-link'), kind: 'created' }]);
      assert.deepEqual(
        registry.snapshot.problems.map((problem) => problem.code),
        ['duplicate-skill-folder'],
      );
      assert.equal(registry.snapshot.byName('docs').length, 1);

      const moved = path.join(dir, 'moved-docs');
      await fs.rename(path.join(workspace, 'docs'), moved);
      await fs.rm(path.join(user, 'docs-link'));
      await fs.symlink(moved, path.join(user, 'docs-link'));
      await registry.apply([
        { path: path.join(workspace, 'docs'), kind: 'deleted' },
        { path: path.join(user, 'docs-link'), kind: 'changed' },
      ]);
      assert.deepEqual(registry.snapshot.problems, []);
      assert.equal(registry.snapshot.usable('docs')?.dir, path.join(user, 'docs-link'));
    });

    it('keeps loading a skill from its own folder when an alias link to it appears beside it', async () => {
      await fs.symlink(path.join(workspace, 'docs'), path.join(workspace, 'a-docs-alias'));
      await registry.apply([{ path: path.join(workspace, 'a-docs-alias'), kind: 'created' }]);
      assert.equal(recordNamed(registry.snapshot, 'docs').dir, path.join(workspace, 'docs'));
      assert.deepEqual(
        registry.snapshot.problems.map((problem) => [problem.code, path.basename(problem.path)]),
        [['duplicate-skill-folder', 'a-docs-alias']],
      );
    });

    it('maps a change at the real location of a linked skill folder to that skill', async () => {
      const real = path.join(dir, 'shared', 'lint');
      await writeTree(real, { 'SKILL.md': skillText('lint', 'Shared lint.') });
      await fs.symlink(real, path.join(workspace, 'lint'));
      await registry.apply([{ path: path.join(workspace, 'lint'), kind: 'created' }]);
      await rewrite(path.join(real, 'SKILL.md'), skillText('lint', 'Shared lint, edited.'));
      await registry.apply([{ path: path.join(real, 'SKILL.md'), kind: 'changed' }]);
      assert.equal(registry.snapshot.usable('lint')?.metadata?.description, 'Shared lint, edited.');
    });

    it('reports a dangling link and clears the problem once it resolves', async () => {
      const target = path.join(dir, 'target');
      await fs.symlink(target, path.join(workspace, 'link'));
      await registry.apply([{ path: path.join(workspace, 'link'), kind: 'created' }]);
      assert.deepEqual(
        registry.snapshot.problems.map((problem) => problem.code),
        ['dangling-symlink'],
      );
      await writeTree(target, { 'SKILL.md': skillText('link', 'Now resolves.') });
      await registry.apply([{ path: path.join(workspace, 'link'), kind: 'changed' }]);
      assert.deepEqual(registry.snapshot.problems, []);
      assert.ok(registry.snapshot.usable('link'));
    });

    it('drops the problem of a folder once the folder is gone', async () => {
      const link = path.join(workspace, 'link');
      await fs.symlink(path.join(dir, 'nowhere'), link);
      await registry.apply([{ path: link, kind: 'created' }]);
      assert.deepEqual(
        registry.snapshot.problems.map((problem) => problem.code),
        ['dangling-symlink'],
      );
      await fs.rm(link);
      await registry.apply([{ path: link, kind: 'deleted' }]);
      assert.deepEqual(registry.snapshot.problems, []);
      assert.equal(events.length, 2);
    });

    it('ignores a SKILL.md placed directly in a root, as a scan does, and re-reads no other folder for it', async () => {
      // A folder whose name is the file's without its last letter, not announced: only a change under it re-reads it.
      await writeTree(workspace, { 'SKILL.m': { 'SKILL.md': skillText('unannounced', 'Not reported yet.') } });
      await fs.writeFile(path.join(workspace, 'SKILL.md'), skillText('workspace', 'Not in a skill folder.'));
      await registry.apply([{ path: path.join(workspace, 'SKILL.md'), kind: 'created' }]);
      assert.equal(events.length, 0);
      assert.deepEqual(registry.snapshot.problems, []);
      assert.deepEqual(statuses(registry.snapshot), ['ws/docs:available', 'ws/pdf:available', 'user/notes:available', 'user/pdf:shadowed']);
    });

    it('publishes when the last skill in order goes away', async () => {
      await fs.rm(path.join(user, 'pdf'), { recursive: true });
      await registry.apply([{ path: path.join(user, 'pdf'), kind: 'deleted' }]);
      assert.equal(events.length, 1);
      assert.deepEqual(statuses(registry.snapshot), ['ws/docs:available', 'ws/pdf:available', 'user/notes:available']);
    });

    it('publishes a problem whose message changed, and nothing when the problems stayed the same', async () => {
      const link = path.join(workspace, 'link');
      await fs.symlink(path.join(dir, 'nowhere'), link);
      await registry.apply([{ path: link, kind: 'created' }]);
      await registry.apply([{ path: path.join(workspace, 'docs', 'SKILL.md'), kind: 'changed' }]);
      assert.equal(events.length, 1);
      await fs.rm(link);
      await fs.symlink(path.join(dir, 'elsewhere'), link);
      await registry.apply([{ path: link, kind: 'changed' }]);
      assert.equal(events.length, 2);
      assert.deepEqual(
        registry.snapshot.problems.map((problem) => problem.message),
        [`The link ${link} points to ${path.join(dir, 'elsewhere')}, which does not exist; it was skipped.`],
      );
    });

    it('re-reads nothing for a change outside every root', async () => {
      await writeTree(workspace, { unannounced: { 'SKILL.md': skillText('unannounced', 'Not reported yet.') } });
      await registry.apply([{ path: path.join(dir, 'elsewhere', 'file.txt'), kind: 'created' }]);
      assert.equal(events.length, 0);
      assert.equal(registry.snapshot.usable('unannounced'), undefined);
    });

    it('rescans a root when a folder above it appears', async () => {
      const nested = path.join(dir, 'later', 'nested', 'skills');
      await registry.setRoots([root(workspace), root(nested, 'env')]);
      await writeTree(nested, { extra: { 'SKILL.md': skillText('extra', 'Arrived with its parents.') } });
      await registry.apply([{ path: path.join(dir, 'later'), kind: 'created' }]);
      assert.equal(registry.snapshot.usable('extra')?.dir, path.join(nested, 'extra'));
    });

    it('drops the copy loaded through a link once the folder itself appears in an earlier root', async () => {
      const shared = path.join(dir, 'shared', 'lint');
      await writeTree(shared, { 'SKILL.md': skillText('lint', 'Shared lint.') });
      await fs.symlink(shared, path.join(user, 'lint-link'));
      await registry.apply([{ path: path.join(user, 'lint-link'), kind: 'created' }]);
      assert.equal(registry.snapshot.usable('lint')?.dir, path.join(user, 'lint-link'));
      await fs.symlink(shared, path.join(workspace, 'lint'));
      await registry.apply([{ path: path.join(workspace, 'lint'), kind: 'created' }]);
      assert.deepEqual(
        registry.snapshot.byName('lint').map((record) => record.dir),
        [path.join(workspace, 'lint')],
      );
      assert.deepEqual(
        registry.snapshot.problems.map((problem) => [problem.code, problem.path]),
        [['duplicate-skill-folder', path.join(user, 'lint-link')]],
      );
    });

    it('drops a skill whose SKILL.md vanishes while it is re-read, and the link to it that would take its place', async () => {
      await fs.symlink(path.join(workspace, 'docs'), path.join(workspace, 'a-docs-alias'));
      await registry.apply([{ path: path.join(workspace, 'a-docs-alias'), kind: 'created' }]);
      const file = path.join(workspace, 'docs', 'SKILL.md');
      const folders = new Set([path.join(workspace, 'docs'), path.join(workspace, 'a-docs-alias')]);
      // Both paths are probed with the file present; it goes before either path loads it.
      const deleteAfterProbes = (readdir: FsPromises['readdir']): FsPromises['readdir'] =>
        (async (...args: Parameters<FsPromises['readdir']>) => {
          const entries = await readdir(...args);
          folders.delete(String(args[0]));
          if (folders.size === 0) {
            await fs.rm(file, { force: true });
          }
          return entries;
        }) as FsPromises['readdir'];
      await withFs('readdir', deleteAfterProbes, () => registry.apply([{ path: file, kind: 'changed' }]));
      assert.deepEqual(registry.snapshot.byName('docs'), []);
      assert.deepEqual(registry.snapshot.problems, []);
    });

    it('publishes a policy change made while an update runs together with that update', async () => {
      await writeTree(workspace, { lint: { 'SKILL.md': skillText('lint', 'Lint.') } });
      const allowDuringProbe = (readdir: FsPromises['readdir']): FsPromises['readdir'] =>
        (async (...args: Parameters<FsPromises['readdir']>) => {
          registry.setAllowlist(['lint']);
          return readdir(...args);
        }) as FsPromises['readdir'];
      await withFs('readdir', allowDuringProbe, () => registry.apply([{ path: path.join(workspace, 'lint'), kind: 'created' }]));
      assert.equal(events.length, 1);
      assert.deepEqual(statuses(registry.snapshot), ['ws/docs:not-allowed', 'ws/lint:available', 'ws/pdf:not-allowed', 'user/notes:not-allowed', 'user/pdf:shadowed']);
    });

    it('reads nothing more once disposed in the middle of an update, at any step', async () => {
      // The update probes ops (its listing finds no SKILL.md), lists it as a grouping folder, then
      // probes infra: disposed during either listing, it goes no further.
      for (const [step, disposeAt] of [
        ['probing', { call: 'readdir', count: 1 }],
        ['listing', { call: 'readdir', count: 2 }],
      ] as const) {
        const disposing = new SkillRegistry();
        await disposing.setRoots([{ ...root(workspace), label: 'ws' }]);
        const ops = path.join(workspace, `ops-${step}`);
        await writeTree(ops, { infra: { deploy: { 'SKILL.md': skillText('deploy', 'Deploy.') } } });
        let calls = 0;
        const afterDispose: string[] = [];
        const watching =
          <K extends 'readdir' | 'realpath'>(name: K) =>
          (original: FsPromises[K]): FsPromises[K] =>
            (async (...args: unknown[]) => {
              const target = String(args[0]);
              if (name === disposeAt.call && target === ops && ++calls === disposeAt.count) {
                disposing.dispose();
              } else if (calls >= disposeAt.count) {
                afterDispose.push(`${name} ${path.relative(workspace, target)}`);
              }
              return (original as (...args: unknown[]) => Promise<unknown>)(...args);
            }) as FsPromises[K];
        await withFs('realpath', watching('realpath'), () => withFs('readdir', watching('readdir'), () => disposing.apply([{ path: ops, kind: 'created' }])));
        assert.deepEqual(afterDispose, [], `disposed while ${step}`);
        assert.ok(!disposing.snapshot.skills.some((record) => record.dir.startsWith(ops)), `disposed while ${step}`);
      }
    });

    it('publishes nothing once disposed while reading its roots', async () => {
      const disposing = new SkillRegistry();
      const events = recordEvents(disposing);
      const disposeOnFirstRead = (realpath: FsPromises['realpath']): FsPromises['realpath'] =>
        (async (...args: Parameters<FsPromises['realpath']>) => {
          disposing.dispose();
          return realpath(...args);
        }) as FsPromises['realpath'];
      await withFs('realpath', disposeOnFirstRead, () => disposing.setRoots([{ ...root(workspace), label: 'ws' }]));
      assert.deepEqual(events, []);
      assert.deepEqual(disposing.snapshot.skills, []);
    });

    describe('inside grouping folders', () => {
      const layout = (snapshot: { skills: readonly SkillRecord[]; problems: readonly { code: string; path: string }[] }): string[] => [
        ...snapshot.skills.map((record) => `${record.root.label}:${path.relative(dir, record.dir)}:${record.name}:${record.status}`),
        ...snapshot.problems.map((problem) => `${problem.code}:${path.relative(dir, problem.path)}`),
      ];
      /** The registry's snapshot is what a fresh discovery of the same roots finds. */
      const assertAsDiscovered = async (): Promise<void> => {
        const fresh = await discoverSkills([
          { ...root(workspace), label: 'ws' },
          { ...root(user, 'user'), label: 'user' },
        ]);
        assert.deepEqual(layout(registry.snapshot), layout(fresh));
      };

      beforeEach(async () => {
        await writeTree(workspace, { shipping: { 'land-it': { 'SKILL.md': skillText('land-it', 'Land a change.') } } });
        await registry.apply([{ path: path.join(workspace, 'shipping'), kind: 'created' }]);
        events.length = 0;
      });

      it('finds a grouping folder created with a skill inside, reported by its top folder alone', async () => {
        await writeTree(workspace, { ops: { infra: { deploy: { 'SKILL.md': skillText('deploy', 'Deploy.') } } } });
        await registry.apply([{ path: path.join(workspace, 'ops'), kind: 'created' }]);
        assert.equal(events.length, 1);
        assert.equal(registry.snapshot.usable('deploy')?.dir, path.join(workspace, 'ops', 'infra', 'deploy'));
        await assertAsDiscovered();
      });

      it('adds a skill created in a grouping folder, reported by its SKILL.md, re-reading nothing else', async () => {
        const before = registry.snapshot;
        await writeTree(workspace, { shipping: { release: { 'SKILL.md': skillText('release', 'Release.') } } });
        await registry.apply([{ path: path.join(workspace, 'shipping', 'release', 'SKILL.md'), kind: 'created' }]);
        assert.equal(events.length, 1);
        assert.equal(registry.snapshot.usable('release')?.dir, path.join(workspace, 'shipping', 'release'));
        for (const record of before.skills) {
          assert.ok(registry.snapshot.skills.includes(record), `${record.name} should be the same object`);
        }
        await assertAsDiscovered();
      });

      it('re-reads an edited SKILL.md inside a grouping folder', async () => {
        const file = path.join(workspace, 'shipping', 'land-it', 'SKILL.md');
        await rewrite(file, skillText('land-it', 'Land it carefully.'));
        await registry.apply([{ path: file, kind: 'changed' }]);
        assert.equal(events.length, 1);
        assert.equal(registry.snapshot.usable('land-it')?.metadata?.description, 'Land it carefully.');
      });

      it('forgets every skill of a deleted grouping folder, un-shadowing what they hid', async () => {
        await writeTree(workspace, { shipping: { notes: { 'SKILL.md': skillText('notes', 'Grouped notes.') } } });
        await registry.apply([{ path: path.join(workspace, 'shipping', 'notes'), kind: 'created' }]);
        assert.equal(registry.snapshot.usable('notes')?.root.label, 'ws');
        await fs.rm(path.join(workspace, 'shipping'), { recursive: true });
        await registry.apply([{ path: path.join(workspace, 'shipping'), kind: 'deleted' }]);
        assert.equal(registry.snapshot.usable('land-it'), undefined);
        assert.equal(registry.snapshot.usable('notes')?.root.label, 'user');
        await assertAsDiscovered();
      });

      it('stops looking inside a grouping folder that gains a SKILL.md, and looks inside again once it loses it', async () => {
        const file = path.join(workspace, 'shipping', 'SKILL.md');
        await fs.writeFile(file, skillText('shipping', 'Now a skill itself.'));
        await registry.apply([{ path: file, kind: 'created' }]);
        assert.deepEqual(
          registry.snapshot.skills.map((record) => record.name),
          ['docs', 'pdf', 'shipping', 'notes', 'pdf'],
        );
        await assertAsDiscovered();
        await fs.rm(file);
        await registry.apply([{ path: file, kind: 'deleted' }]);
        assert.equal(registry.snapshot.usable('shipping'), undefined);
        assert.equal(registry.snapshot.usable('land-it')?.dir, path.join(workspace, 'shipping', 'land-it'));
        await assertAsDiscovered();
      });

      it('reports a name clash that appears across grouping folders, and clears it when one is renamed', async () => {
        await writeTree(workspace, { ops: { 'land-it': { 'SKILL.md': skillText('land-it', 'Another one.') } } });
        await registry.apply([{ path: path.join(workspace, 'ops', 'land-it', 'SKILL.md'), kind: 'created' }]);
        assert.deepEqual(
          registry.snapshot.problems.map((problem) => [problem.code, problem.path]),
          [['duplicate-skill-name', path.join(workspace, 'shipping', 'land-it', 'SKILL.md')]],
        );
        await assertAsDiscovered();
        await rewrite(path.join(workspace, 'ops', 'land-it', 'SKILL.md'), skillText('land-it-ops', 'Renamed.'));
        await registry.apply([{ path: path.join(workspace, 'ops', 'land-it', 'SKILL.md'), kind: 'changed' }]);
        assert.deepEqual(registry.snapshot.problems, []);
      });

      it('finds nothing deeper than three grouping folders, as discovery does', async () => {
        await writeTree(workspace, { a: { b: { c: { ok: { 'SKILL.md': skillText('ok', 'Deep enough.') }, d: { 'too-deep': { 'SKILL.md': skillText('too-deep', 'Too deep.') } } } } } });
        await registry.apply([{ path: path.join(workspace, 'a', 'b', 'c', 'd', 'too-deep', 'SKILL.md'), kind: 'created' }]);
        await registry.apply([{ path: path.join(workspace, 'a', 'b', 'c', 'ok', 'SKILL.md'), kind: 'created' }]);
        assert.equal(registry.snapshot.usable('ok')?.dir, path.join(workspace, 'a', 'b', 'c', 'ok'));
        assert.equal(registry.snapshot.usable('too-deep'), undefined);
        await assertAsDiscovered();
      });

      it('drops a skill a grouping folder lost when the grouping folder alone is reported', async () => {
        await writeTree(workspace, { shipping: { release: { 'SKILL.md': skillText('release', 'Release.') } } });
        await registry.apply([{ path: path.join(workspace, 'shipping', 'release'), kind: 'created' }]);
        await fs.rm(path.join(workspace, 'shipping', 'land-it'), { recursive: true });
        // The folders known inside it are looked at again, and no others.
        const looked: string[] = [];
        await withFs('realpath', noting<'realpath'>(workspace, looked), () => registry.apply([{ path: path.join(workspace, 'shipping'), kind: 'changed' }]));
        assert.deepEqual(
          looked.filter((folder) => folder === 'docs' || folder === 'pdf'),
          [],
        );
        assert.equal(registry.snapshot.usable('land-it'), undefined);
        assert.equal(registry.snapshot.usable('release')?.dir, path.join(workspace, 'shipping', 'release'));
        await assertAsDiscovered();
      });

      it('follows changes inside a grouping folder within a grouping folder, and forgets both levels when the top one becomes a skill', async () => {
        await writeTree(workspace, { shipping: { inner: { deep: { 'SKILL.md': skillText('deep', 'Deep.') } } } });
        await registry.apply([{ path: path.join(workspace, 'shipping', 'inner'), kind: 'created' }]);
        assert.equal(registry.snapshot.usable('deep')?.dir, path.join(workspace, 'shipping', 'inner', 'deep'));
        await writeTree(workspace, { shipping: { inner: { later: { 'SKILL.md': skillText('later', 'Later.') } } } });
        // Only the new skill's folder is looked at: neither grouping folder above it is listed again.
        const listed: string[] = [];
        await withFs('readdir', noting<'readdir'>(workspace, listed), () => registry.apply([{ path: path.join(workspace, 'shipping', 'inner', 'later', 'SKILL.md'), kind: 'created' }]));
        assert.deepEqual(
          listed.filter((folder) => folder === 'shipping' || folder === path.join('shipping', 'inner')),
          [],
        );
        assert.equal(registry.snapshot.usable('later')?.dir, path.join(workspace, 'shipping', 'inner', 'later'));
        await assertAsDiscovered();
        const file = path.join(workspace, 'shipping', 'SKILL.md');
        await fs.writeFile(file, skillText('shipping', 'Now a skill itself.'));
        await registry.apply([{ path: file, kind: 'created' }]);
        assert.deepEqual(
          ['deep', 'later', 'land-it'].map((name) => registry.snapshot.usable(name)),
          [undefined, undefined, undefined],
        );
        await assertAsDiscovered();
        // The inner grouping folder was forgotten with it: a skill appearing there now is not looked at.
        await writeTree(workspace, { shipping: { inner: { newest: { 'SKILL.md': skillText('newest', 'Newest.') } } } });
        await registry.apply([{ path: path.join(workspace, 'shipping', 'inner', 'newest', 'SKILL.md'), kind: 'created' }]);
        assert.equal(registry.snapshot.usable('newest'), undefined);
        await assertAsDiscovered();
        await fs.rm(file);
        await registry.apply([{ path: file, kind: 'deleted' }]);
        assert.equal(registry.snapshot.usable('newest')?.dir, path.join(workspace, 'shipping', 'inner', 'newest'));
        await assertAsDiscovered();
      });

      it('keeps other grouping folders when one becomes a skill: an edit inside them lists no folder', async () => {
        await writeTree(workspace, { ops: { deploy: { 'SKILL.md': skillText('deploy', 'Deploy.') } } });
        await registry.apply([{ path: path.join(workspace, 'ops'), kind: 'created' }]);
        const file = path.join(workspace, 'shipping', 'SKILL.md');
        await fs.writeFile(file, skillText('shipping', 'Now a skill itself.'));
        await registry.apply([{ path: file, kind: 'created' }]);
        const edited = path.join(workspace, 'ops', 'deploy', 'SKILL.md');
        await rewrite(edited, skillText('deploy', 'Deploy carefully.'));
        const listed: string[] = [];
        await withFs('readdir', noting<'readdir'>(workspace, listed), () => registry.apply([{ path: edited, kind: 'changed' }]));
        // Only the edited skill's own folder, once, to find its SKILL.md.
        assert.deepEqual(listed, [path.join('ops', 'deploy')]);
        assert.equal(registry.snapshot.usable('deploy')?.metadata?.description, 'Deploy carefully.');
        await assertAsDiscovered();
      });

      it('forgets grouping folders at every depth below one that becomes a skill, also when the location is read again', async () => {
        await writeTree(workspace, { shipping: { inner: { deeper: { x: { 'SKILL.md': skillText('x', 'Deep inside.') } } } } });
        await registry.apply([{ path: path.join(workspace, 'shipping', 'inner'), kind: 'created' }]);
        assert.equal(registry.snapshot.usable('x')?.dir, path.join(workspace, 'shipping', 'inner', 'deeper', 'x'));
        const file = path.join(workspace, 'shipping', 'SKILL.md');
        await fs.writeFile(file, skillText('shipping', 'Now a skill itself.'));
        await registry.apply([{ path: file, kind: 'created' }]);
        await registry.apply([{ path: workspace, kind: 'changed' }]);
        assert.equal(registry.snapshot.usable('x'), undefined);
        await assertAsDiscovered();
      });

      it('drops the skills of a grouping folder that becomes a skill in the same update as an edit inside it', async () => {
        const file = path.join(workspace, 'shipping', 'SKILL.md');
        const inside = path.join(workspace, 'shipping', 'land-it', 'SKILL.md');
        await fs.writeFile(file, skillText('shipping', 'Now a skill itself.'));
        await rewrite(inside, skillText('land-it', 'Edited too.'));
        await registry.apply([
          { path: inside, kind: 'changed' },
          { path: file, kind: 'created' },
        ]);
        assert.equal(registry.snapshot.usable('land-it'), undefined);
        assert.equal(registry.snapshot.usable('shipping')?.dir, path.join(workspace, 'shipping'));
        await assertAsDiscovered();
      });

      it('knows the grouping folders a full reading found: a skill created in one lists only its own folder', async () => {
        await setUp();
        await writeTree(workspace, { shipping: { release: { 'SKILL.md': skillText('release', 'Release.') } } });
        const listed: string[] = [];
        await withFs('readdir', noting<'readdir'>(workspace, listed), () => registry.apply([{ path: path.join(workspace, 'shipping', 'release', 'SKILL.md'), kind: 'created' }]));
        assert.deepEqual(listed, [path.join('shipping', 'release')]);
        assert.equal(registry.snapshot.usable('release')?.dir, path.join(workspace, 'shipping', 'release'));
      });

      it('looks at just the folder created inside a grouping folder, and tells a folder named like a grouping folder plus more from it', async () => {
        await writeTree(workspace, { shipping: { release: { 'SKILL.md': skillText('release', 'Release.') } }, shippingx: { 'SKILL.md': skillText('shippingx', 'Beside it.') } });
        const listed: string[] = [];
        await withFs('readdir', noting<'readdir'>(workspace, listed), () => registry.apply([{ path: path.join(workspace, 'shipping', 'release'), kind: 'created' }]));
        assert.deepEqual(listed, [path.join('shipping', 'release')]);
        await registry.apply([{ path: path.join(workspace, 'shippingx'), kind: 'created' }]);
        assert.deepEqual(
          ['release', 'shippingx'].map((name) => path.relative(workspace, registry.snapshot.usable(name)?.dir ?? '')),
          [path.join('shipping', 'release'), 'shippingx'],
        );
      });

      it('loads a skill from the link that reaches it once the grouping folder holding it becomes a skill', async () => {
        await fs.symlink(path.join(workspace, 'shipping', 'land-it'), path.join(workspace, 'land-alias'));
        await registry.apply([{ path: path.join(workspace, 'land-alias'), kind: 'created' }]);
        assert.equal(registry.snapshot.usable('land-it')?.dir, path.join(workspace, 'shipping', 'land-it'));
        await assertAsDiscovered();
        const file = path.join(workspace, 'shipping', 'SKILL.md');
        await fs.writeFile(file, skillText('shipping', 'Now a skill itself.'));
        await registry.apply([{ path: file, kind: 'created' }]);
        assert.equal(registry.snapshot.usable('land-it')?.dir, path.join(workspace, 'land-alias'));
        await assertAsDiscovered();
      });

      it('reads grouping folders again when their root is rescanned', async () => {
        await fs.rm(workspace, { recursive: true });
        await registry.apply([{ path: workspace, kind: 'deleted' }]);
        assert.equal(registry.snapshot.usable('land-it'), undefined);
        await writeTree(workspace, { shipping: { 'land-it': { 'SKILL.md': skillText('land-it', 'Back.') } } });
        await registry.apply([{ path: workspace, kind: 'created' }]);
        assert.equal(registry.snapshot.usable('land-it')?.metadata?.description, 'Back.');
        await assertAsDiscovered();
      });
    });

    it('serializes concurrent updates and emits one event per update', async () => {
      await writeTree(workspace, { a: { 'SKILL.md': skillText('a', 'A.') }, b: { 'SKILL.md': skillText('b', 'B.') } });
      await Promise.all([
        registry.apply([{ path: path.join(workspace, 'a'), kind: 'created' }]),
        registry.apply([{ path: path.join(workspace, 'b'), kind: 'created' }]),
        registry.setRoots([root(workspace)]),
        registry.apply([{ path: path.join(workspace, 'a'), kind: 'changed' }]),
      ]);
      assert.deepEqual(
        events.map((snapshot) => snapshot.version),
        [2, 3, 4],
      );
      assert.deepEqual(
        registry.snapshot.skills.map((record) => record.name),
        ['a', 'b', 'docs', 'pdf'],
      );
    });
  });

  describe('a first discovery started before the registry', () => {
    const roots = () => [
      { ...root(workspace), label: 'ws' },
      { ...root(user, 'user'), label: 'user' },
    ];
    const addSkill = () => writeTree(workspace, { late: { 'SKILL.md': skillText('late', 'Written after the first reading.') } });

    it('is taken by the first setRoots of the same roots and options, statuses decided by the registry’s policy', async () => {
      const first = discoverFirst(roots(), {});
      await first.result;
      await addSkill();
      registry.setAllowlist(['pdf', 'notes']);
      const events = recordEvents(registry);
      await registry.setRoots(roots(), first);
      assert.equal(events.length, 1);
      // Read before `late` existed: the reading was taken, not repeated.
      assert.deepEqual(statuses(registry.snapshot), ['ws/docs:not-allowed', 'ws/pdf:available', 'user/notes:available', 'user/pdf:shadowed']);
      // Later scans read the roots again.
      await registry.setRoots(roots().reverse(), first);
      assert.ok(registry.snapshot.usable('late') === undefined && registry.snapshot.byName('late').length === 1);
    });

    it('is not taken for other roots, other options, or after a first scan', async () => {
      const first = discoverFirst(roots(), {});
      await first.result;
      await addSkill();
      await registry.setRoots(roots().slice(0, 1), first);
      assert.ok(registry.snapshot.usable('late'), 'other roots');

      const sameCount = new SkillRegistry();
      await sameCount.setRoots([roots()[0], { ...root(path.join(dir, 'elsewhere'), 'user'), label: 'elsewhere' }], first);
      assert.ok(sameCount.snapshot.usable('late'), 'as many roots, not the same');
      sameCount.dispose();

      for (const options of [{ strict: true }, { checkBody: true }, { keepValidFiles: true }]) {
        const other = new SkillRegistry(options);
        await other.setRoots(roots(), first);
        assert.ok(other.snapshot.usable('late'), `other options: ${JSON.stringify(options)}`);
        other.dispose();
      }

      const scanned = new SkillRegistry();
      await scanned.setRoots([]);
      await scanned.setRoots(roots(), first);
      assert.ok(scanned.snapshot.usable('late'), 'a second scan');
      scanned.dispose();
    });

    it('keeps each valid SKILL.md whole when the options ask for it, as the registry would', async () => {
      const first = discoverFirst(roots(), { keepValidFiles: true });
      const keeping = new SkillRegistry({ keepValidFiles: true });
      await keeping.setRoots(roots(), first);
      assert.ok(recordNamed(keeping.snapshot, 'docs').lastValidFile);
      keeping.dispose();
    });
  });

  describe('policy', () => {
    beforeEach(setUp);

    it('filters by allowlist patterns, and an empty list allows everything', () => {
      const events = recordEvents(registry);
      registry.setAllowlist(['p*', 'notes']);
      assert.deepEqual(statuses(registry.snapshot), ['ws/docs:not-allowed', 'ws/pdf:available', 'user/notes:available', 'user/pdf:shadowed']);
      registry.setAllowlist([]);
      assert.ok(registry.snapshot.usable('docs'));
      assert.equal(events.length, 2);
    });

    it('ranks the skills the model may use, giving the best and how many match', () => {
      const ranked = registry.snapshot.rankSkills('pdf notes', 1);
      assert.deepEqual(
        ranked.best.map((match) => match.record.name),
        [registry.snapshot.findSkills('pdf notes')[0].record.name],
      );
      assert.equal(ranked.total, 2);
    });

    it('searches only the skills the model may use under the current policy', () => {
      assert.deepEqual(
        registry.snapshot.findSkills('notes').map((match) => match.record.name),
        ['notes'],
      );
      registry.setAllowlist(['pdf', 'docs']);
      assert.deepEqual(registry.snapshot.findSkills('notes'), []);
      registry.setAllowlist([]);
      assert.deepEqual(
        registry.snapshot.findSkills('take notes').map((match) => match.record.name),
        ['notes'],
      );
    });

    it('disables everything and restores it', () => {
      registry.setEnabled(false);
      assert.ok(registry.snapshot.skills.every((record) => record.status === 'disabled'));
      assert.equal(registry.snapshot.usable('pdf'), undefined);
      assert.equal(registry.activate('pdf'), false);
      registry.setEnabled(true);
      assert.equal(registry.snapshot.usable('pdf')?.status, 'available');
    });

    it('tracks active skills', () => {
      const events = recordEvents(registry);
      assert.equal(registry.activate('pdf'), true);
      assert.equal(registry.activate('pdf'), true);
      assert.equal(registry.activate('unknown'), false);
      assert.equal(events.length, 1);
      assert.equal(registry.snapshot.usable('pdf')?.status, 'active');
      assert.deepEqual([...registry.snapshot.activeNames], ['pdf']);
      registry.activate('docs');
      registry.deactivate('pdf');
      assert.deepEqual([...registry.snapshot.activeNames], ['docs']);
      registry.deactivateAll();
      assert.deepEqual([...registry.snapshot.activeNames], []);
      assert.equal(registry.snapshot.usable('docs')?.status, 'available');
    });

    it('forgets an active skill that is deleted', async () => {
      registry.activate('docs');
      await fs.rm(path.join(workspace, 'docs'), { recursive: true });
      await registry.apply([{ path: path.join(workspace, 'docs'), kind: 'deleted' }]);
      await writeTree(workspace, { docs: { 'SKILL.md': skillText('docs', 'Back again.') } });
      await registry.apply([{ path: path.join(workspace, 'docs'), kind: 'created' }]);
      assert.equal(registry.snapshot.usable('docs')?.status, 'available');
    });

    it('ends in a consistent state when a policy change interleaves with an update', async () => {
      const events = recordEvents(registry);
      await writeTree(workspace, { lint: { 'SKILL.md': skillText('lint', 'Lint.') } });
      const update = registry.apply([{ path: path.join(workspace, 'lint'), kind: 'created' }]);
      registry.setAllowlist(['lint']);
      await update;
      assert.equal(registry.snapshot.usable('lint')?.status, 'available');
      assert.equal(registry.snapshot.usable('pdf'), undefined);
      assert.equal(events.length, 2);
      assert.equal(events[1], registry.snapshot);
    });
  });

  it('starts empty, and changes nothing before its roots are set', async () => {
    const events = recordEvents(registry);
    const initial = registry.snapshot;
    assert.deepEqual([initial.version, initial.skills, initial.problems, [...initial.activeNames]], [0, [], [], []]);
    registry.setAllowlist(['pdf']);
    registry.setEnabled(false);
    registry.setEnabled(true);
    await registry.apply([{ path: workspace, kind: 'created' }]);
    await registry.refresh();
    assert.equal(registry.snapshot, initial);
    assert.equal(events.length, 0);
  });

  it('applies the enabled switch it is created with', async () => {
    registry = new SkillRegistry({ enabled: false });
    await setUp();
    assert.ok(registry.snapshot.skills.every((record) => record.status === 'disabled'));
  });

  it('keeps each valid SKILL.md whole when created to, through a broken edit, and nothing of a file never valid', async () => {
    const kept = (name: string): string | undefined => recordNamed(registry.snapshot, name).lastValidFile?.toString('utf8');
    await setUp();
    assert.equal(kept('docs'), undefined, 'not kept unless asked');
    registry = new SkillRegistry({ keepValidFiles: true });
    const file = path.join(workspace, 'docs', 'SKILL.md');
    await writeTree(workspace, { bad: { 'SKILL.md': '---\nname: bad\n---\n' } });
    await setUp();
    assert.equal(kept('docs'), skillText('docs', 'Write docs.'));
    assert.equal(kept('bad'), undefined);
    await rewrite(file, skillText('docs', 'Write better docs.', 'Second body.'));
    await registry.apply([{ path: file, kind: 'changed' }]);
    assert.equal(kept('docs'), skillText('docs', 'Write better docs.', 'Second body.'));
    await rewrite(file, '---\nname: docs\ndescription: [unclosed\n---\nBroken body.\n');
    await registry.apply([{ path: file, kind: 'changed' }]);
    assert.equal(recordNamed(registry.snapshot, 'docs').stale, true);
    assert.equal(kept('docs'), skillText('docs', 'Write better docs.', 'Second body.'));
    await registry.refresh();
    assert.equal(kept('docs'), skillText('docs', 'Write better docs.', 'Second body.'), 'a forced re-read of the broken file keeps it too');
    // A settings change that describes the root anew (another label) reads every skill again.
    await registry.setRoots([{ ...root(workspace), label: 'ws · .agent/skills' }]);
    assert.equal(recordNamed(registry.snapshot, 'docs').root.label, 'ws · .agent/skills');
    assert.equal(recordNamed(registry.snapshot, 'docs').stale, true);
    assert.equal(kept('docs'), skillText('docs', 'Write better docs.', 'Second body.'), 'a relabelled root keeps it too');
  });

  it('checks bodies when created to, also when a skill is re-read', async () => {
    registry = new SkillRegistry({ checkBody: true });
    const file = path.join(workspace, 'docs', 'SKILL.md');
    await rewrite(file, skillText('docs', 'Write docs.', 'See [guide](references/guide.md).'));
    await setUp();
    const codes = (): string[] => recordNamed(registry.snapshot, 'docs').diagnostics.map((diagnostic) => diagnostic.code);
    assert.deepEqual(codes(), ['missing-link']);
    await rewrite(file, skillText('docs', 'Write better docs.', 'See [guide](references/guide.md).'));
    await registry.apply([{ path: file, kind: 'changed' }]);
    assert.deepEqual(codes(), ['missing-link']);
  });

  it('publishes the problem of a root', async () => {
    const fileRoot = path.join(dir, 'file-root');
    await fs.writeFile(fileRoot, 'x');
    await registry.setRoots([root(fileRoot)]);
    assert.deepEqual(
      registry.snapshot.problems.map((problem) => [problem.code, problem.path]),
      [['root-unreadable', fileRoot]],
    );
  });

  it('refreshes roots holding a problem folder', async () => {
    await fs.symlink(path.join(dir, 'nowhere'), path.join(workspace, 'dangling'));
    await setUp();
    await registry.refresh();
    assert.deepEqual(
      registry.snapshot.problems.map((problem) => problem.code),
      ['dangling-symlink'],
    );
    assert.equal(registry.snapshot.skills.length, 4);
  });

  it('forgets an active skill whose root goes away, so it returns inactive', async () => {
    await setUp();
    registry.activate('docs');
    await registry.setRoots([{ ...root(user, 'user'), label: 'user' }]);
    assert.deepEqual([...registry.snapshot.activeNames], []);
    await setUp();
    assert.equal(registry.snapshot.usable('docs')?.status, 'available');
  });

  it('lists untrusted skills without letting them hide trusted ones', async () => {
    await registry.setRoots([root(workspace, 'workspace', true), root(user, 'user')]);
    assert.deepEqual(
      registry.snapshot.skills.map((record) => `${record.name}:${record.status}`),
      ['docs:untrusted', 'pdf:untrusted', 'notes:available', 'pdf:available'],
    );
    assert.equal(registry.snapshot.usable('pdf')?.root.kind, 'user');
    assert.equal(registry.snapshot.usable('docs'), undefined);
  });

  it('re-reads everything on refresh and on a strictness change', async () => {
    await setUp();
    const before = recordNamed(registry.snapshot, 'docs');
    await registry.refresh();
    assert.notEqual(recordNamed(registry.snapshot, 'docs'), before);
    const events = recordEvents(registry);
    await registry.setStrict(true);
    await registry.setStrict(true);
    assert.equal(events.length, 1);
  });

  it('reuses unchanged records when the roots are set again', async () => {
    await setUp();
    const before = registry.snapshot;
    const events = recordEvents(registry);
    await setUp();
    assert.equal(events.length, 0);
    assert.equal(registry.snapshot, before);
  });

  it('stops publishing after dispose', async () => {
    const events = recordEvents(registry);
    registry.dispose();
    await setUp();
    assert.equal(events.length, 0);
  });

  it('keeps its last snapshot once disposed, whatever changes next', async () => {
    await setUp();
    const last = registry.snapshot;
    registry.dispose();
    await registry.setRoots([root(user, 'user')]);
    registry.setAllowlist(['notes']);
    registry.setEnabled(false);
    assert.equal(registry.snapshot, last);
  });
});
