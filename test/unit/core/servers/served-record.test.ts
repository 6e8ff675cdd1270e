// A cached skill server entry read as a skill file: its metadata, its stamp, and the error that
// names the server when the entry cannot be used.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cachedEntryFile, loadCachedSkill } from '../../../../src/core/servers/served-record';
import { storeListing } from '../../../../src/core/servers/server-cache';
import { servedSkill, temporaryFolder } from './served-fixtures';

describe('cached skill server entries as skill files', () => {
  it('reads the listed frontmatter, stamped with the entry file', async () => {
    const server = temporaryFolder();
    await storeListing(server, [servedSkill('pdf', { 'SKILL.md': 'x' })]);
    const dir = path.join(server, 'pdf');
    const loaded = await loadCachedSkill(dir, path.join(dir, 'SKILL.md'), 'team');
    const stat = fs.statSync(cachedEntryFile(dir));
    assert.equal(loaded?.metadata?.name, 'pdf');
    assert.equal(loaded?.metadata?.description, 'Use pdf.');
    assert.deepEqual([loaded?.mtimeMs, loaded?.size], [stat.mtimeMs, stat.size]);
    assert.deepEqual(loaded?.diagnostics, []);
  });

  it('names the server of an entry that cannot be used', async () => {
    const dir = path.join(temporaryFolder(), 'pdf');
    fs.mkdirSync(dir);
    fs.writeFileSync(cachedEntryFile(dir), 'not json');
    for (const [server, named] of [
      ['team', 'team'],
      [undefined, '?'],
    ] as const) {
      const loaded = await loadCachedSkill(dir, path.join(dir, 'SKILL.md'), server);
      assert.equal(loaded?.metadata, undefined);
      assert.deepEqual(
        loaded?.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.severity, diagnostic.message]),
        [['served-entry', 'error', `Skill server "${named}" listed an entry that cannot be used: .skill-entry.json is not JSON.`]],
      );
    }
  });

  it('reads nothing from a folder without an entry, or with one it cannot read', async () => {
    const dir = path.join(temporaryFolder(), 'pdf');
    fs.mkdirSync(dir);
    assert.equal(await loadCachedSkill(dir, path.join(dir, 'SKILL.md'), 'team'), undefined);
    fs.mkdirSync(cachedEntryFile(dir));
    assert.equal(await loadCachedSkill(dir, path.join(dir, 'SKILL.md'), 'team'), undefined);
  });
});
