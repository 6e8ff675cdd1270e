import * as assert from 'node:assert/strict';
import { allowSkill, disallowSkill, patternsAllowing } from '../../../../src/core/discovery/allowlist-edit';

describe('allowlist edits', () => {
  it('adds a name after the existing entries', () => {
    assert.deepEqual(allowSkill(['docs', 'pdf-*'], 'notes'), { changed: true, allowlist: ['docs', 'pdf-*', 'notes'] });
  });

  it('does not add to an empty list, which already allows everything', () => {
    const empty = { changed: false, reason: 'Every skill is allowed: the allowlist is empty.' };
    assert.deepEqual(allowSkill([], 'notes'), empty);
    assert.deepEqual(allowSkill(['  ', ''], 'notes'), empty);
  });

  it('does not add a name a pattern already allows', () => {
    assert.deepEqual(allowSkill(['pdf-*'], 'pdf-forms'), { changed: false, reason: '"pdf-forms" is already allowed by the allowlist.' });
  });

  it('removes every entry naming the skill, ignoring case, and keeps the others in order', () => {
    assert.deepEqual(disallowSkill(['docs', 'Notes', 'pdf-*', 'notes '], 'notes'), { changed: true, allowlist: ['docs', 'pdf-*'] });
  });

  it('refuses to empty the list, or leave only blank entries, which would allow every skill', () => {
    const refused = {
      changed: false,
      reason: '"notes" is the only allowlist entry; removing it would allow every skill. Edit the setting to choose what to allow instead.',
    };
    assert.deepEqual(disallowSkill(['notes'], 'notes'), refused);
    assert.deepEqual(disallowSkill(['notes', ' ', ''], 'notes'), refused);
  });

  it('says so when the skill is not in the list by name', () => {
    assert.deepEqual(disallowSkill(['docs', 'no*'], 'notes'), { changed: false, reason: '"notes" is not in the allowlist by name.' });
  });

  it('says which patterns still allow a removed name', () => {
    assert.deepEqual(patternsAllowing(['docs', 'notes', 'no*', 'x?'], 'notes'), ['no*']);
  });
});
