import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { discoverSkills } from '../../../../src/core/discovery/discover';
import { relativeInside } from '../../../../src/core/util/paths';
import type { DiscoveryResult } from '../../../../src/core/discovery/discover';
import type { SkillRecord } from '../../../../src/core/model/types';
import { copyFixture, removeDir, root, skillText, tempDir, writeTree } from '../../../fixtures/trees/tree';
import { fsError, withFs, type FsPromises } from './fs-stub';

/** The conventional user id of `nobody`, as whom a test run by root checks what an ordinary user may read. */
const NOBODY_UID = 65534;

function find(result: DiscoveryResult, name: string, kind?: string): SkillRecord {
  const record = result.skills.find((candidate) => candidate.name === name && (!kind || candidate.root.kind === kind));
  assert.ok(record, `expected a skill named ${name}`);
  return record;
}

function problemCodes(result: DiscoveryResult): string[] {
  return result.problems.map((problem) => `${problem.code} ${path.basename(problem.path)}`).sort();
}

describe('discoverSkills', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await tempDir();
  });

  afterEach(async () => {
    await removeDir(dir);
  });

  describe('over two roots', () => {
    let result: DiscoveryResult;

    beforeEach(async () => {
      await copyFixture('two-roots', dir);
      // Folders that must never count as skills, even though they hold a SKILL.md.
      await writeTree(path.join(dir, 'workspace'), {
        '.git': { 'SKILL.md': skillText('git', 'Not a skill.') },
        node_modules: { 'SKILL.md': skillText('node-modules', 'Not a skill.') },
      });
      result = await discoverSkills([root(path.join(dir, 'workspace')), root(path.join(dir, 'user'), 'user')]);
    });

    it('finds direct child folders with a SKILL.md, in precedence order', () => {
      assert.deepEqual(
        result.skills.map((record) => `${record.root.kind}/${record.name}`),
        ['workspace/broken', 'workspace/docs', 'workspace/pdf', 'user/extra', 'user/pdf'],
      );
    });

    it('matches SKILL.md case-insensitively and records the file with its real case', () => {
      const docs = find(result, 'docs');
      assert.equal(docs.status, 'available');
      assert.equal(docs.file, path.join(dir, 'workspace', 'docs', 'Skill.md'));
      assert.equal(docs.metadata?.description, 'Write and review project documentation.');
    });

    it('shadows a skill of the same name in a later root, naming the file that wins', () => {
      const winner = find(result, 'pdf', 'workspace');
      const shadowed = find(result, 'pdf', 'user');
      assert.equal(winner.status, 'available');
      assert.equal(shadowed.status, 'shadowed');
      assert.equal(shadowed.shadowedBy, winner.file);
    });

    it('marks a skill without description invalid, with diagnostics and no metadata', () => {
      const broken = find(result, 'broken');
      assert.equal(broken.status, 'invalid');
      assert.equal(broken.metadata, undefined);
      assert.ok(broken.diagnostics.some((diagnostic) => diagnostic.severity === 'error'));
    });

    it('keeps no body in memory', () => {
      const pdf = find(result, 'pdf', 'workspace');
      assert.ok(!JSON.stringify(pdf).includes('Use scripts to extract text'));
    });

    it('reports nothing for plain folders, loose files, .git and node_modules', () => {
      assert.deepEqual(result.problems, []);
      assert.ok(!result.skills.some((record) => record.name === 'git' || record.name === 'node-modules' || record.name === 'notes'));
    });
  });

  it('treats a missing root as empty, without a problem', async () => {
    const result = await discoverSkills([root(path.join(dir, 'does-not-exist'))]);
    assert.deepEqual(result.skills, []);
    assert.deepEqual(result.problems, []);
  });

  it('reports a root that is a file', async () => {
    await fs.writeFile(path.join(dir, 'file-root'), 'x');
    const result = await discoverSkills([root(path.join(dir, 'file-root'))]);
    assert.deepEqual(problemCodes(result), ['root-unreadable file-root']);
  });

  describe('symlinked skill folders', () => {
    it('follows a linked skill folder and records both paths', async () => {
      await writeTree(path.join(dir, 'elsewhere', 'real-pdf'), { 'SKILL.md': skillText('pdf', 'Linked PDF skill.') });
      await fs.mkdir(path.join(dir, 'skills'));
      await fs.symlink(path.join(dir, 'elsewhere', 'real-pdf'), path.join(dir, 'skills', 'pdf'), 'dir');
      const result = await discoverSkills([root(path.join(dir, 'skills'))]);
      const pdf = find(result, 'pdf');
      assert.equal(pdf.status, 'available');
      assert.equal(pdf.dir, path.join(dir, 'skills', 'pdf'));
      assert.equal(pdf.realDir, path.join(dir, 'elsewhere', 'real-pdf'));
    });

    it('reports loops and dangling links without failing the others', async () => {
      const skills = path.join(dir, 'skills');
      await writeTree(skills, { good: { 'SKILL.md': skillText('good', 'Still found.') } });
      await fs.symlink(path.join(skills, 'loop-b'), path.join(skills, 'loop-a'));
      await fs.symlink(path.join(skills, 'loop-a'), path.join(skills, 'loop-b'));
      await fs.symlink(dir, path.join(skills, 'up')); // points at an ancestor of the root
      await fs.symlink(path.join(dir, 'missing'), path.join(skills, 'dangling'));
      const result = await discoverSkills([root(skills)]);
      assert.deepEqual(
        result.skills.map((record) => record.name),
        ['good'],
      );
      assert.deepEqual(problemCodes(result), ['dangling-symlink dangling', 'symlink-loop loop-a', 'symlink-loop loop-b', 'symlink-loop up']);
      assert.match(result.problems.find((problem) => problem.code === 'dangling-symlink')!.message, /missing/);
    });

    it('loads a folder reached also through an alias link from the folder itself, naming the alias as the duplicate', async () => {
      const skills = path.join(dir, 'aliased');
      await writeTree(skills, { 'good-skill': { 'SKILL.md': skillText('good-skill', 'The real folder.') } });
      // "good-alias" sorts first, so taking the first path found would load the skill from the link.
      await fs.symlink(path.join(skills, 'good-skill'), path.join(skills, 'good-alias'));
      const result = await discoverSkills([root(skills)], { checkBody: true });
      assert.deepEqual(
        result.skills.map((record) => [record.name, path.basename(record.dir), record.diagnostics.map((diagnostic) => diagnostic.code)]),
        [['good-skill', 'good-skill', []]],
      );
      assert.deepEqual(problemCodes(result), ['duplicate-skill-folder good-alias']);
      assert.match(result.problems[0].message, /good-alias is the same folder as .*good-skill; the skill is loaded once, from .*good-skill\.$/);
    });

    it('reads a folder reached through an alias link sorting first only from the path it loads from', async () => {
      await writeTree(dir, { skills: { 'good-skill': { 'SKILL.md': skillText('good-skill', 'The real folder.') } } });
      await fs.symlink(path.join(dir, 'skills', 'good-skill'), path.join(dir, 'skills', 'good-alias'));
      const asked: string[] = [];
      const result = await discoverSkills([root(path.join(dir, 'skills'))], {
        previous: (skillDir) => {
          asked.push(path.basename(skillDir));
          return undefined;
        },
      });
      assert.deepEqual(
        result.skills.map((record) => path.basename(record.dir)),
        ['good-skill'],
      );
      // Once as its folder is listed, once as its SKILL.md is read: never for the alias, nor twice for a read.
      assert.deepEqual(asked, ['good-skill', 'good-skill']);
    });

    it('loads the same real folder once when two roots reach it', async () => {
      await writeTree(path.join(dir, 'a'), { pdf: { 'SKILL.md': skillText('pdf', 'One real folder.') } });
      await fs.mkdir(path.join(dir, 'b'));
      await fs.symlink(path.join(dir, 'a', 'pdf'), path.join(dir, 'b', 'pdf-link'));
      const result = await discoverSkills([root(path.join(dir, 'a')), root(path.join(dir, 'b'), 'user')]);
      assert.equal(result.skills.length, 1);
      assert.equal(result.skills[0].dir, path.join(dir, 'a', 'pdf'));
      assert.deepEqual(problemCodes(result), ['duplicate-skill-folder pdf-link']);
    });
  });

  it('leaves out plain folders, and links to plain folders or files, from skills, problems and folders', async () => {
    await writeTree(path.join(dir, 'skills'), { pdf: { 'SKILL.md': skillText('pdf', 'PDF.') }, notes: { 'README.md': 'x' }, 'loose.md': 'x' });
    await fs.symlink(path.join(dir, 'skills', 'notes'), path.join(dir, 'skills', 'notes-link'));
    await fs.symlink(path.join(dir, 'skills', 'loose.md'), path.join(dir, 'skills', 'loose-link'));
    for (const untrusted of [false, true]) {
      const result = await discoverSkills([root(path.join(dir, 'skills'), 'workspace', untrusted)]);
      const expected = untrusted ? 'untrusted' : 'available';
      assert.deepEqual(
        result.skills.map((record) => `${record.name}:${record.status}`),
        [`pdf:${expected}`],
      );
      assert.deepEqual(
        result.folders.map((folder) => folder.folderName),
        ['pdf'],
      );
      assert.deepEqual(result.problems, []);
    }
  });

  it('finds a skill in a folder that may be searched but not listed (mode 0111), as `cat` can read its SKILL.md', async function () {
    if (process.platform === 'win32') {
      this.skip(); // no such mode
    }
    await writeTree(path.join(dir, 'skills'), { 'search-only': { 'SKILL.md': skillText('search-only', 'Kept in a folder nobody may list.') } });
    await fs.chmod(dir, 0o755);
    await fs.chmod(path.join(dir, 'skills', 'search-only'), 0o111);
    // Root may list any folder: look as an ordinary user would.
    const asRoot = process.getuid?.() === 0;
    if (asRoot) {
      process.seteuid!(NOBODY_UID);
    }
    let result: DiscoveryResult;
    try {
      result = await discoverSkills([root(path.join(dir, 'skills'))]);
    } finally {
      if (asRoot) {
        process.seteuid!(0);
      }
      await fs.chmod(path.join(dir, 'skills', 'search-only'), 0o755);
    }
    assert.deepEqual(
      result.skills.map((record) => [record.name, record.metadata?.description]),
      [['search-only', 'Kept in a folder nobody may list.']],
    );
  });

  it('looks into hidden folders directly in a location, which only grouping folders skip', async () => {
    await writeTree(dir, { '.draft': { 'SKILL.md': skillText('.draft', 'A skill in a hidden folder.') }, group: { '.inner': { 'SKILL.md': skillText('.inner', 'Hidden inside a group.') } } });
    const result = await discoverSkills([root(dir)]);
    assert.deepEqual(
      result.skills.map((record) => path.relative(dir, record.dir)),
      ['.draft'],
    );
  });

  it('reports per root its problem and its real path', async () => {
    await writeTree(dir, { real: {}, 'file-root': 'x' });
    await fs.symlink(path.join(dir, 'real'), path.join(dir, 'linked'));
    const result = await discoverSkills([root(path.join(dir, 'missing')), root(path.join(dir, 'file-root')), root(path.join(dir, 'linked'))]);
    assert.deepEqual(
      result.rootProblems.map((problem) => problem?.code),
      [undefined, 'root-unreadable', undefined],
    );
    assert.deepEqual(result.rootRealPaths, [undefined, path.join(dir, 'file-root'), path.join(dir, 'real')]);
  });

  it('reuses an unchanged earlier record, also when reads may block', async () => {
    await writeTree(dir, { pdf: { 'SKILL.md': skillText('pdf', 'PDF.') } });
    const [earlier] = (await discoverSkills([root(dir)])).skills;
    for (const blockingReads of [false, true]) {
      const again = await discoverSkills([earlier.root], { blockingReads, previous: (skillDir) => (skillDir === earlier.dir ? earlier : undefined) });
      assert.equal(again.skills[0], earlier, `blockingReads: ${blockingReads}`);
    }
  });

  it('lists untrusted skills by folder name without reading their content', async () => {
    await writeTree(path.join(dir, 'ws'), { helper: { 'SKILL.md': skillText('secret-name', 'SECRET DESCRIPTION') } });
    const result = await discoverSkills([root(path.join(dir, 'ws'), 'workspace', true)]);
    assert.equal(result.skills.length, 1);
    const [record] = result.skills;
    assert.equal(record.name, 'helper');
    assert.equal(record.status, 'untrusted');
    assert.equal(record.metadata, undefined);
    assert.ok(!JSON.stringify(record).includes('SECRET') && !JSON.stringify(record).includes('secret-name'));
  });

  it('takes a folder without a SKILL.md that vanishes while being looked at for nothing', async () => {
    await writeTree(path.join(dir, 'ws'), { helper: { 'SKILL.md': skillText('helper', 'Help.') }, empty: {} });
    const vanishing = () => async (): Promise<never> => {
      throw fsError('ENOENT', 'no such file or directory');
    };
    const result = await withFs('lstat', vanishing, () => discoverSkills([root(path.join(dir, 'ws'), 'workspace', true)]));
    assert.deepEqual(
      result.skills.map((record) => record.name),
      ['helper'],
    );
    assert.deepEqual(result.problems, []);
  });

  it('reports a folder of an untrusted location that cannot be resolved, and does not look inside it for skills', async () => {
    const ws = path.join(dir, 'ws');
    await writeTree(ws, { tools: { lint: { 'SKILL.md': skillText('lint', 'Lint.') } } });
    const tools = path.join(ws, 'tools');
    const refusing = (realpath: FsPromises['realpath']): FsPromises['realpath'] =>
      (async (...args: Parameters<FsPromises['realpath']>) => {
        if (String(args[0]) === tools) {
          throw fsError('EACCES', `permission denied, realpath '${tools}'`);
        }
        return realpath(...args);
      }) as FsPromises['realpath'];
    const result = await withFs('realpath', refusing, () => discoverSkills([root(ws, 'workspace', true)]));
    assert.deepEqual(result.skills, []);
    assert.deepEqual(
      result.problems.map((problem) => [problem.code, problem.path]),
      [['unreadable-folder', tools]],
    );
    assert.deepEqual(result.groups, []);
  });

  it('lets a working skill win over an invalid or untrusted one of the same name', async () => {
    await writeTree(dir, {
      untrusted: { pdf: { 'SKILL.md': skillText('pdf', 'Untrusted copy.') } },
      invalid: { pdf: { 'SKILL.md': '---\nname: pdf\n---\nNo description.\n' } },
      user: { pdf: { 'SKILL.md': skillText('pdf', 'User copy.') } },
    });
    const result = await discoverSkills([root(path.join(dir, 'untrusted'), 'workspace', true), root(path.join(dir, 'invalid')), root(path.join(dir, 'user'), 'user')]);
    assert.deepEqual(
      result.skills.map((record) => record.status),
      ['untrusted', 'invalid', 'available'],
    );
  });

  it('prefers the folder named like the skill when two folders of one root declare the same name', async () => {
    await writeTree(dir, { a: { 'SKILL.md': skillText('pdf', 'Misnamed folder.') }, pdf: { 'SKILL.md': skillText('pdf', 'Matching folder.') } });
    const result = await discoverSkills([root(dir)]);
    assert.equal(result.skills.find((record) => record.status === 'available')?.metadata?.description, 'Matching folder.');
    assert.equal(result.skills.find((record) => record.status === 'shadowed')?.dir, path.join(dir, 'a'));
  });

  describe('grouping folders', () => {
    const description = (record: SkillRecord): string => `${path.relative(dir, record.dir)}:${record.name}:${record.status}`;

    it('finds skills inside grouping folders, named by the folder holding the SKILL.md, and does not look inside skill folders', async () => {
      await writeTree(dir, {
        pdf: { 'SKILL.md': skillText('pdf', 'PDF.'), references: { nested: { 'SKILL.md': skillText('nested', 'Inside a skill folder.') } } },
        shipping: {
          'README.md': 'Skills for shipping.',
          'land-it': { 'SKILL.md': skillText('land-it', 'Land a change.') },
          release: { notes: { 'SKILL.md': skillText('notes', 'Release notes.') } },
        },
        empty: {},
      });
      for (const blockingReads of [false, true]) {
        const result = await discoverSkills([root(dir)], { blockingReads });
        assert.deepEqual(result.skills.map(description), ['pdf:pdf:available', 'shipping/land-it:land-it:available', 'shipping/release/notes:notes:available'], `blockingReads: ${blockingReads}`);
        assert.deepEqual(
          result.skills.map((record) => record.diagnostics.map((diagnostic) => diagnostic.code)),
          [[], [], []],
        );
        assert.deepEqual(result.groups.map((group) => group.folderName).sort(), ['empty', 'shipping', path.join('shipping', 'release')]);
        assert.deepEqual(result.problems, []);
      }
    });

    it('checks the name against the folder holding the SKILL.md', async () => {
      await writeTree(dir, { shipping: { 'land-it': { 'SKILL.md': skillText('shipping', 'Named like its group.') } } });
      const [record] = (await discoverSkills([root(dir)])).skills;
      assert.equal(record.name, 'shipping');
      assert.deepEqual(
        record.diagnostics.map((diagnostic) => diagnostic.message),
        ['The name "shipping" does not match its folder "land-it". Rename the folder or set "name: land-it".'],
      );
    });

    it('looks at most three grouping folders deep, and skips hidden folders, .git and node_modules', async () => {
      const deep = { 'SKILL.md': skillText('deep', 'Deep.') };
      await writeTree(dir, {
        a: { b: { c: { deep, d: { 'too-deep': { 'SKILL.md': skillText('too-deep', 'Too deep.') } } } } },
        '.hidden': { secret: { 'SKILL.md': skillText('secret', 'Hidden.') } },
        group: { '.cache': { cached: { 'SKILL.md': skillText('cached', 'Hidden.') } }, node_modules: { dep: { 'SKILL.md': skillText('dep', 'A dependency.') } } },
      });
      for (const untrusted of [false, true]) {
        const result = await discoverSkills([root(dir, 'workspace', untrusted)]);
        assert.deepEqual(result.skills.map(description), [`a/b/c/deep:deep:${untrusted ? 'untrusted' : 'available'}`], `untrusted: ${untrusted}`);
      }
    });

    it('follows a link to a skill folder inside a grouping folder, but not a link to a grouping folder', async () => {
      await writeTree(dir, { shared: { team: { pdf: { 'SKILL.md': skillText('pdf', 'Shared PDF.') } } }, skills: { tools: {} } });
      await fs.symlink(path.join(dir, 'shared', 'team', 'pdf'), path.join(dir, 'skills', 'tools', 'pdf'));
      await fs.symlink(path.join(dir, 'shared', 'team'), path.join(dir, 'skills', 'team'));
      const result = await discoverSkills([root(path.join(dir, 'skills'))]);
      assert.deepEqual(result.skills.map(description), ['skills/tools/pdf:pdf:available']);
      assert.equal(result.skills[0].realDir, path.join(dir, 'shared', 'team', 'pdf'));
    });

    it('loads a real folder reached twice once, from the path named like it, wherever the paths lie', async () => {
      await writeTree(dir, { group: { pdf: { 'SKILL.md': skillText('pdf', 'PDF.') } } });
      await fs.symlink(path.join(dir, 'group', 'pdf'), path.join(dir, 'alias'));
      const result = await discoverSkills([root(dir)]);
      assert.deepEqual(result.skills.map(description), ['group/pdf:pdf:available']);
      assert.deepEqual(problemCodes(result), ['duplicate-skill-folder alias']);
    });

    it('resolves a name clash across grouping folders by a fixed order, and says so on the skill that loses', async () => {
      await writeTree(dir, {
        shipping: { deploy: { 'SKILL.md': skillText('deploy', 'Ship it.') } },
        ops: { deploy: { 'SKILL.md': skillText('deploy', 'Deploy a service.') } },
        tools: { release: { deploy: { 'SKILL.md': skillText('deploy', 'Deeper.') } } },
      });
      const result = await discoverSkills([root(dir)]);
      assert.deepEqual(result.skills.map(description), ['ops/deploy:deploy:available', 'shipping/deploy:deploy:shadowed', 'tools/release/deploy:deploy:shadowed']);
      assert.deepEqual(
        result.problems.map((problem) => [problem.code, problem.severity, problem.path, problem.message]),
        [
          [
            'duplicate-skill-name',
            'warning',
            path.join(dir, 'shipping', 'deploy', 'SKILL.md'),
            `Two skills in ${dir} are named "deploy": ops/deploy is used and shipping/deploy is shadowed. Give one of them another name.`,
          ],
          [
            'duplicate-skill-name',
            'warning',
            path.join(dir, 'tools', 'release', 'deploy', 'SKILL.md'),
            `Two skills in ${dir} are named "deploy": ops/deploy is used and tools/release/deploy is shadowed. Give one of them another name.`,
          ],
        ],
      );
    });

    it('lets a skill directly in the location win over a grouped one of the same name, and says nothing about shadowing across locations', async () => {
      await writeTree(dir, {
        ws: { group: { pdf: { 'SKILL.md': skillText('pdf', 'Grouped.') } }, pdf: { 'SKILL.md': skillText('pdf', 'Direct.') } },
        user: { pdf: { 'SKILL.md': skillText('pdf', 'User.') } },
      });
      const result = await discoverSkills([root(path.join(dir, 'ws')), root(path.join(dir, 'user'), 'user')]);
      assert.deepEqual(result.skills.map(description), ['ws/group/pdf:pdf:shadowed', 'ws/pdf:pdf:available', 'user/pdf:pdf:shadowed']);
      assert.deepEqual(problemCodes(result), ['duplicate-skill-name SKILL.md']);
    });
  });

  it('applies the allowlist and the enabled switch', async () => {
    await writeTree(dir, { 'pdf-tools': { 'SKILL.md': skillText('pdf-tools', 'PDF.') }, docx: { 'SKILL.md': skillText('docx', 'Word.') } });
    const allowed = await discoverSkills([root(dir)], { allowlist: ['pdf-*'] });
    assert.deepEqual(
      allowed.skills.map((record) => `${record.name}:${record.status}`),
      ['docx:not-allowed', 'pdf-tools:available'],
    );
    const disabled = await discoverSkills([root(dir)], { enabled: false });
    assert.deepEqual(
      disabled.skills.map((record) => record.status),
      ['disabled', 'disabled'],
    );
  });
});

describe('relativeInside', () => {
  it('tells paths inside a folder from paths outside it', () => {
    assert.equal(relativeInside('/a/b', '/a/b'), '');
    assert.equal(relativeInside('/a/b', '/a/b/c/d'), path.join('c', 'd'));
    assert.equal(relativeInside('/a/b', '/a/b/..c'), '..c');
    assert.equal(relativeInside('/a/b', '/a/bc'), undefined);
    assert.equal(relativeInside('/a/b', '/a'), undefined);
  });
});
