import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { TRIGGER_TESTS_PATH } from '../../../../src/core/evals/trigger-file';
import {
  describeFileType,
  authorOnlyMessage,
  isAuthorOnlyPath,
  listSkillResources,
  normalizeResourcePath,
  readSkillResource,
  renderResource,
  ResourceError,
  type SkillResource,
} from '../../../../src/core/use/resources';
import { copyFixture, removeDir, tempDir, writeTree } from '../../../fixtures/trees/tree';

async function rejectsWith(promise: Promise<unknown>, code: string, message?: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof ResourceError, `expected a ResourceError, got ${String(error)}`);
    assert.equal(error.code, code);
    if (message) {
      assert.match(error.message, message);
    }
    return true;
  });
}

describe('skill resources', () => {
  let dir: string;
  let skill: string;

  beforeEach(async () => {
    dir = await tempDir();
    await copyFixture('with-resources', dir);
    skill = path.join(dir, 'report');
  });

  afterEach(async () => {
    await removeDir(dir);
  });

  describe('reading', () => {
    it('reads a text file by relative path, with either separator', async () => {
      const resource = await readSkillResource(skill, 'references\\guide.md');
      assert.equal(resource.kind, 'text');
      assert.equal(resource.path, 'references/guide.md');
      assert.equal(renderResource(resource), '# Guide\n\nStep one: gather numbers.\n');
    });

    it('allows inner .. that stays inside the folder', async () => {
      const resource = await readSkillResource(skill, 'scripts/../references/./guide.md');
      assert.equal(resource.path, 'references/guide.md');
    });

    for (const attempt of ['../x', 'a/../../x', '..', '..\\..\\etc\\passwd', 'references/../../report-sibling']) {
      it(`refuses to leave the folder: ${attempt}`, async () => {
        await rejectsWith(readSkillResource(skill, attempt), 'outside-skill');
      });
    }

    for (const attempt of ['/etc/passwd', 'C:\\Windows\\win.ini', 'c:relative', '\\\\server\\share\\x']) {
      it(`refuses absolute paths and drives: ${attempt}`, async () => {
        await rejectsWith(readSkillResource(skill, attempt), 'invalid-path');
      });
    }

    it('refuses NUL bytes and empty paths', async () => {
      await rejectsWith(readSkillResource(skill, 'guide.md\0.png'), 'invalid-path');
      await rejectsWith(readSkillResource(skill, '  '), 'invalid-path');
    });

    it('refuses a symlink that leads outside the skill folder', async () => {
      await fs.writeFile(path.join(dir, 'secret.txt'), 'secret');
      await fs.symlink(path.join(dir, 'secret.txt'), path.join(skill, 'escape.txt'));
      await fs.symlink(dir, path.join(skill, 'parent'));
      await rejectsWith(readSkillResource(skill, 'escape.txt'), 'outside-skill');
      await rejectsWith(readSkillResource(skill, 'parent/secret.txt'), 'outside-skill');
    });

    it('follows a symlink that stays inside the skill folder', async () => {
      await fs.symlink(path.join(skill, 'references', 'guide.md'), path.join(skill, 'guide-link.md'));
      const resource = await readSkillResource(skill, 'guide-link.md');
      assert.equal(resource.kind, 'text');
    });

    it('works when the skill folder itself is reached through a link', async () => {
      await fs.symlink(skill, path.join(dir, 'linked-report'));
      const resource = await readSkillResource(path.join(dir, 'linked-report'), 'scripts/build.py');
      assert.equal(resource.kind === 'text' && resource.text, 'print("building report")\n');
    });

    it('caps the bytes returned and says so', async () => {
      await fs.writeFile(path.join(skill, 'big.txt'), 'é'.repeat(1000)); // 2,000 bytes
      const resource = (await readSkillResource(skill, 'big.txt', { maxBytes: 501 })) as SkillResource & { kind: 'text' };
      assert.equal(resource.truncated, true);
      assert.equal(resource.size, 2000);
      assert.equal(resource.text, 'é'.repeat(250)); // the half character at the cut is dropped
      assert.match(renderResource(resource), /\[Truncated: showing the first 500 bytes of 2\.0 KiB\.\]$/);
    });

    it('describes a binary file instead of returning its bytes', async () => {
      await fs.writeFile(path.join(skill, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]));
      const resource = await readSkillResource(skill, 'logo.png');
      assert.deepEqual(resource, { kind: 'binary', path: 'logo.png', size: 7, type: 'PNG image' });
      assert.equal(renderResource(resource), 'logo.png is a binary file (PNG image, 7 bytes); its content is not shown.');
    });

    it('names the kind of each common binary format, whatever the case of its extension', () => {
      const extensions = [
        '.png',
        '.jpg',
        '.jpeg',
        '.gif',
        '.webp',
        '.ico',
        '.pdf',
        '.zip',
        '.gz',
        '.tar',
        '.woff',
        '.woff2',
        '.ttf',
        '.otf',
        '.docx',
        '.xlsx',
        '.pptx',
        '.wasm',
        '.exe',
        '.so',
        '.dll',
        '.bin',
      ];
      for (const extension of extensions) {
        const type = describeFileType(`file${extension.toUpperCase()}`);
        assert.match(type, /\S/, extension);
        assert.notEqual(type, describeFileType('file.unknown'), extension);
      }
      assert.equal(describeFileType('file.unknown'), 'binary file');
    });

    it('explains a missing file with close matches and nearby files', async () => {
      await rejectsWith(readSkillResource(skill, 'references/guid.md'), 'not-found', /Did you mean: references\/guide\.md\?.*Files in references\/: references\/guide\.md/);
    });

    it('refuses a folder and lists what it holds', async () => {
      await rejectsWith(readSkillResource(skill, 'scripts'), 'not-a-file', /build\.py/);
    });

    it('lists at most the first fifty entries of a folder, sorted, and says when it is empty', async () => {
      await fs.mkdir(path.join(skill, 'many'));
      // Created out of order, so neither creation order nor its reverse is sorted.
      for (let step = 0; step < 60; step++) {
        await fs.writeFile(path.join(skill, 'many', `f${String((step * 7) % 60).padStart(2, '0')}.txt`), '');
      }
      const listed = Array.from({ length: 50 }, (_, index) => `f${String(index).padStart(2, '0')}.txt`).join(', ');
      await rejectsWith(readSkillResource(skill, 'many/'), 'not-a-file', new RegExp(`^"many" is a folder, not a file\\. It contains: ${listed}\\.$`));
      await fs.mkdir(path.join(skill, 'empty'));
      await rejectsWith(readSkillResource(skill, 'empty'), 'not-a-file', /^"empty" is a folder, not a file\.$/);
    });

    it('refuses a special file without calling it a folder', async function () {
      try {
        execFileSync('mkfifo', [path.join(skill, 'pipe')]);
      } catch {
        this.skip(); // Needs mkfifo, as on Linux and macOS.
      }
      await rejectsWith(readSkillResource(skill, 'pipe'), 'not-a-file', /^"pipe" is not a regular file\.$/);
    });

    it('offers every close name', async () => {
      await writeTree(skill, { 'notes.md': '', 'notex.md': '' });
      await rejectsWith(readSkillResource(skill, 'note.md'), 'not-found', /Did you mean: notes\.md, notex\.md\?/);
    });

    it('names the files of the top folder, or of all folders when the requested folder has none', async () => {
      await fs.writeFile(path.join(skill, 'notes.md'), '');
      await rejectsWith(readSkillResource(skill, 'skill.md'), 'not-found', /^No file "skill\.md" in the skill folder\. Did you mean: SKILL\.md\? Files: SKILL\.md, notes\.md\.$/);
      await rejectsWith(
        readSkillResource(skill, 'missing/zzzzzz.md'),
        'not-found',
        /^No file "missing\/zzzzzz\.md" in the skill folder\. Files: SKILL\.md, notes\.md, references\/guide\.md, scripts\/build\.py\.$/,
      );
    });

    it('names at most twenty nearby files', async () => {
      await writeTree(skill, { many: Object.fromEntries(Array.from({ length: 25 }, (_, index) => [`f${String(index).padStart(2, '0')}.txt`, ''])) });
      const shown = Array.from({ length: 20 }, (_, index) => `many/f${String(index).padStart(2, '0')}.txt`).join(', ');
      await rejectsWith(readSkillResource(skill, 'many/zzzzzzzz.md'), 'not-found', new RegExp(`Files in many/: ${shown}\\.$`));
    });

    it('says when the skill folder holds no file at all', async () => {
      const empty = path.join(dir, 'empty');
      await fs.mkdir(empty);
      await rejectsWith(readSkillResource(empty, 'x.md'), 'not-found', /^No file "x\.md" in the skill folder\. The skill folder has no other files\.$/);
    });

    it('treats a path through a file as missing, and passes other file-system errors on', async () => {
      await rejectsWith(readSkillResource(skill, 'scripts/build.py/x'), 'not-found', /^No file "scripts\/build\.py\/x" in the skill folder\./);
      await fs.symlink('loop', path.join(skill, 'loop'));
      await assert.rejects(readSkillResource(skill, 'loop'), (error: unknown) => !(error instanceof ResourceError) && (error as NodeJS.ErrnoException).code === 'ELOOP');
    });

    it('says a link leads outside in its message', async () => {
      await fs.writeFile(path.join(dir, 'secret.txt'), 'secret');
      await fs.symlink(path.join(dir, 'secret.txt'), path.join(skill, 'escape.txt'));
      await rejectsWith(readSkillResource(skill, 'escape.txt'), 'outside-skill', /^"escape\.txt" is a link that leads outside the skill folder\.$/);
    });

    it('reads a text file whole up to the limit, and longer than the binary sniff', async () => {
      await fs.writeFile(path.join(skill, 'long.txt'), 'a'.repeat(10_000));
      const resource = await readSkillResource(skill, 'long.txt');
      assert.deepEqual(resource, { kind: 'text', path: 'long.txt', text: 'a'.repeat(10_000), size: 10_000, truncated: false });
      const exact = await readSkillResource(skill, 'long.txt', { maxBytes: 10_000 });
      assert.equal(exact.kind === 'text' && exact.truncated, false);
    });

    it('judges a file binary by its first bytes even past a small limit', async () => {
      await fs.writeFile(path.join(skill, 'data.dat'), Buffer.concat([Buffer.from('a'.repeat(600)), Buffer.from([0])]));
      const resource = await readSkillResource(skill, 'data.dat', { maxBytes: 501 });
      assert.deepEqual(resource, { kind: 'binary', path: 'data.dat', size: 601, type: 'binary file' });
    });

    it('closes the file it read', async function () {
      const openFiles = async () => (await fs.readdir('/proc/self/fd').catch(() => undefined))?.length;
      const before = await openFiles();
      if (before === undefined) {
        this.skip(); // Counting open files needs Linux's /proc.
      }
      for (let read = 0; read < 20; read++) {
        await readSkillResource(skill, 'references/guide.md');
      }
      assert.ok((await openFiles())! < before! + 10, 'files left open');
    });

    it('gives binary sizes in bytes, KiB or MiB', async () => {
      for (const [size, shown] of [
        [1023, '1023 bytes'],
        [1024, '1.0 KiB'],
        [1024 * 1024 - 1, '1024.0 KiB'],
        [1024 * 1024, '1.0 MiB'],
        [1536 * 1024, '1.5 MiB'],
      ] as const) {
        assert.equal(renderResource({ kind: 'binary', path: 'a.bin', size, type: 'binary data' }), `a.bin is a binary file (binary data, ${shown}); its content is not shown.`);
      }
    });
  });

  describe("the authors' folder (evals/)", () => {
    beforeEach(async () => {
      await writeTree(skill, { evals: { 'triggers.json': '[{ "query": "make the report", "should_trigger": true }]', deep: { 'notes.md': 'n' } }, references: { 'evals.md': 'about evals' } });
    });

    it('is not listed, though a file named after it elsewhere is', async () => {
      const listing = await listSkillResources(skill, { limit: Infinity, includeSkillFile: true });
      assert.deepEqual(listing.files, ['SKILL.md', 'references/evals.md', 'references/guide.md', 'scripts/build.py']);
      assert.equal(listing.total, 4);
    });

    for (const attempt of ['evals/triggers.json', './evals/triggers.json', 'evals\\triggers.json', 'scripts/../evals/triggers.json', 'EVALS/triggers.json', 'evals/deep/notes.md', 'evals']) {
      it(`refuses to read it, with the reason: ${attempt}`, async () => {
        await rejectsWith(readSkillResource(skill, attempt), 'author-only', /is in the skill's (evals|EVALS)\/ folder, which holds its tests for the skill's authors; it is not given to the model\./);
      });
    }

    it('refuses a link that leads into it', async () => {
      await fs.symlink(path.join(skill, 'evals', 'triggers.json'), path.join(skill, 'answers.json'));
      await fs.symlink(path.join(skill, 'evals'), path.join(skill, 'tests'));
      await rejectsWith(readSkillResource(skill, 'answers.json'), 'author-only', /"evals\/triggers\.json" is in the skill's evals\/ folder/);
      await rejectsWith(readSkillResource(skill, 'tests/triggers.json'), 'author-only');
    });

    it('does not name its files when a requested file is missing', async () => {
      await rejectsWith(readSkillResource(skill, 'triggers.json'), 'not-found', /^(?![\s\S]*evals\/)/);
    });

    it('holds the trigger tests, and nothing else of the skill', () => {
      assert.equal(isAuthorOnlyPath(TRIGGER_TESTS_PATH), true);
      assert.equal(isAuthorOnlyPath('evals'), true);
      assert.equal(isAuthorOnlyPath('references/evals/x.md'), false);
      assert.equal(isAuthorOnlyPath('evals.md'), false);
      assert.equal(isAuthorOnlyPath('evaluations/x.md'), false);
      assert.equal(isAuthorOnlyPath('././evals/triggers.json'), true);
      assert.equal(isAuthorOnlyPath('.\\Evals\\triggers.json'), true);
      assert.match(authorOnlyMessage('Evals/triggers.json'), /^"Evals\/triggers\.json" is in the skill's Evals\/ folder, which holds its tests/);
    });
  });

  describe('listing', () => {
    it('lists files recursively as sorted POSIX paths, without SKILL.md, .git or node_modules', async () => {
      await writeTree(skill, { '.git': { HEAD: 'ref' }, node_modules: { dep: { 'index.js': '' } }, assets: { 'a.txt': 'a' } });
      const listing = await listSkillResources(skill);
      assert.deepEqual(listing, { files: ['assets/a.txt', 'references/guide.md', 'scripts/build.py'], total: 3, complete: true });
    });

    it('caps the listing and reports the total', async () => {
      await writeTree(skill, { many: Object.fromEntries(Array.from({ length: 30 }, (_, index) => [`f${String(index).padStart(2, '0')}.txt`, ''])) });
      const listing = await listSkillResources(skill, { limit: 10 });
      assert.equal(listing.files.length, 10);
      assert.equal(listing.total, 32);
      assert.equal(listing.files[0], 'many/f00.txt');
    });

    it('does not enter or list linked folders, lists linked files and skips dangling links', async () => {
      await fs.symlink(dir, path.join(skill, 'up'));
      await fs.symlink(path.join(skill, 'references', 'guide.md'), path.join(skill, 'guide-link.md'));
      await fs.symlink(path.join(skill, 'gone.md'), path.join(skill, 'dangling.md'));
      const listing = await listSkillResources(skill);
      assert.deepEqual(listing.files, ['guide-link.md', 'references/guide.md', 'scripts/build.py']);
    });

    it('skips only the SKILL.md of the top folder', async () => {
      await writeTree(skill, { 'notes.md': '', references: { 'skill.md': '' } });
      const listing = await listSkillResources(skill);
      assert.deepEqual(listing.files, ['notes.md', 'references/guide.md', 'references/skill.md', 'scripts/build.py']);
    });

    it('lists nothing for a folder it cannot read', async () => {
      assert.deepEqual(await listSkillResources(path.join(dir, 'missing')), { files: [], total: 0, complete: true });
    });

    it('stops walking after ten thousand entries and says the listing is incomplete', async function () {
      this.timeout(60_000);
      const big = path.join(dir, 'big');
      await writeTree(big, { sub: { 'inner.txt': '' } });
      await Promise.all(Array.from({ length: 9_999 }, (_, index) => fs.writeFile(path.join(big, `f${index}.txt`), '')));
      const listing = await listSkillResources(big, { limit: 1 });
      assert.deepEqual(listing, { files: ['f0.txt'], total: 9_999, complete: false });
    });
  });

  it('normalizes paths before touching the disk', () => {
    assert.equal(normalizeResourcePath('./a//b/'), 'a/b');
    assert.equal(normalizeResourcePath('notes/a:b.md'), 'notes/a:b.md');
  });

  it('explains each path it refuses', () => {
    const refusal = (requested: string) => {
      try {
        normalizeResourcePath(requested);
      } catch (error) {
        assert.ok(error instanceof ResourceError);
        return [error.name, error.code, error.message];
      }
      assert.fail(`${requested} was accepted`);
    };
    assert.deepEqual(refusal('.'), ['ResourceError', 'not-a-file', 'The path names the skill folder itself; give a file inside it.']);
    assert.deepEqual(refusal('a\0b'), ['ResourceError', 'invalid-path', 'The path contains a NUL character.']);
    assert.deepEqual(refusal(' '), ['ResourceError', 'invalid-path', 'The path is empty; give a path relative to the skill folder, e.g. references/guide.md.']);
    assert.deepEqual(refusal('c:x'), ['ResourceError', 'invalid-path', '"c:x" is absolute; give a path relative to the skill folder.']);
    assert.deepEqual(refusal('..'), ['ResourceError', 'outside-skill', '".." leads outside the skill folder.']);
  });
});
