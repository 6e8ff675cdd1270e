import * as assert from 'node:assert/strict';
import { compileAllowlist, isAllowed } from '../../../../src/core/discovery/allowlist';

describe('allowlist', () => {
  it('allows everything when empty or blank', () => {
    assert.equal(isAllowed('anything', []), true);
    assert.equal(isAllowed('anything', ['  ', '']), true);
  });

  it('matches exact names only when there is no pattern character', () => {
    const allowed = compileAllowlist(['pdf']);
    assert.equal(allowed('pdf'), true);
    assert.equal(allowed('pdf-tools'), false);
    assert.equal(allowed('my-pdf'), false);
  });

  it('supports * and ? patterns anchored at both ends', () => {
    const allowed = compileAllowlist(['pdf-*', '*-review', 'v?']);
    assert.equal(allowed('pdf-tools'), true);
    assert.equal(allowed('pdf-'), true);
    assert.equal(allowed('code-review'), true);
    assert.equal(allowed('review-code'), false);
    assert.equal(allowed('v1'), true);
    assert.equal(allowed('v10'), false);
    assert.equal(allowed('docx'), false);
  });

  it('treats regular-expression characters literally and ignores case and spaces', () => {
    const allowed = compileAllowlist([' Data.Tools ', 'a+b*']);
    assert.equal(allowed('data.tools'), true);
    assert.equal(allowed('dataxtools'), false);
    assert.equal(allowed('a+b-extra'), true);
    assert.equal(allowed('aab'), false);
  });

  it('escapes every regular-expression character inside a wildcard pattern', () => {
    // Each pattern holds a wildcard, so it goes through the pattern path, not the exact-name set.
    const cases: [pattern: string, matches: string, mismatches: string[]][] = [
      ['v1.*', 'v1.2', ['v1x2', 'v102']],
      ['a+b?', 'a+bc', ['aabc', 'abc']],
      ['(x)*', '(x)y', ['x', 'xy']],
      ['[ab]*', '[ab]-c', ['a-c', 'b']],
      ['x{2}*', 'x{2}y', ['xx', 'xxy']],
      ['^a$*', '^a$b', ['a', 'ab']],
      ['a|b*', 'a|bc', ['a', 'bc']],
      ['back\\slash*', 'back\\slash-x', ['back lash-x']],
    ];
    for (const [pattern, matches, mismatches] of cases) {
      const allowed = compileAllowlist([pattern]);
      assert.equal(allowed(matches), true, `${pattern} should match ${matches}`);
      for (const name of mismatches) {
        assert.equal(allowed(name), false, `${pattern} should not match ${name}`);
      }
    }
  });

  it('allows everything with a lone *', () => {
    assert.equal(isAllowed('whatever', ['*']), true);
  });
});
