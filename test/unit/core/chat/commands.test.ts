import * as assert from 'node:assert/strict';
import { parseUseCommand, renderSkillList, renderValidationSummary, suggestSkills, useUsage } from '../../../../src/core/chat/commands';
import type { SkillMetadata } from '../../../../src/core/model/types';
import { findSkills } from '../../../../src/core/use/find';
import { fakeRecord } from '../../../fixtures/trees/tree';
import { fakeSnapshot } from '../../fake-snapshot';
import { NEW_SKILL_DESCRIPTION } from '../../../../src/core/skill-file/schema';

function metadata(name: string, description: string, fields: Partial<SkillMetadata> = {}): SkillMetadata {
  return { name, description, userInvocable: true, disableModelInvocation: false, ...fields };
}

describe('parseUseCommand', () => {
  it('takes the first word as the skill and the rest as typed', () => {
    assert.deepEqual(parseUseCommand('pdf-report  q3.csv "Quarter 3"'), { name: 'pdf-report', arguments: 'q3.csv "Quarter 3"' });
    assert.deepEqual(parseUseCommand(' pdf-report '), { name: 'pdf-report' });
    assert.deepEqual(parseUseCommand('notes first line\nsecond line'), { name: 'notes', arguments: 'first line\nsecond line' });
    assert.equal(parseUseCommand('   '), undefined);
  });
});

describe('useUsage', () => {
  it('lists the skills the user may start, including those hidden from the model', () => {
    const snapshot = fakeSnapshot([
      fakeRecord('pdf', 'PDFs.'),
      fakeRecord('deploy', 'Deploys.', { disableModelInvocation: true }),
      fakeRecord('helper', 'Model only.', { metadata: metadata('helper', 'Model only.', { userInvocable: false }) }),
      fakeRecord('blocked', 'Blocked.', { status: 'not-allowed' }),
    ]);
    assert.equal(useUsage(snapshot), 'Usage: `/use <skill> [arguments]`. Skills you can start: pdf, deploy.');
    assert.match(useUsage(fakeSnapshot([])), /No skills are available to start/);
  });
});

