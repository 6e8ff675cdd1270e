// The pure parts of the MCP server: skill:// URIs, what is published for a skill (limits,
// verbatim frontmatter, linked files), and how an editor launches the server.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { SkillRegistry } from '../../../../src/core/discovery/registry';
import { AuthorOnlyResourceError, InvalidCursorError, PublishedSkills, type PublishedSkillsOptions } from '../../../../src/core/mcp/published-skills';
import { mimeTypeOf, publishSkill, sha256Digest, type SkillLimits } from '../../../../src/core/mcp/skill-publication';
import { parseSkillUri, skillUri } from '../../../../src/core/mcp/skill-uri';
import { serverLaunch } from '../../../../src/core/mcp/server-launch';
import type { SkillRecord } from '../../../../src/core/model/types';
import { fakeSnapshot } from '../../fake-snapshot';
import { fakeRecord, removeDir, root, skillText, tempDir, writeTree, type Tree } from '../../../fixtures/trees/tree';

describe('skill:// URIs', () => {
  it('round-trips names and paths, encoding each segment', () => {
    const uri = skillUri('pdf-report', 'notes/with space #1.md');
    assert.equal(uri, 'skill://pdf-report/notes/with%20space%20%231.md');
    assert.deepEqual(parseSkillUri(uri), { name: 'pdf-report', path: 'notes/with space #1.md' });
    assert.deepEqual(parseSkillUri('skill://pdf-report'), { name: 'pdf-report', path: '' });
  });

  it('names the root folder of a skill without a trailing slash', () => {
    assert.equal(skillUri('pdf-report'), 'skill://pdf-report');
    assert.equal(skillUri('pdf-report', ''), 'skill://pdf-report');
  });

  it('rejects anything a published file could not be named by', () => {
    for (const uri of [
      'skill://a/../b/SKILL.md',
      'skill://a/./SKILL.md',
      'skill://a//SKILL.md',
      'skill://a/%2e%2e/x',
      'skill://a/x%2Fy',
      'skill://a/x%5Cy',
      'skill://a/x/',
      'skill://a/x?y',
      'file:///etc/passwd',
      'skill://a/%E0%A4%A',
    ]) {
      assert.equal(parseSkillUri(uri), undefined, uri);
    }
  });
});

