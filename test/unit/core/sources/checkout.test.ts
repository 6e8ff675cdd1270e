// Opening a source: the skills it holds and what stands in the way of installing each, and where a
// clone goes. Fetching a source can be cancelled (the editor's progress notification has a Cancel button):
// git is stopped and its temporary clone deleted, so nothing is left behind.

import * as assert from 'node:assert/strict';
import nodeFs from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { fetchSource, findSkillFolders, openSource, skillAt } from '../../../../src/core/sources/checkout';
import { OutsidePathError } from '../../../../src/core/sources/confine';
import { GitError } from '../../../../src/core/sources/git';
import { parseSource, SourceError } from '../../../../src/core/sources/source-spec';
import { makeRepo } from '../../../fixtures/trees/git-repo';
import { removeDir, skillText, tempDir, writeTree, type Tree } from '../../../fixtures/trees/tree';

describe('fetchSource cancelled', () => {
  let dir: string;
  let savedTmpdir: string | undefined;

  beforeEach(async () => {
    dir = await tempDir();
    savedTmpdir = process.env.TMPDIR;
  });

  afterEach(async () => {
    process.env.TMPDIR = savedTmpdir;
    if (savedTmpdir === undefined) {
      delete process.env.TMPDIR;
    }
    await removeDir(dir);
  });

  it('stops git, rejects as cancelled and leaves no temporary clone', async () => {
    const repo = await makeRepo(dir);
    await repo.commit({ 'SKILL.md': skillText('alpha', 'Formats alpha reports.') });
    // The clone goes to a temporary folder of its own; a private TMPDIR shows whether any is left.
    const temporary = path.join(dir, 'tmp');
    await fs.mkdir(temporary);
    process.env.TMPDIR = temporary;
    const controller = new AbortController();
    const fetching = fetchSource(parseSource(repo.url, dir), { signal: controller.signal });
    controller.abort();
    await assert.rejects(fetching, (error: unknown) => error instanceof GitError && error.message === 'Cancelled.');
    assert.deepEqual(await fs.readdir(temporary), []);
  });
});

