import * as assert from 'node:assert/strict';
import type { RegistrySnapshot } from '../../../../src/core/discovery/registry';
import { describeProblems, describeSkill, describeSkills } from '../../../../src/core/view/skill-info';
import { fakeRecord } from '../../../fixtures/trees/tree';

describe('describeSkill', () => {
  const diagnostic = {
    code: 'unknown-field',
    severity: 'warning' as const,
    message: 'Unknown field "x".',
    file: '/skills/pdf/SKILL.md',
    range: { start: { line: 3, column: 0 }, end: { line: 3, column: 1 } },
  };

  it('describes a usable skill with its source and diagnostics', () => {
    assert.deepEqual(describeSkill(fakeRecord('pdf', 'Extract text.', { diagnostics: [diagnostic] })), {
      name: 'pdf',
      description: 'Extract text.',
      source: { kind: 'workspace', label: 'Workspace', root: '/skills' },
      path: '/skills/pdf/SKILL.md',
      status: 'available',
      stale: false,
      diagnostics: [{ code: 'unknown-field', severity: 'warning', message: 'Unknown field "x".', range: diagnostic.range }],
    });
  });

  it('gives the winner of a shadowed skill', () => {
    assert.equal(describeSkill(fakeRecord('pdf', 'x', { status: 'shadowed', shadowedBy: '/ws/pdf/SKILL.md' })).shadowedBy, '/ws/pdf/SKILL.md');
  });

  it('gives nothing read from an untrusted skill', () => {
    const info = describeSkill(fakeRecord('pdf', 'SECRET', { status: 'untrusted', diagnostics: [diagnostic] }));
    assert.equal(info.description, undefined);
    assert.deepEqual(info.diagnostics, []);
    assert.doesNotMatch(JSON.stringify(info), /SECRET|Unknown field/);
  });
});

describe('describeProblems', () => {
  const error = { code: 'yaml-syntax', severity: 'error' as const, message: 'Invalid YAML.', file: '/skills/pdf/SKILL.md', range: { start: { line: 2, column: 4 }, end: { line: 2, column: 9 } } };

  it('gives one line per invalid or stale skill and per discovery problem, with stable keys', () => {
    const snapshot = {
      skills: [
        fakeRecord('pdf', 'x', { status: 'invalid', metadata: undefined, diagnostics: [error] }),
        fakeRecord('docs', 'x', { stale: true, diagnostics: [{ ...error, file: '/skills/docs/SKILL.md' }] }),
        fakeRecord('fine', 'x'),
      ],
      problems: [{ code: 'dangling-link', severity: 'warning' as const, message: 'The link /skills/gone points nowhere.', path: '/skills/gone' }],
    } as unknown as RegistrySnapshot;
    assert.deepEqual(
      [...describeProblems(snapshot).values()],
      [
        'Skill "pdf" is invalid: /skills/pdf/SKILL.md:3:5 yaml-syntax: Invalid YAML.',
        'Skill "docs" is broken on disk; its last valid version is served: /skills/docs/SKILL.md:3:5 yaml-syntax: Invalid YAML.',
        'The link /skills/gone points nowhere. (dangling-link)',
      ],
    );
    assert.deepEqual([...describeProblems(snapshot).keys()], [...describeProblems(snapshot).keys()]);
  });
});

describe('describeSkills', () => {
  it('describes every skill of the snapshot, stale and invalid ones included', () => {
    const snapshot = {
      skills: [fakeRecord('pdf', 'Extract text.', { stale: true }), fakeRecord('broken', 'x', { status: 'invalid', metadata: undefined })],
      problems: [],
    } as unknown as RegistrySnapshot;
    assert.deepEqual(describeSkills(snapshot), [
      {
        name: 'pdf',
        description: 'Extract text.',
        source: { kind: 'workspace', label: 'Workspace', root: '/skills' },
        path: '/skills/pdf/SKILL.md',
        status: 'available',
        stale: true,
        diagnostics: [],
      },
      { name: 'broken', source: { kind: 'workspace', label: 'Workspace', root: '/skills' }, path: '/skills/broken/SKILL.md', status: 'invalid', stale: false, diagnostics: [] },
    ]);
  });
});

describe('describeProblems keys', () => {
  it('keys a skill line by file, kind and message, and a discovery problem by path and code', () => {
    const error = { code: 'yaml-syntax', severity: 'error' as const, message: 'Invalid YAML.', file: '/skills/docs/SKILL.md', range: { start: { line: 0, column: 0 }, end: { line: 0, column: 1 } } };
    const snapshot = {
      skills: [fakeRecord('empty', 'x', { status: 'invalid', metadata: undefined }), fakeRecord('docs', 'x', { stale: true, diagnostics: [error] })],
      problems: [{ code: 'dangling-link', severity: 'warning' as const, message: 'The link goes nowhere.', path: '/skills/gone' }],
    } as unknown as RegistrySnapshot;
    assert.deepEqual(
      [...describeProblems(snapshot)],
      [
        ['/skills/empty/SKILL.md|invalid|', 'Skill "empty" is invalid: /skills/empty/SKILL.md'],
        ['/skills/docs/SKILL.md|stale|Invalid YAML.', 'Skill "docs" is broken on disk; its last valid version is served: /skills/docs/SKILL.md:1:1 yaml-syntax: Invalid YAML.'],
        ['/skills/gone|dangling-link', 'The link goes nowhere. (dangling-link)'],
      ],
    );
  });
});