describe('publishSkill', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await tempDir();
  });
  afterEach(async () => {
    await removeDir(dir);
  });

  async function recordOf(name: string) {
    const registry = new SkillRegistry();
    await registry.setRoots([root(dir)]);
    return registry.snapshot.usable(name)!;
  }

  it('refuses a skill over the file or size limits, saying why', async () => {
    await writeTree(dir, { big: { 'SKILL.md': skillText('big', 'Big.'), 'a.txt': 'a', 'b.txt': 'bb' } });
    const record = await recordOf('big');
    const tooMany = await publishSkill(record, { files: 2, bytes: 1_000_000 });
    assert.equal(tooMany.ok, false);
    assert.match(!tooMany.ok ? tooMany.message : '', /more than 2 files/);
    const tooLarge = await publishSkill(record, { files: 10, bytes: 10 });
    assert.match(!tooLarge.ok ? tooLarge.message : '', /not published over MCP/);
    assert.equal((await publishSkill(record)).ok, true);
  });

  it('publishes a skill with exactly as many files and bytes as the limits allow, and names each limit it passes', async () => {
    await writeTree(dir, { big: { 'SKILL.md': skillText('big', 'Big.'), 'a.txt': 'a', 'b.txt': 'bb' } });
    const record = await recordOf('big');
    const bytes = (await fs.stat(record.file)).size + 3;
    assert.equal((await publishSkill(record, { files: 3, bytes })).ok, true);
    assert.deepEqual(await publishSkill(record, { files: 2, bytes }), {
      ok: false,
      reason: 'limits',
      message: `Skill "big" has more than 2 files (${record.dir}); it is not published over MCP.`,
    });
    const overBytes = await publishSkill(record, { files: 3, bytes: bytes - 1 });
    assert.deepEqual(overBytes.ok ? undefined : overBytes.reason, 'limits');
  });

  it('gives sizes over the byte limit in MiB', async () => {
    await writeTree(dir, { big: { 'SKILL.md': skillText('big', 'Big.'), 'data.txt': 'x'.repeat(1.5 * 1024 * 1024) } });
    const record = await recordOf('big');
    assert.deepEqual(await publishSkill(record, { files: 10, bytes: 1024 * 1024 }), {
      ok: false,
      reason: 'limits',
      message: `Skill "big" holds 1.5 MiB, more than 1.0 MiB (${record.dir}); it is not published over MCP.`,
    });
  });

  it('refuses a skill with a file it cannot read, naming the skill and the error', async () => {
    await writeTree(dir, { big: { 'SKILL.md': skillText('big', 'Big.'), 'huge.bin': '' } });
    // A sparse file over the 2 GiB that one read can return: no disk space, and readFile refuses it at once.
    await fs.truncate(path.join(dir, 'big', 'huge.bin'), 2 ** 31);
    const result = await publishSkill(await recordOf('big'), { files: 10, bytes: Infinity });
    assert.ok(!result.ok);
    assert.equal(result.reason, 'unreadable');
    assert.match(result.message, /^Could not read skill "big": File size \(2147483648\) is greater than 2 GiB/);
  });

  it('refuses a SKILL.md that no longer parses (in the words of every surface) or whose name changed, saying what is wrong', async () => {
    await writeTree(dir, { pdf: { 'SKILL.md': skillText('pdf', 'Fills forms.') } });
    const record = await recordOf('pdf');
    const refusal = async (text: string | undefined) => {
      await (text === undefined ? fs.rm(record.file) : fs.writeFile(record.file, text));
      const result = await publishSkill(record);
      assert.ok(!result.ok, text);
      assert.equal(result.reason, 'skill-file', text);
      return result.message;
    };
    assert.equal(
      await refusal('Just text.\n'),
      `Skill "pdf" is invalid: SKILL.md must start with YAML frontmatter: a "---" line, the fields (name, description, ...), then a closing "---" line. (${record.file}).`,
    );
    assert.match(await refusal('---\nname: [\n---\n'), /^Skill "pdf" is invalid: Invalid YAML in the frontmatter \(line 2, column 8\)/);
    for (const broken of ['---\n~\n---\n', '---\nhello\n---\n', '---\n- pdf\n---\n', '---\nname: pdf\n---\n']) {
      const message = await refusal(broken);
      assert.ok(message.startsWith('Skill "pdf" is invalid: ') && message.endsWith(` (${record.file}).`), message);
    }
    for (const changed of [skillText('other', 'Fills forms.'), '---\nname: pdf\ndescription: 5\n---\n']) {
      assert.equal(await refusal(changed), `${record.file} changed since it was loaded.`, changed);
    }
    assert.equal(await refusal(undefined), `Could not read skill "pdf": Cannot read the skill file ${record.file}: it does not exist or is not a file`);
  });

  it('tells text from binary by NUL bytes and UTF-8, and types files by extension, then by content', async () => {
    await writeTree(dir, {
      pdf: {
        'SKILL.md': skillText('pdf', 'Fills forms.'),
        'notes.log': 'plain words',
        'data.bin': Buffer.from([0xff, 0xfe, 0x41]),
        'nul.txt': Buffer.from('a\0b'),
        'latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9]),
        'page.html': '<p>é</p>',
      },
    });
    const result = await publishSkill(await recordOf('pdf'));
    assert.ok(result.ok);
    assert.deepEqual(
      [...result.publication.files.values()].map(({ path: file, mimeType, isText }) => [file, mimeType, isText]),
      [
        ['SKILL.md', 'text/markdown', true],
        ['data.bin', 'application/octet-stream', false],
        ['latin1.txt', 'text/plain', false],
        ['notes.log', 'text/plain', true],
        ['nul.txt', 'text/plain', false],
        ['page.html', 'text/html', true],
      ],
    );
  });

  it('lists resources and folder children sorted by name, SKILL.md under that name, folders as folders', async () => {
    await writeTree(dir, { lower: { 'skill.md': skillText('lower', 'Lower-case file.'), 'a.txt': 'a', 'docs.md': 'd', docs: { api: { 'x.md': 'x' } } } });
    const result = await publishSkill(await recordOf('lower'));
    assert.ok(result.ok);
    assert.deepEqual(
      result.publication.entry.resources.map((resource) => resource.uri),
      ['skill://lower/SKILL.md', 'skill://lower/a.txt', 'skill://lower/docs.md', 'skill://lower/docs/api/x.md'],
    );
    assert.deepEqual(Object.fromEntries(result.publication.folders), {
      '': [
        { name: 'SKILL.md', kind: 'file' },
        { name: 'a.txt', kind: 'file' },
        { name: 'docs', kind: 'folder' },
        { name: 'docs.md', kind: 'file' },
      ],
      docs: [{ name: 'api', kind: 'folder' }],
      'docs/api': [{ name: 'x.md', kind: 'file' }],
    });
  });

  it('publishes the SKILL.md the registry loaded when another spelling appears beside it, whichever sorts first', async () => {
    await writeTree(dir, { lower: { 'skill.md': skillText('lower', 'Lower.') }, upper: { 'SKILL.MD': skillText('upper', 'Upper.') } });
    const records = [await recordOf('lower'), await recordOf('upper')];
    for (const record of records) {
      const loaded = await fs.readFile(record.file);
      await fs.writeFile(path.join(record.dir, 'SKILL.md'), 'Not the skill file the registry chose.');
      const result = await publishSkill(record);
      assert.ok(result.ok, record.name);
      assert.deepEqual(result.publication.entry.resources, [{ uri: `skill://${record.name}/SKILL.md`, digest: sha256Digest(loaded), size: loaded.length }]);
      assert.deepEqual(result.publication.files.get('SKILL.md')?.bytes, loaded);
    }
  });

  it('names the skill file SKILL.md whatever its case on disk, and skips links that leave the folder', async () => {
    await writeTree(dir, { lower: { 'skill.md': skillText('lower', 'Lower-case file.') }, outside: { 'x.txt': 'OUT' } });
    await fs.symlink(path.join(dir, 'outside', 'x.txt'), path.join(dir, 'lower', 'x.txt'));
    const result = await publishSkill(await recordOf('lower'));
    assert.ok(result.ok);
    assert.deepEqual(
      result.publication.entry.resources.map((resource) => resource.uri),
      ['skill://lower/SKILL.md'],
    );
    assert.deepEqual(
      [...result.publication.folders.get('')!].map((child) => child.name),
      ['SKILL.md'],
    );
  });
});

