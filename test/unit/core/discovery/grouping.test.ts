import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { groupingPath, nameClashProblems, pathInLocation } from '../../../../src/core/discovery/grouping';
import type { SkillRecord } from '../../../../src/core/model/types';
import { fakeRecord } from '../../../fixtures/trees/tree';

const location = path.resolve('/repo/.agent/skills');

function recordAt(name: string, ...folders: string[]): SkillRecord {
  const dir = path.join(location, ...folders);
  return fakeRecord(name, `${name} skill.`, { dir, file: path.join(dir, 'SKILL.md'), realDir: dir, root: { path: location, kind: 'workspace', label: 'repo' } });
}

describe('grouping', () => {
  it('gives the folder of a skill inside its location, and the grouping folders it lies in', () => {
    assert.equal(pathInLocation(recordAt('pdf', 'pdf')), 'pdf');
    assert.equal(groupingPath(recordAt('pdf', 'pdf')), undefined);
    assert.equal(pathInLocation(recordAt('land-it', 'shipping', 'land-it')), 'shipping/land-it');
    assert.equal(groupingPath(recordAt('land-it', 'shipping', 'land-it')), 'shipping');
    assert.equal(groupingPath(recordAt('notes', 'tools', 'release', 'notes')), 'tools/release');
  });

  it('names a skill that is its location, or lies outside it, by its folder alone', () => {
    const root = { path: location, kind: 'workspace' as const, label: 'repo' };
    assert.equal(pathInLocation({ dir: location, root }), 'skills');
    assert.equal(groupingPath({ dir: location, root }), undefined);
    const outside = path.resolve('/elsewhere/tools/pdf');
    assert.equal(pathInLocation({ dir: outside, root }), 'pdf');
    assert.equal(groupingPath({ dir: outside, root }), undefined);
  });

  it('reports a skill shadowed by one of the same location, not one shadowed by another location', () => {
    const winner = recordAt('deploy', 'ops', 'deploy');
    const loser = { ...recordAt('deploy', 'shipping', 'deploy'), status: 'shadowed' as const, shadowedBy: winner.file };
    const elsewhere = {
      ...fakeRecord('deploy', 'User deploy.', { dir: '/home/me/.agent/skills/deploy', file: '/home/me/.agent/skills/deploy/SKILL.md' }),
      status: 'shadowed' as const,
      shadowedBy: winner.file,
    };
    assert.deepEqual(nameClashProblems([winner, loser, elsewhere]), [
      {
        code: 'duplicate-skill-name',
        severity: 'warning',
        message: `Two skills in ${location} are named "deploy": ops/deploy is used and shipping/deploy is shadowed. Give one of them another name.`,
        path: loser.file,
      },
    ]);
    assert.deepEqual(nameClashProblems([winner]), []);
    // The status decides: a record that is not shadowed gets no problem, whatever else it carries.
    assert.deepEqual(nameClashProblems([winner, { ...loser, status: 'available' }]), []);
  });
});