describe('renderSkillList', () => {
  const link = (record: { file: string }): string => `file://${record.file}`;

  it('shows every skill on one line: name linked to its SKILL.md, status, source, then the description', () => {
    const snapshot = fakeSnapshot([
      fakeRecord('pdf', 'Build | fill PDFs.', { status: 'active' }),
      fakeRecord('deploy', 'Deploys.', { disableModelInvocation: true }),
      fakeRecord('audit', 'Audits.', { metadata: metadata('audit', 'Audits.', { context: 'fork' }) }),
      fakeRecord('broken', 'ignored', {
        status: 'invalid',
        metadata: undefined,
        diagnostics: [{ code: 'yaml', severity: 'error', message: 'Bad YAML at line 2.', file: '/skills/broken/SKILL.md', range: { start: { line: 1, column: 0 }, end: { line: 1, column: 1 } } }],
      }),
      fakeRecord('old', 'Old.', { status: 'shadowed', shadowedBy: '/home/.agent/skills/old/SKILL.md' }),
    ]);
    const lines = renderSkillList(snapshot, { link }).split('\n');
    assert.deepEqual(lines, [
      '5 skills, 3 usable:',
      '',
      '- **[pdf](file:///skills/pdf/SKILL.md)** · active · Workspace: Build \\| fill PDFs\\.',
      '- **[deploy](file:///skills/deploy/SKILL.md)** · available, /use only · Workspace: Deploys\\.',
      '- **[audit](file:///skills/audit/SKILL.md)** · available, runs isolated · Workspace: Audits\\.',
      '- **[broken](file:///skills/broken/SKILL.md)** · invalid · Workspace: Bad YAML at line 2\\.',
      '- **[old](file:///skills/old/SKILL.md)** · shadowed · Workspace: Shadowed by /home/\\.agent/skills/old/SKILL\\.md',
    ]);
    // One list item per skill, no table a narrow chat panel would squeeze.
    assert.ok(lines.every((line) => !line.startsWith('|')));
  });

  it('says a new skill with the placeholder description is a draft, not offered to the model', () => {
    const text = renderSkillList(fakeSnapshot([fakeRecord('fresh', NEW_SKILL_DESCRIPTION)]), { link });
    assert.match(text, /^- \*\*\[fresh\]\(file:\/\/\/skills\/fresh\/SKILL\.md\)\*\* · available, draft: not offered to the model · Workspace: Describe/m);
  });

  it('keeps each entry to a few lines of a narrow chat panel: the first sentence of the description, cut at 80 characters', () => {
    const long = 'Builds a PDF report from the test results, with charts and a summary page for the release. Use when asked for a report.';
    const [, , entry] = renderSkillList(fakeSnapshot([fakeRecord('pdf', long), fakeRecord('notes', 'Takes notes. Use when asked.')]), { link }).split('\n');
    assert.equal(entry, '- **[pdf](file:///skills/pdf/SKILL.md)** · available · Workspace: Builds a PDF report from the test results, with charts and a summary page for…');
    assert.match(renderSkillList(fakeSnapshot([fakeRecord('notes', 'Takes notes. Use when asked.')]), { link }), /Workspace: Takes notes\\\.$/);
  });

  it('names sources as the Skills view does: without the folder name in a window of one workspace folder', () => {
    const inFolder = (name: string, folder: string, location: string) =>
      fakeRecord(name, 'Does it.', { root: { path: `/${folder}/${location}`, kind: 'workspace', folder, location, label: `${folder} · ${location}` } });
    const single = renderSkillList(fakeSnapshot([inFolder('pdf', 'app', '.agent/skills'), inFolder('triage', 'app', '.github/skills')]), { link }).split('\n');
    assert.ok(single[2].endsWith('** · available · \\.agent/skills: Does it\\.'), single[2]);
    assert.ok(single[3].endsWith('** · available · \\.github/skills: Does it\\.'), single[3]);
    // Two folders: the name tells them apart.
    const multi = renderSkillList(fakeSnapshot([inFolder('pdf', 'app', '.agent/skills'), inFolder('triage', 'lib', '.agent/skills')]), { link }).split('\n');
    assert.ok(multi[2].endsWith('** · available · app · \\.agent/skills: Does it\\.'), multi[2]);
    assert.ok(multi[3].endsWith('** · available · lib · \\.agent/skills: Does it\\.'), multi[3]);
  });

  it('counts untrusted skills without showing anything of them', () => {
    const text = renderSkillList(fakeSnapshot([fakeRecord('pdf', 'PDFs.'), fakeRecord('secret', 'Secret text.', { status: 'untrusted' })]), { link });
    assert.doesNotMatch(text, /secret|Secret/);
    assert.match(text, /1 skill of this workspace is not available because the workspace is not trusted\.$/);
  });

  it('explains where skills come from when there are none', () => {
    assert.match(renderSkillList(fakeSnapshot([]), { link }), /^No skills found\. A skill is a folder with a SKILL\.md/);
  });
});

describe('renderValidationSummary', () => {
  const options = { link: (file: string, line: number) => `file://${file}#L${line + 1}`, label: (file: string) => file.replace('/skills/', '') };

  it('lists errors first, each linked to its file and line', () => {
    const text = renderValidationSummary(
      'Checked 2 skills: 1 error, 1 warning.',
      [
        { file: '/skills/b/SKILL.md', line: 9, severity: 'warning', message: 'Long body.' },
        { file: '/skills/a/SKILL.md', line: 1, severity: 'error', message: 'Missing\ndescription.' },
      ],
      options,
    );
    assert.equal(
      text,
      [
        'Checked 2 skills: 1 error, 1 warning.',
        '',
        '- **Error** [a/SKILL.md:2](file:///skills/a/SKILL.md#L2): Missing description.',
        '- **Warning** [b/SKILL.md:10](file:///skills/b/SKILL.md#L10): Long body.',
      ].join('\n'),
    );
  });

  it('is the summary alone when all is well, and caps a long list', () => {
    assert.equal(renderValidationSummary('Checked 3 skills: 0 errors, 0 warnings.', [], options), 'Checked 3 skills: 0 errors, 0 warnings.');
    const many = Array.from({ length: 60 }, (_, index) => ({ file: `/skills/s${index}/SKILL.md`, line: 0, severity: 'warning' as const, message: 'w' }));
    const text = renderValidationSummary('Checked.', many, options);
    assert.equal(text.split('\n').filter((line) => line.startsWith('- **')).length, 50);
    assert.match(text, /…and 10 more in the Problems panel\.$/);
  });
});