describe('mimeTypeOf', () => {
  it('gives each common extension its registered media type, whatever its case, and the text or binary fallback to others', () => {
    const expected: Record<string, string> = {
      '.md': 'text/markdown',
      '.markdown': 'text/markdown',
      '.txt': 'text/plain',
      '.py': 'text/x-python',
      '.js': 'text/javascript',
      '.mjs': 'text/javascript',
      '.cjs': 'text/javascript',
      '.ts': 'text/x-typescript',
      '.sh': 'text/x-shellscript',
      '.json': 'application/json',
      '.yaml': 'application/yaml',
      '.yml': 'application/yaml',
      '.xml': 'application/xml',
      '.html': 'text/html',
      '.css': 'text/css',
      '.csv': 'text/csv',
      '.svg': 'image/svg+xml',
      '.png': 'image/png',
      '.jpg': 'image/jpeg',
      '.jpeg': 'image/jpeg',
      '.gif': 'image/gif',
      '.webp': 'image/webp',
      '.pdf': 'application/pdf',
      '.zip': 'application/zip',
    };
    for (const [extension, type] of Object.entries(expected)) {
      assert.equal(mimeTypeOf(`file${extension}`, false), type, extension);
      assert.equal(mimeTypeOf(`file${extension.toUpperCase()}`, true), type, extension);
    }
    assert.equal(mimeTypeOf('file.unknown', true), 'text/plain');
    assert.equal(mimeTypeOf('file.unknown', false), 'application/octet-stream');
  });
});

