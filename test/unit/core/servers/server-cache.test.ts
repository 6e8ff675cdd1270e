import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cacheFolderName, cachedSkillFile, ENTRY_FILE_NAME, readCachedEntry, readVerifiedCachedFile, storeCachedFile, storeListing } from '../../../../src/core/servers/server-cache';
import { failing, withFs, type FsPromises } from '../discovery/fs-stub';
import { servedSkill, skillText, temporaryFolder } from './served-fixtures';

describe('the skill server cache', () => {
  it('names a skill folder after its path in the server, so same-named skills at other paths stay apart', () => {
    assert.equal(cacheFolderName({ uri: 'skill://pdf/SKILL.md' }), 'pdf');
    assert.equal(cacheFolderName({ uri: 'skill://acme/billing/refunds/SKILL.md' }), 'acme%2Fbilling%2Frefunds');
    assert.equal(cacheFolderName({ uri: 'github://o/r/refunds/SKILL.md' }), 'github%3Ao%2Fr%2Frefunds');
    assert.equal(cacheFolderName({ uri: 'skill://.hidden/x/SKILL.md' }), '%2Ehidden%2Fx');
    assert.equal(cacheFolderName({ uri: 'skill://pdf-v1.2/SKILL.md' }), 'pdf-v1.2');
  });

  it('holds exactly the listed skills: new and changed entries written, unchanged ones left alone, gone ones removed', async () => {
    const server = temporaryFolder();
    const first = await storeListing(server, [servedSkill('pdf', { 'SKILL.md': 'a' }), servedSkill('notes', { 'SKILL.md': 'b' })]);
    assert.deepEqual(first.changed.map((dir) => path.basename(dir)).sort(), ['notes', 'pdf']);
    assert.equal(await cachedSkillFile(path.join(server, 'pdf')), path.join(server, 'pdf', 'SKILL.md'));
    const entryStat = fs.statSync(path.join(server, 'pdf', ENTRY_FILE_NAME));

    const second = await storeListing(server, [servedSkill('pdf', { 'SKILL.md': 'a' }), servedSkill('journal', { 'SKILL.md': 'c' })]);
    assert.deepEqual(
      second.changed.map((dir) => path.basename(dir)),
      ['journal'],
    );
    assert.deepEqual(
      second.removed.map((dir) => path.basename(dir)),
      ['notes'],
    );
    assert.equal(fs.existsSync(path.join(server, 'notes')), false);
    assert.equal(fs.statSync(path.join(server, 'pdf', ENTRY_FILE_NAME)).mtimeMs, entryStat.mtimeMs);
    const cached = await readCachedEntry(path.join(server, 'journal'));
    assert.ok(cached && 'skill' in cached);
    assert.equal(cached.skill.frontmatter.name, 'journal');
  });

  it('refuses a skill with a file named like its own entry file, and a URI listed twice', async () => {
    const server = temporaryFolder();
    const update = await storeListing(server, [servedSkill('pdf', { 'SKILL.md': 'a', [ENTRY_FILE_NAME]: '{}' }), servedSkill('notes', { 'SKILL.md': 'b' }), servedSkill('notes', { 'SKILL.md': 'b' })]);
    assert.deepEqual(
      update.refused.map((refused) => [refused.uri, refused.reason]),
      [
        ['skill://pdf/SKILL.md', `it has a file named ${ENTRY_FILE_NAME}, a name this extension keeps for itself`],
        ['skill://notes/SKILL.md', 'the server lists this URI twice'],
      ],
    );
    assert.equal(fs.existsSync(path.join(server, 'pdf')), false);
  });

  it('serves a cached file only while its bytes still have the listed digest', async () => {
    const dir = path.join(temporaryFolder(), 'pdf');
    const text = skillText('pdf', 'Use pdf.');
    const entry = servedSkill('pdf', { 'SKILL.md': text });
    assert.equal(await readVerifiedCachedFile(dir, 'SKILL.md', entry.resources[0]), undefined);
    await storeCachedFile(dir, 'SKILL.md', Buffer.from(text));
    assert.equal((await readVerifiedCachedFile(dir, 'SKILL.md', entry.resources[0]))?.toString(), text);
    fs.writeFileSync(path.join(dir, 'SKILL.md'), text.replace('Use', 'Fix'));
    assert.equal(await readVerifiedCachedFile(dir, 'SKILL.md', entry.resources[0]), undefined);
    assert.deepEqual(
      fs.readdirSync(dir).filter((name) => name.endsWith('.tmp')),
      [],
    );
  });

  it('says why a kept entry cannot be used', async () => {
    const dir = path.join(temporaryFolder(), 'pdf');
    fs.mkdirSync(dir);
    assert.equal(await readCachedEntry(dir), undefined);
    fs.writeFileSync(path.join(dir, ENTRY_FILE_NAME), 'not json');
    assert.deepEqual(await readCachedEntry(dir), { reason: `${ENTRY_FILE_NAME} is not JSON` });
  });
  it('takes a folder without an entry file for no cached skill', async () => {
    const dir = temporaryFolder();
    assert.equal(await cachedSkillFile(dir), undefined);
    fs.mkdirSync(path.join(dir, ENTRY_FILE_NAME));
    assert.equal(await cachedSkillFile(dir), undefined);
  });

  it('stores nothing and removes nothing for an empty listing of a server never cached', async () => {
    const server = path.join(temporaryFolder(), 'never-cached');
    assert.deepEqual(await storeListing(server, []), { changed: [], removed: [], refused: [] });
    assert.equal(fs.existsSync(server), false);
  });

  it('takes a skill folder that another window removed meanwhile as removed', async () => {
    const server = temporaryFolder();
    await storeListing(server, [servedSkill('pdf', { 'SKILL.md': 'a' })]);
    const withGoneFolder = (readdir: FsPromises['readdir']): FsPromises['readdir'] => {
      const list = readdir as (...args: unknown[]) => Promise<fs.Dirent[]>;
      return (async (...args: unknown[]) => {
        const entries = await list(...args);
        const gone = Object.assign(Object.create(Object.getPrototypeOf(entries[0]) as object) as fs.Dirent, entries[0], { name: 'gone' });
        return [...entries, gone];
      }) as unknown as FsPromises['readdir'];
    };
    const update = await withFs('readdir', withGoneFolder, () => storeListing(server, []));
    assert.deepEqual(
      update.removed.map((dir) => path.basename(dir)),
      ['pdf', 'gone'],
    );
  });

  it('keeps no half-written file when a file cannot be kept, and says why', async () => {
    const dir = temporaryFolder();
    fs.mkdirSync(path.join(dir, 'references', 'forms.md'), { recursive: true });
    await assert.rejects(storeCachedFile(dir, 'references/forms.md', Buffer.from('x')), { code: 'EISDIR' });
    assert.deepEqual(fs.readdirSync(path.join(dir, 'references')), ['forms.md']);
    // A full disk refuses the first write: that is the error, not the missing file left to remove.
    await assert.rejects(
      withFs('writeFile', failing('ENOSPC', 'no space left on device'), () => storeCachedFile(dir, 'SKILL.md', Buffer.from('x'))),
      { code: 'ENOSPC' },
    );
    assert.deepEqual(fs.readdirSync(dir), ['references']);
  });
});