describe('suggestSkills', () => {
  const snapshot = fakeSnapshot([
    fakeRecord('pdf-report', 'Build a PDF report.'),
    fakeRecord('pdf-forms', 'Fill PDF forms.'),
    fakeRecord('release-notes', 'Write release notes.', { disableModelInvocation: true }),
    fakeRecord('helper', 'PDF helper.', { metadata: metadata('helper', 'PDF helper.', { userInvocable: false }) }),
    fakeRecord('slides', 'Slides.'),
  ]);

  it('suggests skills matching the request that were not loaded, including /use-only ones', () => {
    assert.deepEqual(suggestSkills(snapshot, 'a pdf report please', ['pdf-report']), ['pdf-forms']);
    assert.deepEqual(suggestSkills(snapshot, 'write the release notes', []), ['release-notes']);
  });

  it('suggests nothing the user cannot start or that does not match', () => {
    assert.ok(!suggestSkills(snapshot, 'pdf', []).includes('helper'));
    assert.deepEqual(suggestSkills(snapshot, 'the weather today', []), []);
    // One shared common word ("from", "report") is not a reason to suggest a skill.
    const noisy = fakeSnapshot([fakeRecord('changelog', 'Write release notes from the changelog.'), fakeRecord('audit', 'Audit a folder and report findings.')]);
    assert.deepEqual(suggestSkills(noisy, 'build the Q3 pdf report from q3.csv', []), []);
    assert.equal(suggestSkills(snapshot, 'pdf', [], 1).length, 1);
  });

  it('suggests a skill scoring exactly half the best', () => {
    // Both names hold the three words; only the first is the whole query, which doubles its score.
    const records = [fakeRecord('merge-pdf-pages', 'Pages.'), fakeRecord('pages-pdf-merge', 'Pages.')];
    const [best, half] = findSkills(records, 'merge pdf pages');
    assert.equal(half.score, best.score / 2);
    assert.deepEqual(suggestSkills(fakeSnapshot(records), 'merge pdf pages', []), ['merge-pdf-pages', 'pages-pdf-merge']);
  });
});

describe('parseUseCommand edges', () => {
  it('takes a lone skill name, and trims what follows it', () => {
    assert.deepEqual(parseUseCommand('pdf'), { name: 'pdf' });
    assert.deepEqual(parseUseCommand('pdf  a.pdf  '), { name: 'pdf', arguments: 'a.pdf' });
  });
});

describe('useUsage with many skills', () => {
  const names = (count: number) => Array.from({ length: count }, (_, index) => `s${index}`);
  const usage = (count: number) => useUsage(fakeSnapshot(names(count).map((name) => fakeRecord(name, 'x'))));

  it('names up to thirty skills, then counts the rest', () => {
    assert.equal(usage(30), `Usage: \`/use <skill> [arguments]\`. Skills you can start: ${names(30).join(', ')}.`);
    assert.equal(usage(32), `Usage: \`/use <skill> [arguments]\`. Skills you can start: ${names(30).join(', ')}, …and 2 more (see /list).`);
  });
});

