import * as assert from 'node:assert/strict';
import { sourceNamer } from '../../../../src/core/discovery/source-names';
import { staticSnapshot } from '../../../../src/core/discovery/static-snapshot';
import type { SkillRoot } from '../../../../src/core/model/types';
import { fakeRecord } from '../../../fixtures/trees/tree';

function root(folder: string | undefined, label: string, kind: SkillRoot['kind'] = 'workspace'): SkillRoot {
  return { path: `/${label}`, kind, label, ...(folder === undefined ? {} : { folder }) };
}

describe('sourceNamer', () => {
  const appSkills = root('app', 'app · .github/skills');
  const appPackage = root('app', 'app · packages/web');
  const user = root(undefined, 'User', 'user');

  it('drops the name of the only workspace folder in front of its locations and sub-projects', () => {
    const name = sourceNamer(staticSnapshot([fakeRecord('a', 'A.', { root: appSkills }), fakeRecord('b', 'B.', { root: user })]));
    assert.equal(name(appSkills), '.github/skills');
    assert.equal(name(appPackage), 'packages/web');
    assert.equal(name(user), 'User');
    // A label not made of that folder's name and a location stays whole.
    assert.equal(name(root('app', 'app')), 'app');
    assert.equal(name(root('app', 'other · x')), 'other · x');
    // A root of no workspace folder keeps its label, even one that reads like a folder's.
    assert.equal(name(root(undefined, 'undefined · skills', 'user')), 'undefined · skills');
  });

  it('keeps whole labels when skills come from several workspace folders, or from none', () => {
    const docsSkills = root('docs', 'docs · .agent/skills');
    const several = sourceNamer(staticSnapshot([fakeRecord('a', 'A.', { root: appSkills }), fakeRecord('b', 'B.', { root: docsSkills })]));
    assert.equal(several(appSkills), 'app · .github/skills');
    assert.equal(several(docsSkills), 'docs · .agent/skills');
    const none = sourceNamer(staticSnapshot([fakeRecord('b', 'B.', { root: user })]));
    assert.equal(none(appSkills), 'app · .github/skills');
  });

  it('counts one folder once however many skills it holds, and only workspace roots', () => {
    const name = sourceNamer(
      staticSnapshot([fakeRecord('a', 'A.', { root: appSkills }), fakeRecord('b', 'B.', { root: appPackage }), fakeRecord('c', 'C.', { root: root('elsewhere', 'elsewhere · skills', 'user') })]),
    );
    assert.equal(name(appSkills), '.github/skills');
  });
});
