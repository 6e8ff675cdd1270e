// A skill server's cached skills as the registry sees them: one source among the others, with the
// frontmatter it listed, named by server and path so that they never shadow nor are shadowed, and
// nothing read while the server is ignored.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SkillRegistry } from '../../../../src/core/discovery/registry';
import { ENTRY_FILE_NAME, storeListing } from '../../../../src/core/servers/server-cache';
import type { SkillRoot } from '../../../../src/core/model/types';
import { noting, withFs } from '../discovery/fs-stub';
import { servedSkill, skillText, temporaryFolder } from './served-fixtures';

function serverRootAt(dir: string, extra: Partial<SkillRoot> = {}): SkillRoot {
  return { path: dir, kind: 'server', label: 'team', server: 'team', ...extra };
}

describe('skill server skills in the registry', () => {
  it("lists the served skills from their entries under their server's name, beside a skill of the same name on disk", async () => {
    const user = temporaryFolder();
    fs.mkdirSync(path.join(user, 'pdf'));
    fs.writeFileSync(path.join(user, 'pdf', 'SKILL.md'), skillText('pdf', 'My own pdf skill.'));
    const server = temporaryFolder();
    await storeListing(server, [
      servedSkill('pdf', { 'SKILL.md': 'x' }),
      { ...servedSkill('notes', { 'SKILL.md': 'y' }), frontmatter: { name: 'notes', description: 'Team notes.', 'argument-hint': '[topic]', colour: 'blue' } },
    ]);
    const registry = new SkillRegistry();
    await registry.setRoots([{ path: user, kind: 'user', label: 'User' }, serverRootAt(server)]);
    const skills = registry.snapshot.skills.map((record) => [record.name, record.root.kind, record.status, record.metadata?.description, record.uri]);
    assert.deepEqual(skills, [
      ['pdf', 'user', 'available', 'My own pdf skill.', undefined],
      ['team/notes', 'server', 'available', 'Team notes.', 'skill://notes/SKILL.md'],
      ['team/pdf', 'server', 'available', 'Use pdf.', 'skill://pdf/SKILL.md'],
    ]);
    const notes = registry.snapshot.usable('team/notes')!;
    assert.equal(notes.metadata?.name, 'notes');
    assert.equal(notes.metadata?.argumentHint, '[topic]');
    assert.equal(notes.file, path.join(server, 'notes', 'SKILL.md'));
    assert.deepEqual(
      notes.diagnostics.map((diagnostic) => diagnostic.code),
      ['unknown-field'],
    );
    assert.equal(registry.snapshot.usable('pdf')?.root.kind, 'user');
    assert.deepEqual(registry.snapshot.problems, []);
  });

  it("never lets one server's skill shadow another's, nor a built-in one: each keeps its own name", async () => {
    const builtin = temporaryFolder();
    fs.mkdirSync(path.join(builtin, 'pdf'));
    fs.writeFileSync(path.join(builtin, 'pdf', 'SKILL.md'), skillText('pdf', 'The built-in pdf skill.'));
    const team = temporaryFolder();
    const other = temporaryFolder();
    await storeListing(team, [servedSkill('pdf', { 'SKILL.md': 'x' }, 'Team pdf.')]);
    await storeListing(other, [servedSkill('pdf', { 'SKILL.md': 'x' }, 'Other pdf.')]);
    const registry = new SkillRegistry();
    await registry.setRoots([serverRootAt(team), serverRootAt(other, { label: 'other', server: 'other' }), { path: builtin, kind: 'builtin', label: 'Built-in' }]);
    assert.deepEqual(
      registry.snapshot.skills.map((record) => [record.name, record.status, record.metadata?.description]),
      [
        ['team/pdf', 'available', 'Team pdf.'],
        ['other/pdf', 'available', 'Other pdf.'],
        ['pdf', 'available', 'The built-in pdf skill.'],
      ],
    );
  });

  it('reports two skills of one name in one listing, naming the server, and keeps both under their paths', async () => {
    const server = temporaryFolder();
    const billing = servedSkill('refunds', { 'SKILL.md': 'x' }, 'Billing refunds.', 'acme/billing/');
    const support = servedSkill('refunds', { 'SKILL.md': 'y' }, 'Support refunds.', 'acme/support/');
    await storeListing(server, [billing, support, servedSkill('notes', { 'SKILL.md': 'z' })]);
    const registry = new SkillRegistry();
    await registry.setRoots([serverRootAt(server)]);
    assert.deepEqual(
      registry.snapshot.skills.map((record) => [record.name, record.status]),
      [
        ['team/acme/billing/refunds', 'available'],
        ['team/acme/support/refunds', 'available'],
        ['team/notes', 'available'],
      ],
    );
    assert.deepEqual(registry.snapshot.problems, [
      {
        code: 'served-duplicate-name',
        severity: 'warning',
        message: 'Skill server "team" lists 2 skills named "refunds": team/acme/billing/refunds and team/acme/support/refunds. Each is available under its own name.',
        path: path.join(server, 'acme%2Fbilling%2Frefunds', 'SKILL.md'),
        server: 'team',
      },
    ]);
    // Also when the listing changes under a running registry.
    await storeListing(server, [billing, servedSkill('notes', { 'SKILL.md': 'z' })]);
    await registry.apply([{ path: server, kind: 'changed' }]);
    assert.equal(registry.snapshot.problems.length, 0);
    await storeListing(server, [billing, support]);
    await registry.apply([{ path: server, kind: 'changed' }]);
    assert.deepEqual(
      registry.snapshot.problems.map((problem) => problem.code),
      ['served-duplicate-name'],
    );
  });

  it('follows a new listing when the server folder is reported changed', async () => {
    const server = temporaryFolder();
    await storeListing(server, [servedSkill('pdf', { 'SKILL.md': 'x' })]);
    const registry = new SkillRegistry();
    await registry.setRoots([serverRootAt(server)]);
    const before = registry.snapshot.usable('team/pdf');
    await storeListing(server, [servedSkill('pdf', { 'SKILL.md': 'x' }, 'Use pdf, now better.'), servedSkill('notes', { 'SKILL.md': 'y' })]);
    await registry.apply([{ path: server, kind: 'changed' }]);
    assert.deepEqual(
      registry.snapshot.skills.map((record) => [record.name, record.metadata?.description]),
      [
        ['team/notes', 'Use notes.'],
        ['team/pdf', 'Use pdf, now better.'],
      ],
    );
    assert.notEqual(registry.snapshot.usable('team/pdf'), before);
  });

  it('shows an entry that cannot be used as an invalid skill naming the server', async () => {
    const server = temporaryFolder();
    fs.mkdirSync(path.join(server, 'broken'));
    fs.writeFileSync(path.join(server, 'broken', ENTRY_FILE_NAME), '{"uri": 1}');
    const registry = new SkillRegistry();
    await registry.setRoots([serverRootAt(server)]);
    const [broken] = registry.snapshot.skills;
    assert.equal(broken.status, 'invalid');
    assert.equal(broken.diagnostics[0].message, 'Skill server "team" listed an entry that cannot be used: the entry has no "uri".');
  });

  it('shows an entry whose listed frontmatter breaks the rules a SKILL.md keeps as invalid, with the finding', async () => {
    const server = temporaryFolder();
    await storeListing(server, [servedSkill('Pdf_Tool', { 'SKILL.md': 'x' })]);
    const registry = new SkillRegistry();
    await registry.setRoots([serverRootAt(server)]);
    const [record] = registry.snapshot.skills;
    assert.deepEqual([record.name, record.status, record.metadata], ['team/Pdf_Tool', 'invalid', undefined]);
    assert.match(record.diagnostics.map((diagnostic) => `${diagnostic.severity}: ${diagnostic.message}`).join('\n'), /^error: .*name/m);
  });

  it('reads nothing of an ignored server, and says why in the problems; an offline one keeps its skills and says so', async () => {
    const server = temporaryFolder();
    await storeListing(server, [servedSkill('pdf', { 'SKILL.md': 'x' })]);
    const registry = new SkillRegistry();
    const notice = { code: 'server-ignored', severity: 'warning' as const, message: 'ignored in Restricted Mode' };
    const touched: string[] = [];
    const ignored = () => registry.setRoots([serverRootAt(server, { untrusted: true, notice })]);
    await withFs('realpath', noting<'realpath'>(server, touched), () =>
      withFs('lstat', noting<'lstat'>(server, touched), () => withFs('readdir', noting<'readdir'>(server, touched), () => withFs('readFile', noting<'readFile'>(server, touched), ignored))),
    );
    assert.deepEqual(
      touched.filter((relative) => !relative.startsWith('..') && !path.isAbsolute(relative)),
      [],
    );
    assert.equal(registry.snapshot.skills.length, 0);
    assert.deepEqual(registry.snapshot.problems, [{ ...notice, path: server, server: 'team' }]);
    await registry.setRoots([serverRootAt(server, { label: 'team (offline, cached)', notice: { ...notice, code: 'server-offline', message: 'offline' } })]);
    assert.deepEqual(
      registry.snapshot.skills.map((record) => [record.name, record.status, record.root.label]),
      [['team/pdf', 'available', 'team (offline, cached)']],
    );
    assert.deepEqual(
      registry.snapshot.problems.map((problem) => problem.message),
      ['offline'],
    );
  });
});
