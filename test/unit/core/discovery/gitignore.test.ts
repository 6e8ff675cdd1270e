import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { IgnoreRules, isIgnoredFolder } from '../../../../src/core/discovery/gitignore';

describe('gitignore rules for folders', () => {
  const decide = (text: string, folder: string): boolean | undefined => IgnoreRules.parse(text).decide(folder);

  it('matches a bare name at any depth, and what lies below it', () => {
    assert.equal(decide('build', 'build'), true);
    assert.equal(decide('build/', 'packages/web/build'), true);
    assert.equal(decide('build', 'build/out'), true);
    assert.equal(decide('build', 'builder'), undefined);
  });

  it('anchors a pattern with a leading or inner slash to the file’s folder', () => {
    assert.equal(decide('/dist', 'dist'), true);
    assert.equal(decide('/dist', 'packages/dist'), undefined);
    assert.equal(decide('packages/legacy', 'packages/legacy'), true);
    assert.equal(decide('packages/legacy', 'other/packages/legacy'), undefined);
  });

  it('understands *, ?, character classes and **', () => {
    assert.equal(decide('tmp-*', 'tmp-42'), true);
    assert.equal(decide('tmp-*', 'a/tmp-/b'), true);
    assert.equal(decide('v?', 'v1'), true);
    assert.equal(decide('v?', 'v10'), undefined);
    assert.equal(decide('out[0-9]', 'out7'), true);
    assert.equal(decide('out[!0-9]', 'out7'), undefined);
    assert.equal(decide('**/generated', 'a/b/generated'), true);
    assert.equal(decide('packages/**/fixtures', 'packages/web/test/fixtures'), true);
    assert.equal(decide('packages/**/fixtures', 'packages/fixtures'), true);
    assert.equal(decide('vendor/**', 'vendor/x'), true);
    assert.equal(decide('*.log', 'a/b.log'), true);
  });

  it('lets the last matching line decide, a ! line re-including', () => {
    assert.equal(decide('packages/*\n!packages/web', 'packages/web'), false);
    assert.equal(decide('packages/*\n!packages/web', 'packages/api'), true);
    assert.equal(decide('!keep\nkeep', 'keep'), true);
  });

  it('skips comments, blank lines and trailing spaces, and honours escapes', () => {
    assert.equal(decide('# build\n\n   \nbuild   ', 'build'), true);
    assert.equal(decide('# build', 'build'), undefined);
    assert.equal(decide('\\#notes', '#notes'), true);
    assert.equal(decide('\\!important', '!important'), true);
    assert.ok(IgnoreRules.parse('# only a comment\n').empty);
  });

  it('lets a deeper .gitignore overrule a higher one, and judges paths relative to each file', () => {
    const top = path.resolve('/repo');
    const web = path.join(top, 'packages', 'web');
    const scopes = [
      { dir: top, rules: IgnoreRules.parse('generated\n') },
      { dir: web, rules: IgnoreRules.parse('!generated\n/local\n') },
    ];
    assert.equal(isIgnoredFolder(path.join(top, 'generated'), scopes), true);
    assert.equal(isIgnoredFolder(path.join(web, 'generated'), scopes), false);
    assert.equal(isIgnoredFolder(path.join(web, 'local'), scopes), true);
    assert.equal(isIgnoredFolder(path.join(top, 'local'), scopes), false);
  });
});