describe('PublishedSkills', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await tempDir();
  });
  afterEach(async () => {
    await removeDir(dir);
  });

  it('pages entries and folder listings with the cursors it hands out, and refuses others', async () => {
    await writeTree(dir, {
      a: { 'SKILL.md': skillText('a', 'A.'), docs: { '1.md': '1', '2.md': '2', '3.md': '3' } },
      b: { 'SKILL.md': skillText('b', 'B.') },
      c: { 'SKILL.md': skillText('c', 'C.') },
    });
    const registry = new SkillRegistry();
    await registry.setRoots([root(dir)]);
    const published = new PublishedSkills(registry, { pageSize: 2 });
    const first = await published.list();
    assert.deepEqual(
      first.items.map((entry) => entry.uri),
      ['skill://a/SKILL.md', 'skill://b/SKILL.md'],
    );
    const second = await published.list(first.nextCursor);
    assert.deepEqual(
      second.items.map((entry) => entry.uri),
      ['skill://c/SKILL.md'],
    );
    assert.equal(second.nextCursor, undefined);
    const docs = await published.readDirectory('skill://a/docs');
    const rest = await published.readDirectory('skill://a/docs', docs?.nextCursor);
    assert.deepEqual(
      [...docs!.items, ...rest!.items].map((item) => item.name),
      ['1.md', '2.md', '3.md'],
    );
    for (const cursor of ['-1', 'x', '01', '1.5']) {
      await assert.rejects(published.list(cursor), InvalidCursorError, cursor);
    }
    await assert.rejects(published.readDirectory('skill://a/docs', 'x'), { message: 'Invalid cursor "x": pass back the nextCursor of the previous page.' });
    registry.dispose();
  });

  describe('over the registry', () => {
    let registry: SkillRegistry;
    afterEach(() => {
      registry.dispose();
    });

    /** Serves the skills of `tree`, collecting the problems reported. */
    async function serve(tree: Tree, options: PublishedSkillsOptions = {}) {
      await writeTree(dir, tree);
      registry = new SkillRegistry();
      await registry.setRoots([root(dir)]);
      const problems: string[] = [];
      return { published: new PublishedSkills(registry, { onProblem: (message) => problems.push(message), ...options }), problems };
    }

    it("keeps the authors' folder (evals/) out of entries, reads and folder listings, refusing it by name", async () => {
      const { published } = await serve({ a: { 'SKILL.md': skillText('a', 'Does A.'), 'notes.md': 'n', evals: { 'triggers.json': '[]' } } });
      const [entry] = (await published.list()).items;
      assert.deepEqual(
        entry.resources.map((resource) => resource.uri),
        ['skill://a/SKILL.md', 'skill://a/notes.md'],
      );
      assert.deepEqual(
        (await published.readDirectory('skill://a'))?.items.map((item) => item.name),
        ['SKILL.md', 'notes.md'],
      );
      const refused = (error: unknown) => error instanceof AuthorOnlyResourceError && /^skill:\/\/a\/evals\S*: "evals\S*" is in the skill's evals\/ folder, which holds its tests/.test(error.message);
      await assert.rejects(published.read('skill://a/evals/triggers.json'), refused);
      await assert.rejects(published.readDirectory('skill://a/evals'), refused);
      assert.equal(await published.read('skill://a/notes.md').then((content) => content && 'text' in content && content.text), 'n');
    });

    it('lists the SKILL.md of each usable skill as Markdown with its description', async () => {
      const { published } = await serve({ a: { 'SKILL.md': skillText('a', 'Does A.') }, broken: { 'SKILL.md': '---\nname: broken\n---\n' } });
      assert.deepEqual(await published.listSkillFiles(), [{ uri: 'skill://a/SKILL.md', name: 'a', description: 'Does A.', mimeType: 'text/markdown' }]);
    });

    it('leaves out a skill over its limits, telling once, also when nobody listens', async () => {
      const tree = { a: { 'SKILL.md': skillText('a', 'A.') }, big: { 'SKILL.md': skillText('big', 'Big.'), 'a.txt': 'a', 'b.txt': 'b' } };
      const limits: SkillLimits = { files: 2, bytes: 1_000_000 };
      const { published, problems } = await serve(tree, { limits });
      const uris = async () => (await published.list()).items.map((entry) => entry.uri);
      assert.deepEqual(await uris(), ['skill://a/SKILL.md']);
      assert.deepEqual(
        (await published.listSkillFiles()).map((resource) => resource.uri),
        ['skill://a/SKILL.md'],
        'resources/list holds only what resources/read serves',
      );
      assert.equal(published.invalidate([path.join(dir, 'big', 'a.txt')]), true);
      assert.deepEqual(await uris(), ['skill://a/SKILL.md']);
      assert.deepEqual(problems, [`Skill "big" has more than 2 files (${path.join(dir, 'big')}); it is not published over MCP.`]);

      const unheard = new PublishedSkills(registry, { limits });
      assert.deepEqual(
        (await unheard.list()).items.map((entry) => entry.uri),
        ['skill://a/SKILL.md'],
      );
    });

    it('stops publishing a skill that grows over its limits, offering no last version', async () => {
      const { published, problems } = await serve({ big: { 'SKILL.md': skillText('big', 'Big.'), 'a.txt': 'a' } }, { limits: { files: 2, bytes: 1_000_000 } });
      assert.ok(await published.get('skill://big/SKILL.md'));
      await fs.writeFile(path.join(dir, 'big', 'b.txt'), 'b');
      published.invalidate([path.join(dir, 'big', 'b.txt')]);
      assert.equal(await published.get('skill://big/SKILL.md'), undefined);
      assert.equal(await published.read('skill://big/a.txt'), undefined);
      assert.deepEqual(problems, [`Skill "big" has more than 2 files (${path.join(dir, 'big')}); it is not published over MCP.`]);
    });

    it('serves the last published version of a skill whose SKILL.md breaks, and says so', async () => {
      const { published, problems } = await serve({ pdf: { 'SKILL.md': skillText('pdf', 'Fills forms.') } });
      const file = path.join(dir, 'pdf', 'SKILL.md');
      const entry = await published.get('skill://pdf/SKILL.md');
      await fs.writeFile(file, 'Just text.\n');
      assert.equal(published.invalidate([file]), true);
      assert.deepEqual(await published.get('skill://pdf/SKILL.md'), entry);
      assert.deepEqual(await published.read('skill://pdf/SKILL.md'), { text: skillText('pdf', 'Fills forms.'), mimeType: 'text/markdown' });
      assert.deepEqual(problems, [
        `Skill "pdf" is invalid: SKILL.md must start with YAML frontmatter: a "---" line, the fields (name, description, ...), then a closing "---" line. (${file}). Serving its last published version.`,
      ]);
    });

    it('builds a skill once for requests that arrive together', async () => {
      const { published } = await serve({ pdf: { 'SKILL.md': skillText('pdf', 'Fills forms.') } });
      const [first, second] = await Promise.all([published.get('skill://pdf/SKILL.md'), published.get('skill://pdf/SKILL.md')]);
      assert.ok(first);
      assert.equal(second, first);
    });

    it('marks a skill changed by any path inside its folder, once until it is built again', async () => {
      const { published } = await serve({ pdf: { 'SKILL.md': skillText('pdf', 'Fills forms.') } });
      const inside = path.join(dir, 'pdf', 'SKILL.md');
      const outside = path.join(dir, 'other', 'SKILL.md');
      assert.equal(published.invalidate([inside]), false, 'nothing is built yet');
      await published.list();
      assert.equal(published.invalidate([outside]), false);
      assert.equal(published.invalidate([outside, inside]), true);
      assert.equal(published.invalidate([inside]), false, 'already marked');
      await published.list();
      assert.equal(published.invalidate([path.join(dir, 'pdf')]), true);
    });

    it('marks a linked skill folder changed by a path under the link or under its target', async () => {
      const elsewhere = path.join(dir, 'elsewhere');
      await writeTree(elsewhere, { pdf: { 'SKILL.md': skillText('pdf', 'Fills forms.') } });
      await fs.mkdir(path.join(dir, 'skills'));
      await fs.symlink(path.join(elsewhere, 'pdf'), path.join(dir, 'skills', 'pdf'));
      registry = new SkillRegistry();
      await registry.setRoots([root(path.join(dir, 'skills'))]);
      const published = new PublishedSkills(registry);
      for (const changed of [path.join(elsewhere, 'pdf', 'SKILL.md'), path.join(dir, 'skills', 'pdf', 'SKILL.md')]) {
        assert.ok(await published.get('skill://pdf/SKILL.md'));
        assert.equal(published.invalidate([changed]), true, changed);
      }
    });
  });

  describe('over a changing snapshot', () => {
    /** A skill folder on disk with a hand-made record for it, and a source whose snapshot tests swap. */
    async function sourceOf(name: string) {
      const skillDir = path.join(dir, name);
      await writeTree(skillDir, { 'SKILL.md': skillText(name, 'Fills forms.', 'First version.') });
      const record = (overrides: Partial<SkillRecord> = {}) => fakeRecord(name, 'Fills forms.', { dir: skillDir, realDir: skillDir, file: path.join(skillDir, 'SKILL.md'), ...overrides });
      const source = { snapshot: fakeSnapshot([record()]) };
      const rewrite = (body: string) => fs.writeFile(path.join(skillDir, 'SKILL.md'), skillText(name, 'Fills forms.', body));
      return { source, record, rewrite };
    }
    const skillFileText = async (published: PublishedSkills, name: string) => {
      const content = await published.read(`skill://${name}/SKILL.md`);
      return content && 'text' in content ? content.text : undefined;
    };

    it('keeps what it built until the registry hands over another record for the skill', async () => {
      const { source, record, rewrite } = await sourceOf('pdf');
      const published = new PublishedSkills(source);
      assert.match((await skillFileText(published, 'pdf'))!, /First version/);
      await rewrite('Second version.');
      assert.match((await skillFileText(published, 'pdf'))!, /First version/);
      source.snapshot = fakeSnapshot([record()]);
      assert.match((await skillFileText(published, 'pdf'))!, /Second version/);
    });

    it('publishes nothing of the old name when a folder now holds a skill of another name', async () => {
      const { source, record } = await sourceOf('pdf');
      const problems: string[] = [];
      const published = new PublishedSkills(source, { onProblem: (message) => problems.push(message) });
      assert.ok(await published.get('skill://pdf/SKILL.md'));
      source.snapshot = fakeSnapshot([record({ name: 'forms' })]);
      assert.equal(await published.get('skill://forms/SKILL.md'), undefined);
      assert.deepEqual(problems, [`${path.join(dir, 'pdf', 'SKILL.md')} changed since it was loaded.`]);
    });

    it('forgets skills no longer served, building them anew when they come back', async () => {
      const { source, rewrite } = await sourceOf('pdf');
      const served = source.snapshot;
      const published = new PublishedSkills(source);
      assert.match((await skillFileText(published, 'pdf'))!, /First version/);
      await rewrite('Second version.');
      source.snapshot = fakeSnapshot([]);
      published.forgetUnserved();
      source.snapshot = served;
      assert.match((await skillFileText(published, 'pdf'))!, /Second version/);
    });
  });
});

