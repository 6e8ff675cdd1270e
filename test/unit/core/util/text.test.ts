import * as assert from 'node:assert/strict';
import { collapseWhitespace, singleLine } from '../../../../src/core/util/text';

describe('collapseWhitespace and singleLine', () => {
  it('fold runs of white space into one space and drop it at both ends', () => {
    assert.equal(collapseWhitespace('\n  Fills\tPDF\n\nforms.  \n'), 'Fills PDF forms.');
    assert.equal(singleLine('  Uses <b>\n tags</b> '), 'Uses &lt;b&gt; tags&lt;/b&gt;');
  });
});
