import * as assert from 'node:assert/strict';
import { isSpecNameCharacter } from '../../../../src/core/skill-file/schema';

describe('isSpecNameCharacter', function () {
  it('accepts the first and last character of each range the specification allows', function () {
    for (const character of ['0', '9', 'A', 'Z', 'a', 'z', '\u00c0', '\u024f', '\u0300', '\u036f', '\u0400', '\u04ff', '\u3400', '\u4dbf', '\u4e00', '\u9fff', '-']) {
      assert.equal(isSpecNameCharacter(character), true, `U+${character.codePointAt(0)?.toString(16)}`);
    }
  });

  it('refuses the characters just outside those ranges', function () {
    for (const character of ['/', ':', '@', '[', '`', '{', '\u00bf', '\u0250', '\u02ff', '\u0370', '\u03ff', '\u0500', '\u33ff', '\u4dc0', '\u4dff', '\ua000', '_', '']) {
      assert.equal(isSpecNameCharacter(character), false, `U+${character.codePointAt(0)?.toString(16)}`);
    }
  });
});
