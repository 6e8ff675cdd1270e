import * as assert from 'node:assert/strict';
import { once } from '../../../../src/core/util/async';

describe('once', () => {
  it('makes the value on the first call only, and returns it to every later call', () => {
    let made = 0;
    const value = once(() => ({ made: ++made }));
    assert.equal(made, 0);
    const first = value();
    assert.equal(value(), first);
    assert.equal(value(), first);
    assert.deepEqual(first, { made: 1 });
  });

  it('tries again after a call that threw instead of keeping the failure', () => {
    let attempts = 0;
    const value = once(() => {
      attempts++;
      if (attempts === 1) {
        throw new Error('the bundle could not be read');
      }
      return attempts;
    });
    assert.throws(value, /could not be read/);
    assert.equal(value(), 2);
    assert.equal(value(), 2);
    assert.equal(attempts, 2);
  });
});
