import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { findNestedLocations } from '../../../../src/core/discovery/nested-locations';
import { removeDir, skillText, tempDir, writeTree, type Tree } from '../../../fixtures/trees/tree';

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
  });

  it('finds nothing for no usable location, or in a folder that does not exist', async () => {
    await writeTree(dir, { packages: { web: SKILLS } });
    assert.deepEqual(await findNestedLocations(dir, ['  ', path.resolve('/abs/skills')]), { packages: [], truncated: false });
    assert.deepEqual(await findNestedLocations(path.join(dir, 'missing'), ['.agent/skills']), { packages: [], truncated: false });
  });
});
