import * as assert from 'node:assert/strict';
import { parseFlatFrontmatter, parseSimpleFrontmatter } from '../../../../src/core/skill-file/flat-frontmatter';

describe('parseFlatFrontmatter', function () {
  it('reads quoted null and boolean words, and a quoted ": ", as text', function () {
    assert.deepEqual(parseFlatFrontmatter(['', 'word: "null"', 'flag: "true"', "tag: 'a: b'"]), { word: 'null', flag: 'true', tag: 'a: b' });
  });

  it('leaves the words YAML reads as null or booleans to the YAML parser, in any of their spellings', function () {
    for (const word of ['null', 'Null', 'NULL', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE']) {
      assert.equal(parseFlatFrontmatter(['', `flag: ${word}`]), undefined, word);
    }
  });

  it('reads a value after several spaces, and a colon inside a word, as text', function () {
    assert.deepEqual(parseFlatFrontmatter(['', 'name:   x', 'url: a:b']), { name: 'x', url: 'a:b' });
  });

  it('leaves values with control characters or line breaks to the YAML parser', function () {
    for (const line of ['name: a\u0001b', 'name: "a\rb"', "name: 'a\u0085b'"]) {
      assert.equal(parseFlatFrontmatter(['', line]), undefined, JSON.stringify(line));
    }
  });
});

describe('parseSimpleFrontmatter', function () {
  it('reads a nested block with blank lines before and between its entries', function () {
    assert.deepEqual(parseSimpleFrontmatter(['', 'metadata:', '', '  a: b', '', '  c: d', 'name: x']), { metadata: { a: 'b', c: 'd' }, name: 'x' });
  });

  it('leaves a block under a key with a space in it to the YAML parser', function () {
    assert.equal(parseSimpleFrontmatter(['', 'my metadata:', '  a: b']), undefined);
  });

  it('leaves a key followed only by blank lines to the YAML parser', function () {
    assert.equal(parseSimpleFrontmatter(['', 'metadata:', '', '\t']), undefined);
  });
});
