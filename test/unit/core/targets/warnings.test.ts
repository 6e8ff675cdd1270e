// The per-host warnings of a project kept across snapshots: the same as checking every skill afresh,
// telling which files' warnings changed (another skill's edit included), and the same arrays for
// the files whose warnings did not.

import * as assert from 'node:assert/strict';
import { targetListings } from '../../../../src/core/targets/budget';
import { checkSkillForTargets, targetFolderFindings } from '../../../../src/core/targets/checks';
import { targetProfile, type TargetProfile } from '../../../../src/core/targets/profiles';
import { TargetWarnings, type TargetWarningsContext } from '../../../../src/core/targets/warnings';
import type { Range, SkillDiagnostic, SkillRecord, SkillRoot } from '../../../../src/core/model/types';
import { fakeRecord } from '../../../fixtures/trees/tree';

const hosts = (...ids: string[]): TargetProfile[] => ids.map((id) => targetProfile(id)!);

const ROOTS: SkillRoot[] = ['.claude/skills', '.agents/skills', '.agent/skills'].map((location) => ({ path: `/repo/${location}`, kind: 'workspace', label: 'repo', folder: 'repo', location }));

function skill(name: string, descriptionLength: number, root = ROOTS[0], overrides: Partial<SkillRecord> & { disableModelInvocation?: boolean } = {}): SkillRecord {
  const record = fakeRecord(name, `${name} ${'d'.repeat(descriptionLength)}`, overrides);
  return { ...record, root, dir: `${root.path}/${name}`, file: `${root.path}/${name}/SKILL.md`, realDir: `${root.path}/${name}` };
}

/** Key positions that differ per file version, so a stale one would show. */
function fieldRanges(record: SkillRecord): (field: string) => Range {
  return (field) => ({ start: { line: field.length, column: record.mtimeMs % 7 }, end: { line: field.length, column: 9 } });
}

/** What checking every skill afresh gives each file: the first record of a file, none for an untrusted one. */
function afresh(records: readonly SkillRecord[], context: TargetWarningsContext): Map<string, SkillDiagnostic[]> {
  const listings = targetListings(records, context.targets, context.contextTokens);
  const byFile = new Map<string, SkillDiagnostic[]>();
  for (const record of records) {
    if (!byFile.has(record.file)) {
      const fieldRange = fieldRanges(record);
      byFile.set(record.file, record.status === 'untrusted' ? [] : checkSkillForTargets(record, { ...context, listings, fieldRange }));
    }
  }
  return byFile;
}

function described(findings: ReturnType<typeof targetFolderFindings> | TargetWarnings['folders']): string[] {
  return findings.map((finding) => `${finding.host.id} ${finding.folder} [${finding.skills.map((record) => `${record.name}@${record.mtimeMs}`).join()}] ${finding.message}`);
}

