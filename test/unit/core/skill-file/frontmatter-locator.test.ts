import * as assert from 'node:assert/strict';
import { findTabIndentation, locateFrontmatterFields, type FieldLocation } from '../../../../src/core/skill-file/frontmatter-locator';
import type { Range } from '../../../../src/core/model/types';

function range(startLine: number, startColumn: number, endLine: number, endColumn: number): Range {
  return { start: { line: startLine, column: startColumn }, end: { line: endLine, column: endColumn } };
}

/** Where `key` of the frontmatter written as `lines` (after the opening fence) is located. */
function locate(lines: readonly string[], key: string): FieldLocation | undefined {
  return locateFrontmatterFields(['---', ...lines]).get(key);
}

function valueOf(lines: readonly string[], key: string): Range | undefined {
  return locate(lines, key)?.value;
}

describe('locateFrontmatterFields', function () {
  describe('a value on the key line', function () {
    it('ends before trailing spaces and a trailing comment', function () {
      const lines = ['name: demo   # the folder name', 'license: MIT  '];
      assert.deepEqual(valueOf(lines, 'name'), range(1, 6, 1, 10));
      assert.deepEqual(valueOf(lines, 'license'), range(2, 9, 2, 12));
    });

    it('starts after a tab that follows the colon', function () {
      assert.deepEqual(locate(['tag:\tx'], 'tag'), { key: range(1, 0, 1, 3), value: range(1, 5, 1, 6) });
    });

    it('keeps a # that follows no space or tab, as YAML reads it as text', function () {
      assert.deepEqual(valueOf(['name: a#b', 'title: a\u00a0#b'], 'name'), range(1, 6, 1, 9));
      assert.deepEqual(valueOf(['name: a#b', 'title: a\u00a0#b'], 'title'), range(2, 7, 2, 11));
    });

    it('ends a quoted value at its closing quote, past escaped quotes and # signs inside it', function () {
      const lines = ['double: "say \\"hi\\" # now" # note', "single: 'it''s # here' # note", "path: 'C:\\' # note", 'joined: "a"\'b\''];
      assert.deepEqual(valueOf(lines, 'double'), range(1, 8, 1, 26));
      assert.deepEqual(valueOf(lines, 'single'), range(2, 8, 2, 22));
      // A backslash escapes nothing in single quotes.
      assert.deepEqual(valueOf(lines, 'path'), range(3, 6, 3, 11));
      assert.deepEqual(valueOf(lines, 'joined'), range(4, 8, 4, 11));
    });

    it('runs an unclosed quoted value to the end of its last line', function () {
      assert.deepEqual(valueOf(['description: "one # two', '  three"  ', 'name: a'], 'description'), range(1, 13, 2, 8));
    });
  });

  describe('keys', function () {
    it('names quoted keys as YAML reads them and spans them with their quotes', function () {
      const locations = locateFrontmatterFields(['---', '"say \\"hi\\"": 1', "'it''s': 2", '"a\\qb": 3']);
      assert.deepEqual([...locations.keys()], ['say "hi"', "it's", 'a\\qb']);
      assert.deepEqual(locations.get('say "hi"')?.key, range(1, 0, 1, 12));
      assert.deepEqual(locations.get("it's")?.key, range(2, 0, 2, 7));
      // An escape JSON does not know is left as written.
      assert.deepEqual(locations.get('a\\qb')?.key, range(3, 0, 3, 6));
    });

    it('locates the first of two entries with the same key', function () {
      assert.deepEqual(locate(['name: a', 'name: b'], 'name'), { key: range(1, 0, 1, 4), value: range(1, 6, 1, 7) });
    });
  });

  describe('a value on the lines below', function () {
    it('gives a value of nothing but comments a zero-width range after the colon, as an empty one', function () {
      const lines = ['empty:', 'metadata:', '  # none yet', '', 'name: a'];
      assert.deepEqual(locate(lines, 'empty'), { key: range(1, 0, 1, 5), value: range(1, 6, 1, 6) });
      assert.deepEqual(locate(lines, 'metadata'), { key: range(2, 0, 2, 8), value: range(2, 9, 2, 9) });
    });

    it('leaves out blank lines and comments at the key indent that follow it', function () {
      assert.deepEqual(valueOf(['description: |', '  text', '', '# note', 'name: a'], 'description'), range(1, 13, 2, 6));
    });

    it('keeps an indented # line of block text', function () {
      assert.deepEqual(valueOf(['description: |', '  text', '  # heading', 'name: a'], 'description'), range(1, 13, 3, 11));
    });

    it('starts a nested mapping at its first entry, past blank and comment lines, and reads no commented-out entry', function () {
      assert.deepEqual(locate(['metadata:', '', '  # who', '  author: me', '# a: b', 'name: a'], 'metadata'), {
        key: range(1, 0, 1, 8),
        value: range(4, 2, 4, 12),
        children: new Map([['author', { key: range(4, 2, 4, 8), value: range(4, 10, 4, 12) }]]),
      });
    });

    it('locates the entries of the first nested level only', function () {
      const author = locate(['metadata:', '  author:', '    name: Ann'], 'metadata')?.children?.get('author');
      assert.deepEqual(author, { key: range(2, 2, 2, 8), value: range(3, 4, 3, 13) });
    });

    it('spans a list written at the key indent, as YAML allows', function () {
      assert.deepEqual(locate(['tools:', '- read', '- edit', 'name: a'], 'tools'), { key: range(1, 0, 1, 5), value: range(2, 0, 3, 6) });
    });

    it('takes no sequence entry for a key, and a key may start with a dash', function () {
      assert.deepEqual([...locateFrontmatterFields(['---', 'tools:', '- name: x', '-x: 1']).keys()], ['tools', '-x']);
    });

    it('reads a nested entry whose value holds " - " as an entry, not as a list', function () {
      assert.deepEqual(locate(['metadata:', '  note: a - b'], 'metadata')?.children?.get('note'), { key: range(2, 2, 2, 6), value: range(2, 8, 2, 13) });
    });

    it('gives a list and multi-line text no entries', function () {
      const lines = ['tools:', '  - read', '  edit: x', 'description:', '  plain text', '  over lines'];
      assert.deepEqual(locate(lines, 'tools'), { key: range(1, 0, 1, 5), value: range(2, 2, 3, 9) });
      assert.deepEqual(locate(lines, 'description'), { key: range(4, 0, 4, 11), value: range(5, 2, 6, 12) });
    });

    it('reads the mapping below an anchor or a tag on the key line', function () {
      const lines = ['metadata: &meta', '  author: me', 'other: &a !!map', '  b: c'];
      assert.deepEqual(locate(lines, 'metadata'), {
        key: range(1, 0, 1, 8),
        value: range(2, 2, 2, 12),
        children: new Map([['author', { key: range(2, 2, 2, 8), value: range(2, 10, 2, 12) }]]),
      });
      assert.deepEqual(locate(lines, 'other'), {
        key: range(3, 0, 3, 5),
        value: range(4, 2, 4, 6),
        children: new Map([['b', { key: range(4, 2, 4, 3), value: range(4, 5, 4, 6) }]]),
      });
    });

    it('starts text on the key line when an anchor is followed by text, or text by an &', function () {
      const lines = ['anchored: &t first', '  second', 'words: a &b', '  more'];
      assert.deepEqual(valueOf(lines, 'anchored'), range(1, 10, 2, 8));
      assert.deepEqual(valueOf(lines, 'words'), range(3, 7, 4, 6));
    });
  });
});

