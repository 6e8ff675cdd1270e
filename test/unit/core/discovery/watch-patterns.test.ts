import * as assert from 'node:assert/strict';
import { rootWatchGlob } from '../../../../src/core/discovery/watch-patterns';

describe('rootWatchGlob', () => {
  it('matches the root, its ancestors and everything below it', () => {
    assert.equal(rootWatchGlob('.agent/skills'), '{.agent,.agent/skills,.agent/skills/**}');
    assert.equal(rootWatchGlob('skills'), '{skills,skills/**}');
  });

  it('accepts Windows separators and ignores empty and "." segments', () => {
    assert.equal(rootWatchGlob('.\\.github\\skills\\'), '{.github,.github/skills,.github/skills/**}');
  });

  it('watches everything when the root is the workspace folder itself', () => {
    assert.equal(rootWatchGlob(''), '**');
  });

  it('escapes glob characters in folder names', () => {
    assert.equal(rootWatchGlob('a{b}/c'), '{a[{]b[}],a[{]b[}]/c,a[{]b[}]/c/**}');
  });
});