describe('host warnings kept across snapshots', function () {
  it('stay those of checking every skill afresh through random edits, renames, removals, additions and budget moves, and say which files changed', function () {
    for (let seed = 1; seed <= 12; seed++) {
      let state = seed * 7919;
      const next = (): number => (state = (state * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
      const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
      // Small contexts, so that a list budget is spent within a few dozen skills and edits move skills across it.
      const context: TargetWarningsContext = {
        targets: hosts('claude-code', 'codex', 'vscode', 'gemini-cli', 'cursor'),
        contextTokens: [3_000, 6_000, 12_000][seed % 3],
        homeDir: '/home/me',
        servedInVsCode: seed % 2 === 0,
        fieldRanges,
      };
      let version = 0;
      let records = Array.from({ length: 24 + (seed % 5) * 6 }, (_, index) => skill(`skill-${index}`, Math.floor(next() * 300), pick(ROOTS), { mtimeMs: version }));
      const warnings = new TargetWarnings();
      let shown = new Map<string, readonly SkillDiagnostic[]>();
      for (let step = 0; step < 60; step++) {
        warnings.update(records, context);
        const expected = afresh(records, context);
        const changed = warnings.takeChanged();
        for (const [file, diagnostics] of expected) {
          assert.deepEqual(warnings.warningsOf(file), diagnostics, `seed ${seed}, step ${step}: ${file}`);
        }
        for (const file of new Set([...shown.keys(), ...expected.keys()])) {
          const before = shown.get(file) ?? [];
          const after = warnings.warningsOf(file);
          if (JSON.stringify(before) !== JSON.stringify(after)) {
            assert.ok(changed.has(file), `seed ${seed}, step ${step}: ${file} changed unannounced`);
          } else if (shown.has(file) && expected.has(file)) {
            assert.equal(after, before, `seed ${seed}, step ${step}: ${file} unchanged, yet a new array`);
          }
        }
        assert.deepEqual(described(warnings.folders), described(targetFolderFindings(records, context)), `seed ${seed}, step ${step}: folders`);
        // The listings of the hosts with a budget (the others cut no skill).
        assert.deepEqual(warnings.listings, targetListings(records, hosts('claude-code', 'codex'), context.contextTokens), `seed ${seed}, step ${step}: listings`);
        shown = new Map([...expected.keys()].map((file) => [file, warnings.warningsOf(file)]));

        const at = Math.floor(next() * records.length);
        const record = records[at];
        const roll = next();
        version++;
        const replace = (replacement: SkillRecord): SkillRecord[] => records.map((candidate, position) => (position === at ? replacement : candidate));
        if (roll < 0.35) {
          // A description longer or shorter: the skills after it may move across a host's budget.
          records = replace(skill(record.name, Math.floor(next() * 600), record.root, { mtimeMs: version }));
        } else if (roll < 0.45) {
          // Saved with the same description: a new record, nothing else to change.
          records = replace({ ...record, mtimeMs: version });
        } else if (roll < 0.55) {
          records = records.filter((_, position) => position !== at);
        } else if (roll < 0.65) {
          const added = skill(`added-${version}`, Math.floor(next() * 300), pick(ROOTS), { mtimeMs: version });
          records = [...records.slice(0, at), added, ...records.slice(at)];
        } else if (roll < 0.72) {
          records = replace({ ...record, name: `${record.name}-renamed`, mtimeMs: version });
        } else if (roll < 0.78) {
          records = replace({ ...record, metadata: { ...record.metadata!, disableModelInvocation: !record.metadata?.disableModelInvocation, context: 'fork' }, mtimeMs: version });
        } else if (roll < 0.84) {
          records = replace({ ...record, status: pick(['invalid', 'untrusted', 'available'] as const), mtimeMs: version });
        } else if (roll < 0.9) {
          // Moved to another folder, which a host may not read.
          records = replace(skill(record.name, Math.floor(next() * 300), pick(ROOTS), { mtimeMs: version }));
        } else if (roll < 0.95) {
          // A second skill of the same name: the first one's listing entry answers for both.
          records = [...records, skill(record.name, Math.floor(next() * 300), pick(ROOTS.filter((root) => root !== record.root)), { mtimeMs: version })];
        } else {
          records = [...records.slice(at), ...records.slice(0, at)];
        }
      }
    }
  });

  it("report another skill's file when one skill's longer description pushes it out of a host's full listing", function () {
    // Claude Code at 20,000 tokens: a budget of 800 characters; each of these entries costs 265.
    const context: TargetWarningsContext = { targets: hosts('claude-code'), contextTokens: 20_000, fieldRanges };
    const records = ['first', 'second', 'third'].map((name) => skill(name, 250 - name.length));
    const warnings = new TargetWarnings();
    warnings.update(records, context);
    warnings.takeChanged();
    assert.deepEqual(warnings.warningsOf(records[2].file), []);

    const longer = [skill('first', 400), records[1], records[2]];
    warnings.update(longer, context);
    assert.deepEqual([...warnings.takeChanged()], [records[2].file], 'the third skill, not the one edited, lost its description');
    assert.deepEqual(
      warnings.warningsOf(records[2].file).map((diagnostic) => diagnostic.message),
      ["With this project's 3 skills, Claude Code lists this one by name only at a 20,000-token context."],
    );
    assert.deepEqual(warnings.warningsOf(longer[0].file), []);

    warnings.update(records, context);
    assert.deepEqual([...warnings.takeChanged()], [records[2].file], 'and gets it back');
    assert.deepEqual(warnings.warningsOf(records[2].file), []);
  });

  it('check nothing again for a snapshot with the same records, and check every file again when the targets change', function () {
    const records = [skill('a', 2000, ROOTS[1]), skill('b', 10, ROOTS[1], { metadata: { name: 'b', description: 'B.', userInvocable: true, disableModelInvocation: false, context: 'fork' } })];
    let asked = 0;
    const context: TargetWarningsContext = {
      targets: hosts('codex'),
      fieldRanges: (record) => {
        asked++;
        return fieldRanges(record);
      },
    };
    const warnings = new TargetWarnings();
    warnings.update(records, context);
    const first = records.map((record) => warnings.warningsOf(record.file));
    assert.equal(asked, 2);
    assert.deepEqual([...warnings.takeChanged()], [records[1].file]);
    warnings.update([...records], context);
    assert.equal(asked, 2, 'no file checked again');
    assert.deepEqual([...warnings.takeChanged()], []);
    assert.deepEqual(
      records.map((record) => warnings.warningsOf(record.file)),
      first,
    );

    warnings.update(records, { ...context, targets: hosts('claude-code') });
    assert.deepEqual([...warnings.takeChanged()].sort(), records.map((record) => record.file).sort());
    assert.deepEqual(warnings.warningsOf(records[1].file), [], 'Claude Code does not read `.agents/skills`');
    assert.deepEqual(described(warnings.folders), [`claude-code /repo/.agents/skills [a@0,b@0] Claude Code reads \`.claude/skills\`, not \`.agents/skills\`: the 2 skills there are invisible to it.`]);
  });
});