describe('findTabIndentation', function () {
  function tabIn(lines: readonly string[]): ReturnType<typeof findTabIndentation> {
    return findTabIndentation(['---', ...lines]);
  }

  it('reports a tab before a nested entry after a blank line or a comment', function () {
    assert.deepEqual(tabIn(['metadata:', '', '  \tauthor: me']), { line: 3, column: 2 });
    assert.deepEqual(tabIn(['metadata:', '# who', '  \tauthor: me']), { line: 3, column: 2 });
  });

  it('reports a tab before a nested entry below an anchor or tags', function () {
    assert.deepEqual(tabIn(['metadata: &meta', '  \tauthor: me']), { line: 2, column: 2 });
    assert.deepEqual(tabIn(['metadata: &a !!map', '  \tauthor: me']), { line: 2, column: 2 });
  });

  it('reports a tab that starts a line after a closed quoted value', function () {
    assert.deepEqual(tabIn(['description: "done"', '\tname: x']), { line: 2, column: 0 });
    assert.deepEqual(tabIn(["description: 'done'", '\tname: x']), { line: 2, column: 0 });
  });

  it('allows tabs on blank lines, in comments, after a colon and in continued text', function () {
    for (const lines of [
      ['name: a', '\t', 'description: b'],
      ['name: a', '\t# note'],
      ['metadata:', '  author:\tme'],
      ['description:', '  first line', '  \tsecond line'],
      ['tags: [a,', '\tb]'],
      ['map: {a: 1,', '\tb: 2}'],
      ["description: 'one", "\ttwo'"],
      ['just words'],
    ]) {
      assert.equal(tabIn(lines), undefined, JSON.stringify(lines));
    }
  });
});
