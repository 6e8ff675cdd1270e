import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { listSkillResources, normalizeResourcePath, readSkillResource, renderResource, ResourceError, type SkillResource } from '../../../../src/core/use/resources';
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

    it('explains a missing file with close matches and nearby files', async () => {
      await rejectsWith(readSkillResource(skill, 'references/guid.md'), 'not-found', /Did you mean: references\/guide\.md\?.*Files in references\/: references\/guide\.md/);
    });

    it('refuses a folder and lists what it holds', async () => {
      await rejectsWith(readSkillResource(skill, 'scripts'), 'not-a-file', /build\.py/);
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

    it('does not enter linked folders', async () => {
      await fs.symlink(dir, path.join(skill, 'up'));
      const listing = await listSkillResources(skill);
      assert.ok(!listing.files.some((file) => file.startsWith('up/')));
    });
  });

  it('normalizes paths before touching the disk', () => {
    assert.equal(normalizeResourcePath('./a//b/'), 'a/b');
    assert.throws(() => normalizeResourcePath('.'), ResourceError);
  });
});
