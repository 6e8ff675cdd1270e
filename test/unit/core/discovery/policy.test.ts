import * as assert from 'node:assert/strict';
import { policyFromOptions, resolveNameGroup } from '../../../../src/core/discovery/policy';
import { fakeRecord } from '../../../fixtures/trees/tree';

describe('resolveNameGroup', () => {
  const first = fakeRecord('pdf', 'First.', { file: '/a/pdf/SKILL.md' });
  const second = fakeRecord('pdf', 'Second.', { file: '/b/pdf/SKILL.md' });

  it('names the record that wins in a shadowed one, and follows a new winner', () => {
    const [, shadowed] = resolveNameGroup([first, second], policyFromOptions({}));
    assert.deepEqual([shadowed.status, shadowed.shadowedBy], ['shadowed', '/a/pdf/SKILL.md']);
    const third = fakeRecord('pdf', 'Third.', { file: '/c/pdf/SKILL.md' });
    const [, stillShadowed] = resolveNameGroup([third, shadowed], policyFromOptions({}));
    assert.deepEqual([stillShadowed.status, stillShadowed.shadowedBy], ['shadowed', '/c/pdf/SKILL.md']);
  });

  it('leaves no shadowedBy key on a record that wins again', () => {
    const [, shadowed] = resolveNameGroup([first, second], policyFromOptions({}));
    const [winner] = resolveNameGroup([shadowed], policyFromOptions({}));
    assert.equal(winner.status, 'available');
    assert.ok(!('shadowedBy' in winner));
  });

  it('marks the winner active when the policy says it is', () => {
    const [winner, shadowed] = resolveNameGroup([first, second], policyFromOptions({}, new Set(['pdf'])));
    assert.deepEqual([winner.status, shadowed.status], ['active', 'shadowed']);
  });
});
