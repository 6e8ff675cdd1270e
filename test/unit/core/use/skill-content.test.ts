import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { contentByOrigin, FOLDER_CONTENT, type SkillContent } from '../../../../src/core/use/skill-content';
import { fakeRecord, removeDir, skillText, tempDir, writeTree } from '../../../fixtures/trees/tree';

describe('skill content by origin', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await tempDir();
    await writeTree(dir, { notes: { 'SKILL.md': skillText('notes', 'Take notes.', 'Write it down.'), 'a.md': 'A.', 'b.md': 'B.', 'c.md': 'C.' } });
  });
  afterEach(() => removeDir(dir));

  const local = (): ReturnType<typeof fakeRecord> => fakeRecord('notes', 'Take notes.', { dir: path.join(dir, 'notes'), file: path.join(dir, 'notes', 'SKILL.md'), realDir: path.join(dir, 'notes') });

  it("reads a folder's skill fresh from disk: its body, its files up to a limit, one file", async () => {
    const record = local();
    assert.equal((await FOLDER_CONTENT.readBody(record)).trim(), 'Write it down.');
    await fs.writeFile(record.file, skillText('notes', 'Take notes.', 'Edited.'));
    assert.equal((await FOLDER_CONTENT.readBody(record)).trim(), 'Edited.');
    assert.deepEqual(await FOLDER_CONTENT.listResources(record, 2), { files: ['a.md', 'b.md'], total: 3, complete: true });
    assert.deepEqual(await FOLDER_CONTENT.readResource(record, 'c.md'), { kind: 'text', path: 'c.md', text: 'C.', size: 2, truncated: false });
    await fs.rm(record.file);
    await assert.rejects(FOLDER_CONTENT.readBody(record), (error: Error) => error.message.includes(record.file));
  });

  it("sends a skill server's skill to the server's content, with every argument, and every other skill to its folder", async () => {
    const calls: unknown[][] = [];
    const served: SkillContent = {
      readBody: (...args) => (calls.push(['body', ...args]), Promise.resolve('From the server.')),
      listResources: (...args) => (calls.push(['list', ...args]), Promise.resolve({ files: ['s.md'], total: 1, complete: true })),
      readResource: (...args) => (calls.push(['read', ...args]), Promise.resolve({ kind: 'text', path: 's.md', text: 'S.', size: 2, truncated: false })),
    };
    const content = contentByOrigin(served);
    const server = fakeRecord('lint', 'Lint.', { root: { path: '/cache/tools', kind: 'server', label: 'Tools', server: 'tools' } });
    assert.equal(await content.readBody(server), 'From the server.');
    assert.deepEqual((await content.listResources(server, 5)).files, ['s.md']);
    assert.equal(((await content.readResource(server, 's.md', { maxBytes: 10 })) as { text: string }).text, 'S.');
    assert.deepEqual(calls, [
      ['body', server],
      ['list', server, 5],
      ['read', server, 's.md', { maxBytes: 10 }],
    ]);
    const record = local();
    assert.equal((await content.readBody(record)).trim(), 'Write it down.');
    assert.deepEqual((await content.listResources(record, 1)).files, ['a.md']);
    assert.equal(((await content.readResource(record, 'b.md', { maxBytes: 1 })) as { text: string; truncated: boolean }).truncated, true);
    assert.equal(calls.length, 3);
  });
});
