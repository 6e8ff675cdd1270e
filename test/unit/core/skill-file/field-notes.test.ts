import * as assert from 'node:assert/strict';
import { fieldNoteAt } from '../../../../src/core/skill-file/field-notes';
import { FIELD_NOTES } from '../../../../src/core/skill-file/schema';

describe('fieldNoteAt', () => {
  const lines = ['---', 'name: demo', 'description: Does one thing.', 'allowed-tools: Read Grep', 'model: fast', '---', 'allowed-tools: in the body'];

  it('explains the fields VS Code reads differently, on their key', () => {
    const note = fieldNoteAt(lines, 3, 4);
    assert.equal(note?.field, 'allowed-tools');
    assert.deepEqual([note?.start, note?.end], [0, 13]);
    assert.match(note?.note ?? '', /not enforced/);
    assert.equal(fieldNoteAt(lines, 4, 0)?.field, 'model');
  });

  it('has a note saying what Agent Skills does for each of the three fields', () => {
    for (const field of ['allowed-tools', 'model', 'context']) {
      assert.match(fieldNoteAt(['---', `${field}: x`], 1, 0)?.note ?? '', /^Agent Skills: \S/, field);
    }
  });

  it('says nothing on other keys, on values, or after the frontmatter', () => {
    assert.equal(fieldNoteAt(lines, 1, 2), undefined);
    assert.equal(fieldNoteAt(lines, 3, 20), undefined);
    assert.equal(fieldNoteAt(lines, 6, 3), undefined);
    assert.equal(fieldNoteAt(['# no frontmatter', 'model: x'], 1, 1), undefined);
  });

  it('finds a key on the first line, up to the column just after it, with spaces before its colon', () => {
    const spaced = ['--- ', 'model : fast', 'context: fork'];
    assert.deepEqual(fieldNoteAt(spaced, 1, 5), { field: 'model', note: FIELD_NOTES.model, start: 0, end: 5 });
    assert.equal(fieldNoteAt(spaced, 1, 6), undefined);
  });

  it('reads only top-level keys, and a line of dashes only at its start ends the frontmatter', () => {
    assert.equal(fieldNoteAt(['---', 'metadata:', '  model: x'], 2, 2), undefined);
    assert.equal(fieldNoteAt(['---', 'description: a ---', 'model: x'], 2, 0)?.field, 'model');
  });

  it('says nothing past the last line or without any line', () => {
    assert.equal(fieldNoteAt(['---', 'model: x'], 2, 0), undefined);
    assert.equal(fieldNoteAt([], 1, 0), undefined);
  });
});
