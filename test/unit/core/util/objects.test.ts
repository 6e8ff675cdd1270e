import * as assert from 'node:assert/strict';
import { isPlainObject } from '../../../../src/core/util/objects';

describe('isPlainObject', () => {
  it('takes objects, empty or not, and refuses null, arrays and every other kind of value', () => {
    assert.equal(isPlainObject({}), true);
    assert.equal(isPlainObject({ a: 1 }), true);
    assert.equal(isPlainObject(JSON.parse('{"uri": "skill://pdf/SKILL.md"}')), true);
    for (const value of [null, undefined, [], [{}], 'text', 0, true, () => ({})]) {
      assert.equal(isPlainObject(value), false, String(value));
    }
  });
});
