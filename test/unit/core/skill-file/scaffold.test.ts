import * as assert from 'node:assert/strict';
import { validateSkillText } from '../../../../src/core/skill-file/load';
import { newSkillNameProblem, newSkillPlaces, scaffoldSkillText, skillTitle } from '../../../../src/core/skill-file/scaffold';
import { root } from '../../../fixtures/trees/tree';

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

describe('newSkillPlaces', () => {
  const workspace = { ...root('/ws/.agent/skills'), label: 'app' };
  const user = { ...root('/home/me/.agent/skills', 'user'), label: 'User' };
  const existing =
    (...dirs: string[]) =>
    (dir: string) =>
      dirs.includes(dir);

  it('offers every location when no folder has the name', () => {
    assert.deepEqual(newSkillPlaces('notes', [workspace, user], existing()), { free: [workspace, user] });
  });

  it('leaves out a location that has the folder, with a warning naming it', () => {
    assert.deepEqual(newSkillPlaces('notes', [workspace, user], existing('/ws/.agent/skills/notes')), {
      free: [user],
      problem: { severity: 'warning', message: 'A folder named "notes" already exists in app; the new skill can go to User.' },
    });
  });

  it('refuses a name taken in every location', () => {
    assert.deepEqual(newSkillPlaces('notes', [workspace, user], existing('/ws/.agent/skills/notes', '/home/me/.agent/skills/notes')).problem, {
      severity: 'error',
      message: 'A folder named "notes" already exists in every location (app, User). Choose another name.',
    });
    assert.deepEqual(newSkillPlaces('notes', [user], existing('/home/me/.agent/skills/notes')).problem, {
      severity: 'error',
      message: 'A folder named "notes" already exists in User. Choose another name.',
    });
  });
});
