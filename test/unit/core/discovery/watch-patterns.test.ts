import * as assert from 'node:assert/strict';
import { nestedLocationsWatchGlob, rootWatchGlob } from '../../../../src/core/discovery/watch-patterns';

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

describe('nestedLocationsWatchGlob', () => {
  it('matches every location and its ancestors at any depth, each once, and anything down to the sub-project depth', () => {
    assert.equal(nestedLocationsWatchGlob(['.agent/skills', '.agent/more'], 3), '{*,*/*,*/*/*,**/.agent,**/.agent/skills,**/.agent/skills/**,**/.agent/more,**/.agent/more/**}');
  });

  it('has nothing to watch without a location below the folder', () => {
    assert.equal(nestedLocationsWatchGlob(['', '.'], 3), undefined);
  });
});
