import * as assert from 'node:assert/strict';
import { describeSkill } from '../../src/core/skill-info';
import { fakeRecord } from '../fixtures/trees/tree';

describe('describeSkill', () => {
  const diagnostic = { code: 'unknown-field', severity: 'warning' as const, message: 'Unknown field "x".', file: '/skills/pdf/SKILL.md', range: { start: { line: 3, column: 0 }, end: { line: 3, column: 1 } } };

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
