// The static site `publish` builds from discovered skills: which skills, which artifact, the same
// bytes for the same skills, and a folder written without touching what would not change.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { discoverSkills } from '../../../../src/core/discovery/discover';
import { SKILL_LIMITS } from '../../../../src/core/mcp/skill-publication';
import { OutsidePathError } from '../../../../src/core/sources/confine';
import { DISCOVERY_SCHEMA } from '../../../../src/core/site/discovery-index';
import { buildSite, INDEX_PATH, LEGACY_INDEX_PATH, writeSite, type SiteBuild } from '../../../../src/core/site/publish';
import { readTarGz } from '../../../../src/core/site/tar';
import { removeDir, root, skillText, tempDir, writeTree } from '../../../fixtures/trees/tree';

describe('publishing a site', () => {
  let dir: string;
  let skills: string;
  let out: string;

  beforeEach(async () => {
    dir = await tempDir();
    skills = path.join(dir, 'skills');
    out = path.join(dir, 'site');
    await writeTree(skills, {
      alpha: { 'SKILL.md': skillText('alpha', 'Formats alpha reports.') },
      beta: {
        'SKILL.md': skillText('beta', 'Reviews beta changes.'),
        scripts: { 'run.sh': 'echo beta\n' },
        evals: { 'triggers.json': '[{"query": "secret answer", "should_trigger": true}]' },
        node_modules: { dep: { 'index.js': 'x' } },
      },
      broken: { 'SKILL.md': '---\nname: broken\n---\n' },
      hidden: { 'SKILL.md': skillText('hidden', 'Not on the allowlist.') },
    });
  });

  afterEach(async () => {
    await removeDir(dir);
  });

  async function build(options: { legacy?: boolean; allowlist?: string[]; roots?: string[] } = {}): Promise<SiteBuild> {
    const discovery = await discoverSkills(
      (options.roots ?? [skills]).map((folder) => root(folder)),
      { allowlist: options.allowlist ?? ['alpha', 'beta', 'broken'] },
    );
    return buildSite(discovery.skills, { legacy: options.legacy ?? false });
  }

  function index(site: SiteBuild, file = INDEX_PATH): unknown {
    return JSON.parse(site.files.get(file)!.toString('utf8'));
  }

  it('indexes each usable, allowed skill: SKILL.md alone as skill-md, others as a .tar.gz without evals/', async () => {
    const site = await build();
    assert.deepEqual([...site.files.keys()].sort(), ['.well-known/agent-skills/alpha/SKILL.md', '.well-known/agent-skills/beta.tar.gz', INDEX_PATH]);
    const alphaBytes = await fs.readFile(path.join(skills, 'alpha', 'SKILL.md'));
    assert.deepEqual(site.files.get('.well-known/agent-skills/alpha/SKILL.md'), alphaBytes);
    const archive = readTarGz(site.files.get('.well-known/agent-skills/beta.tar.gz')!, { files: 10, bytes: 100_000 });
    assert.deepEqual(
      archive.map((file) => file.path),
      ['SKILL.md', 'scripts/run.sh'],
    );
    const { createHash } = await import('node:crypto');
    const digest = (bytes: Buffer): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
    assert.deepEqual(index(site), {
      $schema: DISCOVERY_SCHEMA,
      skills: [
        { name: 'alpha', description: 'Formats alpha reports.', type: 'skill-md', url: 'alpha/SKILL.md', digest: digest(alphaBytes) },
        { name: 'beta', description: 'Reviews beta changes.', type: 'archive', url: 'beta.tar.gz', digest: digest(site.files.get('.well-known/agent-skills/beta.tar.gz')!) },
      ],
    });
    assert.deepEqual(
      site.skills.map((skill) => [skill.name, skill.type, skill.files]),
      [
        ['alpha', 'skill-md', 1],
        ['beta', 'archive', 2],
      ],
    );
    assert.deepEqual(site.leftOut, []);
  });

  it('leaves out shadowed skills, and a skill over the MCP server limits with the reason', async () => {
    const other = path.join(dir, 'other');
    await writeTree(other, { alpha: { 'SKILL.md': skillText('alpha', 'A shadowed alpha.') } });
    const tooMany = Object.fromEntries(Array.from({ length: SKILL_LIMITS.files }, (_, index) => [`file-${index}.md`, 'x']));
    await writeTree(path.join(skills, 'beta', 'references'), tooMany);
    const site = await build({ roots: [skills, other] });
    assert.match(JSON.stringify(index(site)), /Formats alpha reports/);
    assert.doesNotMatch(JSON.stringify(index(site)), /shadowed/);
    assert.deepEqual(
      site.leftOut.map((skill) => [skill.name, skill.reason]),
      [['beta', `Skill "beta" has more than ${SKILL_LIMITS.files} files (${path.join(skills, 'beta')}); it is not published on the site.`]],
    );
  });

  it('gives the same bytes for the same skills, whenever they are built', async () => {
    const first = await build({ legacy: true });
    await fs.utimes(path.join(skills, 'beta', 'scripts', 'run.sh'), new Date(2001, 1, 1), new Date(2001, 1, 1));
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const second = await build({ legacy: true });
    assert.deepEqual([...first.files.keys()], [...second.files.keys()]);
    for (const [file, bytes] of first.files) {
      assert.ok(bytes.equals(second.files.get(file)!), file);
    }
  });

  it('writes the legacy index and each file beside it, SKILL.md first; a path it cannot name leaves that skill out of it only', async () => {
    await writeTree(path.join(skills, 'beta', 'references'), { 'what?.md': 'x' });
    const site = await build({ legacy: true });
    assert.deepEqual(index(site, LEGACY_INDEX_PATH), { skills: [{ name: 'alpha', description: 'Formats alpha reports.', files: ['SKILL.md'] }] });
    assert.deepEqual(
      site.leftOut.map((skill) => [skill.name, skill.legacyOnly, skill.reason]),
      [['beta', true, '"references/what?.md" cannot be named in the legacy index (printable ASCII only, without \\ ? # [ ])']],
    );
    assert.ok(site.files.has('.well-known/agent-skills/beta.tar.gz'));
    await fs.rm(path.join(skills, 'beta', 'references'), { recursive: true });
    const clean = await build({ legacy: true });
    assert.deepEqual((index(clean, LEGACY_INDEX_PATH) as { skills: unknown[] }).skills[1], { name: 'beta', description: 'Reviews beta changes.', files: ['SKILL.md', 'scripts/run.sh'] });
    assert.equal(clean.files.get('.well-known/skills/beta/scripts/run.sh')?.toString(), 'echo beta\n');
  });

  describe('writing the folder', () => {
    it('writes every file once; a second publish of the same skills rewrites nothing', async () => {
      await writeTree(out, { 'index.html': 'my page', '.well-known': { 'security.txt': 'mine' } });
      const first = await writeSite(out, await build({ legacy: true }));
      assert.equal(first.written.length, 7);
      assert.deepEqual(first.unchanged, []);
      const stamps = await Promise.all(first.written.map(async (file) => (await fs.stat(path.join(out, file))).mtimeMs));
      await new Promise((resolve) => setTimeout(resolve, 20));
      const second = await writeSite(out, await build({ legacy: true }));
      assert.deepEqual(second, { written: [], unchanged: first.written, removed: [] });
      assert.deepEqual(await Promise.all(first.written.map(async (file) => (await fs.stat(path.join(out, file))).mtimeMs)), stamps);
      assert.equal(await fs.readFile(path.join(out, 'index.html'), 'utf8'), 'my page');
      assert.equal(await fs.readFile(path.join(out, '.well-known', 'security.txt'), 'utf8'), 'mine');
    });

    it('removes what an earlier publish wrote for a skill no longer published, and nothing else', async () => {
      await writeSite(out, await build({ legacy: true }));
      await writeTree(path.join(out, '.well-known', 'agent-skills'), { 'notes.txt': 'hand-written' });
      const result = await writeSite(out, await build({ legacy: true, allowlist: ['beta'] }));
      assert.deepEqual(result.removed, ['.well-known/agent-skills/alpha/SKILL.md', '.well-known/skills/alpha/SKILL.md']);
      assert.equal(await fs.stat(path.join(out, '.well-known', 'agent-skills', 'alpha')).catch(() => 'gone'), 'gone');
      assert.equal(await fs.readFile(path.join(out, '.well-known', 'agent-skills', 'notes.txt'), 'utf8'), 'hand-written');
    });

    it('removes nothing an earlier index names outside its folder', async () => {
      const victim = path.join(dir, 'victim.txt');
      await writeTree(dir, { 'victim.txt': 'keep me' });
      const hostile = { $schema: DISCOVERY_SCHEMA, skills: [{ name: 'alpha', description: 'x', type: 'skill-md', url: '../../../victim.txt', digest: `sha256:${'0'.repeat(64)}` }] };
      await writeTree(path.join(out, '.well-known', 'agent-skills'), { 'index.json': JSON.stringify(hostile) });
      await writeTree(path.join(out, '.well-known', 'skills'), { 'index.json': JSON.stringify({ skills: [{ name: 'alpha', description: 'x', files: ['SKILL.md', '../../../../victim.txt'] }] }) });
      const result = await writeSite(out, await build({ legacy: true }));
      assert.deepEqual(result.removed, []);
      assert.equal(await fs.readFile(victim, 'utf8'), 'keep me');
    });

    it('refuses to write through a symbolic link leading out of the folder', async () => {
      const elsewhere = path.join(dir, 'elsewhere');
      await fs.mkdir(elsewhere);
      await fs.mkdir(out);
      await fs.symlink(elsewhere, path.join(out, '.well-known'));
      await assert.rejects(writeSite(out, await build()), OutsidePathError);
      assert.deepEqual(await fs.readdir(elsewhere), []);
    });
  });
});
