import * as assert from 'node:assert/strict';
import { allowSkill, disallowSkill, patternsAllowing } from '../../../../src/core/discovery/allowlist-edit';

describe('allowlist edits', () => {
  it('adds a name after the existing entries', () => {
    assert.deepEqual(allowSkill(['docs', 'pdf-*'], 'notes'), { changed: true, allowlist: ['docs', 'pdf-*', 'notes'] });
  });

  it('does not add to an empty list, which already allows everything', () => {
    assert.equal(allowSkill([], 'notes').changed, false);
    assert.equal(allowSkill(['  '], 'notes').changed, false);
  });

  it('does not add a name a pattern already allows', () => {
    assert.deepEqual(allowSkill(['pdf-*'], 'pdf-forms'), { changed: false, reason: '"pdf-forms" is already allowed by the allowlist.' });
  });

  it('removes every entry naming the skill, ignoring case, and keeps the others in order', () => {
    assert.deepEqual(disallowSkill(['docs', 'Notes', 'pdf-*', 'notes '], 'notes'), { changed: true, allowlist: ['docs', 'pdf-*'] });
  });

  it('refuses to empty the list, which would allow every skill', () => {
    const result = disallowSkill(['notes'], 'notes');
    assert.equal(result.changed, false);
    assert.match(!result.changed ? result.reason : '', /would allow every skill/);
  });

  it('says which patterns still allow a removed name', () => {
    assert.deepEqual(patternsAllowing(['docs', 'no*', 'x?'], 'notes'), ['no*']);
  });
});
