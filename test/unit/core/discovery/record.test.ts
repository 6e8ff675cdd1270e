import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { SkillFolderProbe } from '../../../../src/core/discovery/probe';
import { loadSkillRecord, loadSkillRecordBlocking, sameRoot } from '../../../../src/core/discovery/record';
import type { SkillRecord, SkillRoot } from '../../../../src/core/model/types';
import { removeDir, root, skillText, tempDir, writeTree } from '../../../fixtures/trees/tree';

describe('skill records', () => {
  let dir: string;
  let pdf: string;
  let probe: SkillFolderProbe;
  let skills: SkillRoot;

  beforeEach(async () => {
    dir = await tempDir();
    pdf = path.join(dir, 'pdf');
    await writeTree(pdf, { 'SKILL.md': skillText('pdf', 'Extract PDF text.') });
    probe = { kind: 'skill', dir: pdf, realDir: pdf, file: path.join(pdf, 'SKILL.md') };
    skills = root(dir);
  });

  afterEach(async () => {
    await removeDir(dir);
  });

  async function load(previous?: SkillRecord, skillRoot = skills): Promise<SkillRecord> {
    const record = await loadSkillRecord(skillRoot, 'pdf', probe, {}, previous);
    assert.ok(record);
    return record;
  }

  describe('sameRoot', () => {
    const base = { path: '/skills', kind: 'workspace', label: 'ws' } as const;

    it('holds for roots describing one folder the same way', () => {
      assert.equal(sameRoot(base, { ...base }), true);
      assert.equal(sameRoot(base, { ...base, untrusted: false }), true);
    });

    it('fails when the path, kind, label, trust or notice differ', () => {
      assert.equal(sameRoot(base, { ...base, path: '/other' }), false);
      assert.equal(sameRoot(base, { ...base, kind: 'user' }), false);
      assert.equal(sameRoot(base, { ...base, label: 'other' }), false);
      assert.equal(sameRoot(base, { ...base, untrusted: true }), false);
      const offline = { code: 'server-offline', severity: 'warning' as const, message: 'The skill server is offline.' };
      assert.equal(sameRoot({ ...base, notice: offline }, { ...base, notice: { ...offline } }), true);
      assert.equal(sameRoot({ ...base, notice: offline }, base), false, 'a notice that comes or goes describes the root anew');
      assert.equal(sameRoot({ ...base, notice: offline }, { ...base, notice: { ...offline, message: 'Ignored.' } }), false);
    });
  });

  it('records an invalid skill by its folder name, without a metadata key', async () => {
    await fs.writeFile(probe.file, '---\nname: pdf-tools\n---\nNo description.\n');
    const stat = await fs.stat(probe.file);
    const record = await load();
    assert.deepEqual(
      { ...record, diagnostics: [] },
      { name: 'pdf', dir: pdf, file: probe.file, realDir: pdf, root: root(dir), diagnostics: [], status: 'invalid', mtimeMs: stat.mtimeMs, size: stat.size },
    );
    assert.ok(record.diagnostics.length > 0);
  });

  it('records a valid skill by its declared name, as available', async () => {
    const record = await load();
    assert.equal(record.name, 'pdf');
    assert.equal(record.status, 'available');
    assert.equal(record.metadata?.description, 'Extract PDF text.');
  });

  it('records the SKILL.md under the spelling found on disk', async () => {
    await fs.rename(probe.file, path.join(pdf, 'skill.md'));
    const record = await load();
    assert.equal(record.file, path.join(pdf, 'skill.md'));
  });

  describe('reusing an earlier record', () => {
    it('returns the earlier record itself when the file kept its time and size', async () => {
      const previous = await load();
      assert.equal(await load(previous), previous);
    });

    it('returns it under a new but equal root, carrying that root', async () => {
      const previous = await load();
      const again = root(dir);
      const record = await load(previous, again);
      assert.equal(record.root, again);
      assert.deepEqual({ ...record, root: previous.root }, previous);
    });

    it('re-reads the file when its time or its size changed', async () => {
      const previous = await load();
      for (const earlier of [
        { ...previous, mtimeMs: previous.mtimeMs - 1000 },
        { ...previous, size: previous.size + 1 },
      ]) {
        const record = await load(earlier);
        assert.notEqual(record, earlier);
        assert.deepEqual([record.mtimeMs, record.size], [previous.mtimeMs, previous.size]);
      }
    });

    it('re-reads when the earlier record came from another file, real folder or root', async () => {
      const previous = await load();
      const elsewhere = { ...previous, metadata: { ...previous.metadata!, description: 'Old.' } };
      for (const earlier of [
        { ...elsewhere, file: path.join(pdf, 'skill.md') },
        { ...elsewhere, realDir: path.join(dir, 'shared', 'pdf') },
        { ...elsewhere, root: root(dir, 'user') },
      ]) {
        assert.equal((await load(earlier)).metadata?.description, 'Extract PDF text.');
      }
    });

    it('re-reads a file that vanished, which then yields no record', async () => {
      const previous = await load();
      await fs.rm(probe.file);
      assert.equal(await loadSkillRecord(skills, 'pdf', probe, {}, previous), undefined);
    });
  });

  describe('untrusted roots', () => {
    it('name the skill after its folder without reading the file, in both ways of loading', async () => {
      await fs.writeFile(probe.file, skillText('secret', 'SECRET'));
      const untrusted = root(dir, 'workspace', true);
      const expected = { name: 'pdf', dir: pdf, file: probe.file, realDir: pdf, root: untrusted, diagnostics: [], status: 'untrusted', mtimeMs: 0, size: 0 };
      assert.deepEqual(await load(undefined, untrusted), expected);
      assert.deepEqual(loadSkillRecordBlocking(untrusted, 'pdf', probe), expected);
    });
  });

  it('loads with blocking reads the same record as without, but for the modification time it does not look up', async () => {
    const record = await load();
    assert.deepEqual(loadSkillRecordBlocking(skills, 'pdf', probe), { ...record, mtimeMs: 0 });
    assert.ok(record.mtimeMs > 0);
  });
});
