import * as assert from 'node:assert/strict';
import { collapseWhitespace, singleLine, wrapWords } from '../../../../src/core/util/text';

describe('collapseWhitespace and singleLine', () => {
  it('fold runs of white space into one space and drop it at both ends', () => {
    assert.equal(collapseWhitespace('\n  Fills\tPDF\n\nforms.  \n'), 'Fills PDF forms.');
    assert.equal(singleLine('  Uses <b>\n tags</b> '), 'Uses &lt;b&gt; tags&lt;/b&gt;');
  });
});

describe('wrapWords', () => {
  it('breaks at spaces within the width, indenting the lines after the first', () => {
    assert.deepEqual(wrapWords('one two three four five', 10, '  '), ['one two', '  three', '  four', '  five']);
    assert.deepEqual(wrapWords('one two three', 13), ['one two three']);
  });

  it('gives a word longer than the width a line of its own rather than cutting it', () => {
    assert.deepEqual(wrapWords('see node_modules/some-package/index.js now', 12), ['see', 'node_modules/some-package/index.js', 'now']);
  });

  it('folds white space and line breaks, and keeps an empty text as one empty line', () => {
    assert.deepEqual(wrapWords('  a\n\n b  ', 10), ['a b']);
    assert.deepEqual(wrapWords('', 10), ['']);
  });
});
