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
    assert.equal(decide('vendor/**', 'vendor/x/y'), true);
    assert.equal(decide('vendor/**', 'vendor'), undefined);
    assert.equal(decide('**', 'a/b'), true);
    assert.equal(decide('*.log', 'a/b.log'), true);
  });

  it('lets ** mean any folders only as a whole segment, a lone * never crossing a slash', () => {
    assert.equal(decide('a/*x/c', 'a/yx/c'), true);
    assert.equal(decide('a/*x/c', 'a/yy/c'), undefined);
    assert.equal(decide('a**/b', 'ab/b'), true);
    assert.equal(decide('a**/b', 'ax/y/b'), undefined);
    assert.equal(decide('a/**x', 'a/bx'), true);
    assert.equal(decide('a/**x', 'a/b/cx'), undefined);
  });

  it('reads character classes as git does: ! or ^ negates, a first ] is a member, \\ escapes, an unclosed [ is plain', () => {
    assert.equal(decide('x[a!]', 'x!'), true);
    assert.equal(decide('x[a!]', 'xb'), undefined);
    assert.equal(decide('x[^0-9]', 'xa'), true);
    assert.equal(decide('x[^0-9]', 'x7'), undefined);
    assert.equal(decide('x[]a]', 'x]'), true);
    assert.equal(decide('x[]a]', 'xa'), true);
    assert.equal(decide('x[]a]', 'xb'), undefined);
    assert.equal(decide('x[!]a]', 'xb'), true);
    assert.equal(decide('x[!]a]', 'x]'), undefined);
    assert.equal(decide('x[^]a]', 'xb'), true);
    assert.equal(decide('x[\\]a]', 'x]'), true);
    assert.equal(decide('x[\\da]', 'xd'), true);
    assert.equal(decide('x[\\da]', 'x5'), undefined);
    assert.equal(decide('x[a\\-c]', 'x-'), true);
    assert.equal(decide('x[a\\-c]', 'xb'), undefined);
    assert.equal(decide('x[\\\\]', 'x\\'), true);
    assert.equal(decide('a]b[0-9]', 'a]b5'), true);
    assert.equal(decide('a[b', 'a[b'), true);
    assert.equal(decide('x[a\\', 'x[a\\'), true, 'a final backslash inside an unclosed set');
    assert.equal(decide('a[b]', 'a[b'), undefined);
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
    assert.equal(decide('\\[ab]', '[ab]'), true);
    assert.equal(decide('\\[ab]', 'a'), undefined);
    assert.equal(decide('x[\\!a]', 'x!'), true);
    assert.equal(decide('x[\\!a]', 'xb'), undefined);
    assert.equal(decide('a\\*', 'a*'), true);
    assert.equal(decide('a\\*', 'ab'), undefined);
    assert.equal(decide('a\\', 'a\\'), true, 'a final backslash is itself');
    assert.equal(decide('my folder', 'my folder'), true);
    assert.equal(decide('build//', 'packages/build'), true, 'several final slashes still leave the pattern unanchored');
    assert.ok(IgnoreRules.parse('# only a comment\n').empty);
    assert.ok(IgnoreRules.parse('/\n!//\n').empty, 'a line of slashes is no rule');
    assert.ok(!IgnoreRules.parse('build\n').empty);
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

  it('never ignores the folder holding the .gitignore, even with a rule matching everything', () => {
    const top = path.resolve('/repo');
    const scopes = [{ dir: top, rules: IgnoreRules.parse('*\n') }];
    assert.equal(isIgnoredFolder(top, scopes), false);
    assert.equal(isIgnoredFolder(path.join(top, 'anything'), scopes), true);
  });
});
