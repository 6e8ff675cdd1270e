import * as assert from 'node:assert/strict';
import { validateSkillText } from '../../../../src/core/skill-file/load';
import { newSkillNameProblem, scaffoldSkillText, skillTitle } from '../../../../src/core/skill-file/scaffold';

describe('newSkillNameProblem', () => {
  it('accepts lowercase names with digits and hyphens', () => {
    assert.equal(newSkillNameProblem('release-notes-2'), undefined);
  });

  for (const [name, expected] of [
    ['', /Enter a name/],
    ['   ', /Enter a name/],
    [' pdf', /spaces/],
    ['Release', /lowercase/],
    ['-pdf', /hyphen/],
    ['a--b', /consecutive/],
    ['pdf tools', /not allowed/],
    ['x'.repeat(65), /limit is 64/],
    ['café', /portab/],
  ] as const) {
    it(`rejects ${JSON.stringify(name)}`, () => {
      assert.match(newSkillNameProblem(name) ?? '', expected);
    });
  }
});

describe('newSkillNameProblem suggestions', () => {
  it('suggests a name that is itself valid ("API Tests" → "api-tests")', () => {
    assert.equal(newSkillNameProblem('API Tests'), 'The name must be lowercase: use "api-tests".');
    assert.equal(newSkillNameProblem('api-tests'), undefined);
  });
});

describe('scaffoldSkillText', () => {
  it('is a valid SKILL.md, warned only about its placeholder description until that is replaced', () => {
    const result = validateSkillText(scaffoldSkillText('release-notes'), '/skills/release-notes/SKILL.md', { checkBody: true });
    assert.deepEqual(
      result.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.severity, diagnostic.range.start.line]),
      [['placeholder-description', 'warning', 2]],
    );
    assert.equal(result.metadata?.name, 'release-notes');
    const described = validateSkillText(scaffoldSkillText('release-notes', 'Drafts release notes from the changelog.'), '/skills/release-notes/SKILL.md', { checkBody: true });
    assert.deepEqual(described.diagnostics, []);
  });

  it('titles the body after the name, without stray hyphens', () => {
    assert.equal(skillTitle('release-notes'), 'Release notes');
    assert.equal(skillTitle('-pdf--tools-'), 'Pdf tools');
    assert.match(scaffoldSkillText('pdf'), /^# Pdf$/m);
  });

  it('guides the author through the body', () => {
    assert.equal(
      scaffoldSkillText('pdf', 'Fills PDF forms.'),
      [
        '---',
        'name: pdf',
        'description: "Fills PDF forms."',
        '---',
        '',
        '# Pdf',
        '',
        'Step-by-step instructions the model follows when it uses this skill.',
        '',
        '1. …',
        '',
        'Put longer material in files under `references/` and scripts under `scripts/`, and link them from here.',
        '',
      ].join('\n'),
    );
  });
});
