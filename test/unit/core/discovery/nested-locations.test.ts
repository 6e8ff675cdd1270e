import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { findNestedLocations, nestedLocationsTruncatedMessage } from '../../../../src/core/discovery/nested-locations';
import { removeDir, skillText, tempDir, writeTree, type Tree } from '../../../fixtures/trees/tree';
import { withFs } from './fs-stub';

const SKILLS: Tree = { '.agent': { skills: { one: { 'SKILL.md': skillText('one', 'One.') } } } };

describe('findNestedLocations', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await tempDir();
  });

  afterEach(async () => {
    await removeDir(dir);
  });

  it('finds sub-projects holding a configured location, nearest first, then by name', async () => {
    await writeTree(dir, {
      ...SKILLS,
      packages: { web: SKILLS, api: { '.github': { skills: {} } }, empty: {} },
      apps: { group: { admin: SKILLS } },
      tools: { 'deep-a': { 'deep-b': { 'deep-c': SKILLS } } },
    });
    const found = await findNestedLocations(dir, ['.agent/skills', '.github/skills']);
    assert.deepEqual(found, { packages: ['packages/api', 'packages/web', 'apps/group/admin'], truncated: false });
    // Four folders deep is past the bound.
    assert.deepEqual((await findNestedLocations(dir, ['.agent/skills'])).packages, ['packages/web', 'apps/group/admin']);
  });

  it('skips node_modules, .git, hidden and git-ignored folders, and links', async () => {
    await writeTree(dir, {
      '.gitignore': '/dist\ngenerated/\n',
      node_modules: { dependency: SKILLS },
      '.git': { modules: { sub: SKILLS } },
      '.cache': { tool: SKILLS },
      dist: { copy: SKILLS },
      packages: {
        '.gitignore': '!keep\n',
        web: { ...SKILLS, generated: { inner: SKILLS } },
        generated: SKILLS,
        dist: SKILLS,
      },
    });
    await fs.mkdir(path.join(dir, 'elsewhere', 'pkg'), { recursive: true });
    await writeTree(path.join(dir, 'elsewhere', 'pkg'), SKILLS);
    await fs.symlink(path.join(dir, 'elsewhere'), path.join(dir, 'linked'));
    const found = await findNestedLocations(dir, ['.agent/skills']);
    // /dist is anchored to the top folder, so packages/dist is a sub-project; generated/ is ignored everywhere.
    assert.deepEqual(found.packages, ['elsewhere/pkg', 'packages/dist', 'packages/web']);
  });

  it('does not walk into a location itself, nor count the folder it starts from', async () => {
    await writeTree(dir, { skills: { nested: { skills: { x: { 'SKILL.md': skillText('x', 'X.') } } } }, sub: { skills: {} } });
    assert.deepEqual((await findNestedLocations(dir, ['skills'])).packages, ['sub']);
  });

  it('stops after the folder budget and says so', async () => {
    await writeTree(dir, { a: SKILLS, b: SKILLS, c: { d: SKILLS } });
    const found = await findNestedLocations(dir, ['.agent/skills'], { maxDepth: 3, maxFolders: 3 });
    assert.deepEqual(found, { packages: ['a', 'b'], truncated: true });
    assert.equal(
      nestedLocationsTruncatedMessage(dir),
      `Stopped looking for sub-project skill locations in ${dir} after 5,000 folders; add the missing ones to agentSkills.locations or list the large folders in .gitignore.`,
    );
  });

  it('is not truncated by a walk that reads exactly the folder budget, nor walks at all for no location', async () => {
    await writeTree(dir, { a: SKILLS, b: SKILLS });
    // The folder itself, a and b: three folders.
    assert.deepEqual(await findNestedLocations(dir, ['.agent/skills'], { maxDepth: 3, maxFolders: 3 }), { packages: ['a', 'b'], truncated: false });
    assert.deepEqual(await findNestedLocations(dir, [], { maxDepth: 3, maxFolders: 1 }), { packages: [], truncated: false });
  });

  it('takes a sub-project only when the location itself is a folder there, and trims the configured locations', async () => {
    await writeTree(dir, {
      half: { '.agent': { notes: {} } },
      file: { '.agent': { skills: 'not a folder' } },
      other: { '.github': {}, '.agent': { skills: {} } },
      web: SKILLS,
    });
    assert.deepEqual((await findNestedLocations(dir, ['  .agent/skills  '])).packages, ['other', 'web']);
    // An absolute location is never looked for inside a sub-project, nor is an empty one taken for the sub-project itself.
    assert.deepEqual((await findNestedLocations(dir, ['.github/skills', '', path.resolve('/.agent/skills')])).packages, []);
  });

  it('orders sub-projects nearest first, then by name, whatever order the file system lists folders in', async () => {
    await writeTree(dir, { b: SKILLS, a: SKILLS, c: SKILLS, group: { z: SKILLS, y: SKILLS } });
    const reversed = (original: typeof fs.readdir) => (async (...args: Parameters<typeof fs.readdir>) => ((await original(...args)) as unknown[]).reverse()) as typeof fs.readdir;
    const found = await withFs('readdir', reversed, () => findNestedLocations(dir, ['.agent/skills']));
    assert.deepEqual(found.packages, ['a', 'b', 'c', 'group/y', 'group/z']);
  });

  it('walks on past a .gitignore that cannot be read, as if it ignored nothing', async () => {
    await writeTree(dir, { '.gitignore': { 'not-a-file': {} }, web: SKILLS });
    assert.deepEqual((await findNestedLocations(dir, ['.agent/skills'])).packages, ['web']);
  });

  it('finds nothing for no usable location, or in a folder that does not exist', async () => {
    await writeTree(dir, { packages: { web: SKILLS } });
    assert.deepEqual(await findNestedLocations(dir, ['  ', path.resolve('/abs/skills')]), { packages: [], truncated: false });
    assert.deepEqual(await findNestedLocations(path.join(dir, 'missing'), ['.agent/skills']), { packages: [], truncated: false });
  });
});