describe('openSource', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await tempDir();
  });

  afterEach(async () => {
    await removeDir(dir);
  });

  it('lists the skills of a folder in name order, at any depth up to six folders, not inside another skill', async () => {
    const deep = (depth: number, name: string): Tree => {
      let tree: Tree = { 'SKILL.md': skillText(name, `Skill ${name}.`) };
      for (let level = depth; level > 0; level--) {
        tree = { [`level-${level}`]: tree };
      }
      return tree;
    };
    await writeTree(path.join(dir, 'source'), {
      zeta: { 'SKILL.md': skillText('zeta', 'Zeta.'), nested: { 'SKILL.md': skillText('nested', 'Inside zeta.') } },
      alpha: { 'SKILL.md': skillText('alpha', 'Alpha.') },
      Beta: { 'SKILL.md': skillText('beta', 'Beta.') },
      node_modules: { dep: { 'SKILL.md': skillText('dep', 'A dependency.') } },
      six: deep(5, 'six-deep'),
      seven: deep(6, 'seven-deep'),
    });
    const checkout = await openSource(parseSource('source', dir));
    try {
      assert.equal(checkout.root, path.join(dir, 'source'));
      assert.equal(checkout.commit, undefined);
      assert.deepEqual(
        checkout.skills.map((skill) => [skill.name, skill.skillPath, skill.description, skill.problem]),
        [
          ['alpha', 'alpha/SKILL.md', 'Alpha.', undefined],
          ['beta', 'Beta/SKILL.md', 'Beta.', undefined],
          ['six-deep', 'six/level-1/level-2/level-3/level-4/level-5/SKILL.md', 'Skill six-deep.', undefined],
          ['zeta', 'zeta/SKILL.md', 'Zeta.', undefined],
        ],
      );
      assert.equal(checkout.skills[0].folder, path.join(dir, 'source', 'alpha'));
      await checkout.dispose();
      await fs.stat(checkout.root); // a folder source is used in place, and kept
    } finally {
      await checkout.dispose();
    }
  });

  it('looks into at most as many folders as it is given, in name order', async () => {
    await writeTree(path.join(dir, 'source'), {
      a: { 'SKILL.md': skillText('a', 'A.') },
      b: { inner: { 'SKILL.md': skillText('inner', 'Inner.') } },
      c: { 'SKILL.md': skillText('c', 'C.') },
    });
    const base = path.join(dir, 'source');
    // The source folder, then a, b, b/inner and c: five folders.
    assert.deepEqual(
      await findSkillFolders(base, 5),
      ['a', 'b/inner', 'c'].map((folder) => path.join(base, folder)),
    );
    assert.deepEqual(
      await findSkillFolders(base, 4),
      ['a', 'b/inner'].map((folder) => path.join(base, folder)),
    );
    assert.deepEqual(await findSkillFolders(base, 0), []);
  });

  it('lists a skill whose SKILL.md went away while it was read, by its folder, as one that does not load', async () => {
    await writeTree(path.join(dir, 'source'), { gone: { 'SKILL.md': skillText('gone', 'Gone.') } });
    // The file is found, then gone when it is opened.
    const patched = nodeFs as unknown as Record<'open', (...args: unknown[]) => unknown>;
    const { open } = patched;
    patched.open = (...args: unknown[]) => (args[args.length - 1] as (error: Error) => void)(Object.assign(new Error('ENOENT: no such file or directory'), { code: 'ENOENT' }));
    let checkout;
    try {
      checkout = await openSource(parseSource('source', dir));
    } finally {
      patched.open = open;
    }
    assert.deepEqual(checkout.skills, [{ name: 'gone', description: undefined, problem: 'its SKILL.md does not load', folder: path.join(dir, 'source', 'gone'), skillPath: 'gone/SKILL.md' }]);
  });

  it("says why a skill cannot be installed: its SKILL.md's error, or a name that is no valid skill name", async () => {
    await writeTree(path.join(dir, 'source'), {
      'no-description': { 'SKILL.md': '---\nname: no-description\ncolour: blue\n---\nBody\n' },
      'two words': { 'SKILL.md': '---\ndescription: Named by its folder.\n---\nBody\n' },
      named: { 'SKILL.md': skillText('.hidden', 'A dot name.') },
      zz: { 'SKILL.md': skillText('a'.repeat(130), 'Long.') },
      warned: { 'SKILL.md': skillText('other-name', 'A name unlike its folder, a warning only.') },
    });
    const { skills } = await openSource(parseSource('source', dir));
    assert.deepEqual(
      skills.map((skill) => skill.name),
      ['named', 'no-description', 'two words', 'other-name', 'a'.repeat(130)],
    );
    // A name that does not load: the folder's name, with the error.
    assert.match(skills[0].problem ?? '', /^The name contains characters that are not allowed/);
    // Its error, not the warning before it (an unknown field).
    assert.match(skills[1].problem ?? '', /^The required field "description" is missing/);
    const notAName = (name: string): string => `"${name}" is not a valid skill name (lowercase letters, digits and single hyphens, at most 64 characters)`;
    assert.equal(skills[2].problem, notAName('two words'));
    assert.equal(skills[3].problem, undefined);
    // Past 64 characters a name only warns, and loads; it installs under no such name.
    assert.equal(skills[4].problem, notAName('a'.repeat(130)));
    assert.equal(skills[4].description, 'Long.');
    assert.equal(skills[1].description, undefined);
  });

  it('names a sub-path the source does not have, and deletes the clone', async () => {
    await writeTree(path.join(dir, 'source'), { 'file.md': 'x' });
    await assert.rejects(openSource(parseSource('source#:missing', dir)), (error: unknown) => error instanceof SourceError && error.message === `${path.join(dir, 'source')} has no folder "missing".`);
    await assert.rejects(openSource(parseSource('source#:file.md', dir)), /has no folder "file\.md"/);
    const repo = await makeRepo(dir);
    await repo.commit({ 'SKILL.md': skillText('alpha', 'Alpha.') });
    const temporary = path.join(dir, 'tmp');
    await fs.mkdir(temporary);
    const savedTmpdir = process.env.TMPDIR;
    process.env.TMPDIR = temporary;
    try {
      await assert.rejects(openSource(parseSource(`${repo.url}#:skills`, dir)), (error: unknown) => error instanceof SourceError && error.message === `${repo.url} has no folder "skills".`);
      assert.deepEqual(await fs.readdir(temporary), []);
    } finally {
      process.env.TMPDIR = savedTmpdir;
      if (savedTmpdir === undefined) {
        delete process.env.TMPDIR;
      }
    }
  });

  it('clones a git source into a temporary folder of its own, reads the skill at its root, and deletes the clone', async () => {
    const repo = await makeRepo(dir);
    const commit = await repo.commit({ 'SKILL.md': skillText('alpha', 'Alpha.'), tools: { 'SKILL.md': skillText('tools', 'Tools.') } });
    const checkout = await openSource(parseSource(`${repo.url}#main`, dir));
    assert.equal(checkout.commit, commit);
    assert.equal(path.basename(checkout.root), 'repo');
    assert.match(path.basename(path.dirname(checkout.root)), /^agent-skills-source-/);
    // A skill at the top: its own sub-folders are resources, not more skills.
    assert.deepEqual(
      checkout.skills.map((skill) => [skill.name, skill.skillPath]),
      [['alpha', 'SKILL.md']],
    );
    assert.equal((await skillAt(checkout.root, ''))?.name, 'alpha');
    assert.equal((await skillAt(checkout.root, './tools/'))?.name, 'tools');
    assert.equal(await skillAt(checkout.root, 'gone'), undefined);
    await checkout.dispose();
    await assert.rejects(fs.stat(path.dirname(checkout.root)), { code: 'ENOENT' });
    await checkout.dispose(); // Disposing again, as a caller's cleanup may, finds nothing left to do.
  });

  it('refuses a sub-path that is a symbolic link leading out of the source, and reads nothing there', async () => {
    await writeTree(path.join(dir, 'outside'), { leak: { 'SKILL.md': skillText('leak', 'Elsewhere.') } });
    await writeTree(path.join(dir, 'source'), { inside: { own: { 'SKILL.md': skillText('own', 'Own.') } } });
    await fs.symlink(path.join(dir, 'outside'), path.join(dir, 'source', 'tools'));
    await fs.symlink('inside', path.join(dir, 'source', 'here'));
    await assert.rejects(
      openSource(parseSource('source#:tools/leak', dir)),
      (error: unknown) => error instanceof OutsidePathError && error.message === `the sub-path "tools/leak" leads out of ${path.join(dir, 'source')} through a symbolic link.`,
    );
    // A link that stays inside the source is followed.
    assert.deepEqual(
      (await openSource(parseSource('source#:here', dir))).skills.map((skill) => skill.name),
      ['own'],
    );
  });

  it("refuses a skill's SKILL.md that is a symbolic link leading out of the source, without reading it", async () => {
    await writeTree(path.join(dir, 'outside'), { 'SKILL.md': skillText('secret', 'Someone else’s words.') });
    await writeTree(path.join(dir, 'source'), { linked: {}, fine: { 'real.md': skillText('fine', 'Linked inside.') } });
    await fs.symlink(path.join(dir, 'outside', 'SKILL.md'), path.join(dir, 'source', 'linked', 'SKILL.md'));
    await fs.symlink('real.md', path.join(dir, 'source', 'fine', 'SKILL.md'));
    const { skills } = await openSource(parseSource('source', dir));
    assert.deepEqual(skills[1], {
      name: 'linked',
      problem: 'its SKILL.md "linked/SKILL.md" leads out of ' + path.join(dir, 'source') + ' through a symbolic link.',
      folder: path.join(dir, 'source', 'linked'),
      skillPath: 'linked/SKILL.md',
    });
    assert.deepEqual([skills[0].name, skills[0].problem, skills[0].description], ['fine', undefined, 'Linked inside.']);
  });

  it('refuses a skill folder that leaves the fetched source, through `..`, an absolute path or a symbolic link', async () => {
    await writeTree(path.join(dir, 'outside'), { 'SKILL.md': skillText('secret', 'Elsewhere.') });
    await writeTree(path.join(dir, 'source'), {});
    await fs.symlink(path.join(dir, 'outside'), path.join(dir, 'source', 'link'));
    const root = path.join(dir, 'source');
    const refused =
      (message: string) =>
      (error: unknown): boolean =>
        error instanceof OutsidePathError && error.message === message;
    await assert.rejects(skillAt(root, '../outside', 'team/skills'), refused('the skill folder "../outside" must stay inside team/skills.'));
    await assert.rejects(skillAt(root, path.join(dir, 'outside'), 'team/skills'), refused(`the skill folder "${path.join(dir, 'outside')}" must stay inside team/skills.`));
    await assert.rejects(skillAt(root, 'link', 'team/skills'), refused('the skill folder "link" leads out of team/skills through a symbolic link.'));
  });
});
