import * as assert from 'node:assert/strict';
import { fieldNoteAt } from '../../../../src/core/skill-file/field-notes';

describe('fieldNoteAt', () => {
  const lines = ['---', 'name: demo', 'description: Does one thing.', 'allowed-tools: Read Grep', 'model: fast', '---', 'allowed-tools: in the body'];

  it('explains the fields VS Code reads differently, on their key', () => {
    const note = fieldNoteAt(lines, 3, 4);
    assert.equal(note?.field, 'allowed-tools');
    assert.deepEqual([note?.start, note?.end], [0, 13]);
    assert.match(note?.note ?? '', /not enforced/);
    assert.equal(fieldNoteAt(lines, 4, 0)?.field, 'model');
  });

  it('says nothing on other keys, on values, or after the frontmatter', () => {
    assert.equal(fieldNoteAt(lines, 1, 2), undefined);
    assert.equal(fieldNoteAt(lines, 3, 20), undefined);
    assert.equal(fieldNoteAt(lines, 6, 3), undefined);
    assert.equal(fieldNoteAt(['# no frontmatter', 'model: x'], 1, 1), undefined);
  });
});