describe('serverLaunch', () => {
  it('passes trusted roots, allowlist and budget, and changes its version with any of them', () => {
    const roots = [root('/w/.agent/skills'), root('/u/.agent/skills', 'user')];
    const launch = serverLaunch({ roots, allowlist: ['pdf-*'], catalogBudgetChars: 8000 });
    assert.deepEqual(launch.args, ['mcp', '--no-user', '--no-builtin', '--budget-chars', '8000', '--allow', 'pdf-*', '--', '/w/.agent/skills', '/u/.agent/skills']);
    const untrusted = serverLaunch({ roots: [root('/w/.agent/skills', 'workspace', true), roots[1]], allowlist: ['pdf-*'], catalogBudgetChars: 8000 });
    assert.deepEqual(untrusted.args.slice(-2), ['--', '/u/.agent/skills'], 'an untrusted workspace contributes no root');
    const versions = new Set([
      launch.version,
      untrusted.version,
      serverLaunch({ roots, allowlist: [], catalogBudgetChars: 8000 }).version,
      serverLaunch({ roots, allowlist: ['pdf-*'], catalogBudgetChars: 9000 }).version,
    ]);
    assert.equal(versions.size, 4);
    assert.equal(serverLaunch({ roots, allowlist: ['pdf-*'], catalogBudgetChars: 8000 }).version, launch.version);
    assert.match(launch.version, /^[0-9a-f]{12}$/, 'a short hex digest');
  });
});