describe('renderSkillList statuses', () => {
  const link = (record: { file: string }): string => `file://${record.file}`;

  it('says why each skill is unusable, notes stale and model-only skills, and cuts long descriptions', () => {
    const snapshot = fakeSnapshot([
      fakeRecord('blocked', 'Blocked.', { status: 'not-allowed', disableModelInvocation: true }),
      fakeRecord('off', 'Off.', { status: 'disabled' }),
      fakeRecord('old', 'Old.', { stale: true }),
      fakeRecord('helper', 'Helps.', { metadata: metadata('helper', 'Helps.', { userInvocable: false }) }),
      fakeRecord('empty', 'x', { status: 'invalid', metadata: undefined }),
      fakeRecord('long', 'a'.repeat(81)),
      fakeRecord('full', 'b'.repeat(80)),
    ]);
    assert.deepEqual(renderSkillList(snapshot, { link }).split('\n'), [
      '7 skills, 4 usable:',
      '',
      '- **[blocked](file:///skills/blocked/SKILL.md)** · not allowed · Workspace: Blocked\\.',
      '- **[off](file:///skills/off/SKILL.md)** · turned off · Workspace: Off\\.',
      '- **[old](file:///skills/old/SKILL.md)** · available, stale: last valid version · Workspace: Old\\.',
      '- **[helper](file:///skills/helper/SKILL.md)** · available, model only · Workspace: Helps\\.',
      '- **[empty](file:///skills/empty/SKILL.md)** · invalid · Workspace: ',
      `- **[long](file:///skills/long/SKILL.md)** · available · Workspace: ${'a'.repeat(79)}…`,
      `- **[full](file:///skills/full/SKILL.md)** · available · Workspace: ${'b'.repeat(80)}`,
    ]);
  });

  it('counts one skill in the singular, and sets the untrusted note apart', () => {
    assert.equal(
      renderSkillList(fakeSnapshot([fakeRecord('pdf', 'PDFs.'), fakeRecord('secret', 'x', { status: 'untrusted' })]), { link }),
      '1 skill, 1 usable:\n\n- **[pdf](file:///skills/pdf/SKILL.md)** · available · Workspace: PDFs\\.\n\n1 skill of this workspace is not available because the workspace is not trusted.',
    );
  });
});

describe('renderValidationSummary order', () => {
  const options = { link: (file: string, line: number) => `${file}#${line}`, label: (file: string) => file };

  it('orders problems by severity, then file, then line, and keeps pipes in a place from splitting the line', () => {
    const text = renderValidationSummary(
      'Checked.',
      [
        { file: 'a', line: 5, severity: 'warning', message: 'w1' },
        { file: 'a', line: 2, severity: 'warning', message: 'w2' },
        { file: 'b', line: 1, severity: 'warning', message: 'w3' },
        { file: 'a', line: 9, severity: 'warning', message: 'w4' },
        { file: 'b', line: 6, severity: 'warning', message: 'w5' },
        { file: 'c|d', line: 0, severity: 'error', message: 'e' },
        { file: 'a', line: 1, severity: 'info', message: 'i' },
      ],
      options,
    );
    assert.deepEqual(text.split('\n'), [
      'Checked.',
      '',
      '- **Error** [c\\|d:1](c|d#0): e',
      '- **Warning** [a:3](a#2): w2',
      '- **Warning** [a:6](a#5): w1',
      '- **Warning** [a:10](a#9): w4',
      '- **Warning** [b:2](b#1): w3',
      '- **Warning** [b:7](b#6): w5',
      '- **Info** [a:2](a#1): i',
    ]);
  });

  it('lists fifty problems without a remainder line', () => {
    const fifty = Array.from({ length: 50 }, (_, index) => ({ file: `f${index}`, line: 0, severity: 'warning' as const, message: 'w' }));
    const lines = renderValidationSummary('Checked.', fifty, options).split('\n');
    assert.equal(lines.length, 52);
    assert.equal(lines[51], '- **Warning** [f9:1](f9#0): w');
  });
});

describe('suggestSkills strength', () => {
  it('suggests a skill two description words match, and none far below the best', () => {
    const changelog = fakeRecord('changelog', 'Write release notes from the changelog.');
    assert.deepEqual(suggestSkills(fakeSnapshot([changelog]), 'release notes', []), ['changelog']);
    // "summary" matches both words, but only in a long description: far below the skill named by them.
    const summary = fakeRecord('summary', 'Summarize a report as a short pdf file for the team and others.');
    assert.deepEqual(suggestSkills(fakeSnapshot([fakeRecord('pdf-report', 'Build a PDF report.'), summary]), 'pdf report', []), ['pdf-report']);
    assert.deepEqual(suggestSkills(fakeSnapshot([summary]), 'pdf report', []), ['summary']);
  });
});
