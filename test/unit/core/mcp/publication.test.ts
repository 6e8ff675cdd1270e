// The pure parts of the MCP server: skill:// URIs, what is published for a skill (limits,
// verbatim frontmatter, linked files), and how an editor launches the server.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { SkillRegistry } from '../../../../src/core/discovery/registry';
import { InvalidCursorError, PublishedSkills } from '../../../../src/core/mcp/published-skills';
import { publishSkill } from '../../../../src/core/mcp/skill-publication';
import { parseSkillUri, skillUri } from '../../../../src/core/mcp/skill-uri';
import { serverLaunch } from '../../../../src/core/mcp/server-launch';
import { removeDir, root, skillText, tempDir, writeTree } from '../../../fixtures/trees/tree';

describe('skill:// URIs', () => {
  it('round-trips names and paths, encoding each segment', () => {
    const uri = skillUri('pdf-report', 'notes/with space #1.md');
    assert.equal(uri, 'skill://pdf-report/notes/with%20space%20%231.md');
    assert.deepEqual(parseSkillUri(uri), { name: 'pdf-report', path: 'notes/with space #1.md' });
    assert.deepEqual(parseSkillUri('skill://pdf-report'), { name: 'pdf-report', path: '' });
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
    registry.dispose();
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
  });
});
