// A cached skill server entry read as a skill file: its metadata, its stamp, and the error that
// names the server when the entry cannot be used.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cachedEntryFile, loadCachedSkill } from '../../../../src/core/servers/served-record';
import { storeListing } from '../../../../src/core/servers/server-cache';
import { servedSkill, temporaryFolder } from './served-fixtures';

describe('cached skill server entries as skill files', () => {
  it('reads the listed frontmatter, stamped with the entry file, named by server and path, with its URI', async () => {
    const server = temporaryFolder();
    await storeListing(server, [
      servedSkill('pdf', { 'SKILL.md': 'x' }),
      servedSkill('refunds', { 'SKILL.md': 'y' }, 'Refunds.', 'acme/billing/'),
      { ...servedSkill('gh', { 'SKILL.md': 'z' }), uri: 'github://o/r/gh/SKILL.md', resources: [{ ...servedSkill('gh', { 'SKILL.md': 'z' }).resources[0], uri: 'github://o/r/gh/SKILL.md' }] },
    ]);
    const dir = path.join(server, 'pdf');
    const loaded = await loadCachedSkill(dir, path.join(dir, 'SKILL.md'), 'team');
    const stat = fs.statSync(cachedEntryFile(dir));
    assert.equal(loaded?.metadata?.name, 'pdf');
    assert.equal(loaded?.metadata?.description, 'Use pdf.');
    assert.deepEqual([loaded?.name, loaded?.uri], ['team/pdf', 'skill://pdf/SKILL.md']);
    assert.deepEqual([loaded?.mtimeMs, loaded?.size], [stat.mtimeMs, stat.size]);
    assert.deepEqual(loaded?.diagnostics, []);
    const nested = path.join(server, 'acme%2Fbilling%2Frefunds');
    const refunds = await loadCachedSkill(nested, path.join(nested, 'SKILL.md'), 'team');
    assert.deepEqual([refunds?.name, refunds?.uri, refunds?.metadata?.name], ['team/acme/billing/refunds', 'skill://acme/billing/refunds/SKILL.md', 'refunds']);
    const other = path.join(server, 'github%3Ao%2Fr%2Fgh');
    assert.equal((await loadCachedSkill(other, path.join(other, 'SKILL.md'), 'team'))?.name, 'team/github:o/r/gh');
  });

  it('names the server of an entry that cannot be used, and the skill by the path its folder stands for', async () => {
    const dir = path.join(temporaryFolder(), 'acme%2Fpdf');
    fs.mkdirSync(dir);
    fs.writeFileSync(cachedEntryFile(dir), 'not json');
    const loaded = await loadCachedSkill(dir, path.join(dir, 'SKILL.md'), 'team');
    assert.equal(loaded?.metadata, undefined);
    assert.deepEqual([loaded?.name, loaded?.uri], ['team/acme/pdf', undefined]);
    assert.deepEqual(
      loaded?.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.severity, diagnostic.message]),
      [['served-entry', 'error', 'Skill server "team" listed an entry that cannot be used: .skill-entry.json is not JSON.']],
    );
  });

  it('reads nothing from a folder without an entry, or with one it cannot read', async () => {
    const dir = path.join(temporaryFolder(), 'pdf');
    fs.mkdirSync(dir);
    assert.equal(await loadCachedSkill(dir, path.join(dir, 'SKILL.md'), 'team'), undefined);
    fs.mkdirSync(cachedEntryFile(dir));
    assert.equal(await loadCachedSkill(dir, path.join(dir, 'SKILL.md'), 'team'), undefined);
  });
});
