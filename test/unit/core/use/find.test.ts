import * as assert from 'node:assert/strict';
import { closestNames, editDistance, findSkills, tokenize } from '../../../../src/core/use/find';
import { fakeRecord } from '../../../fixtures/trees/tree';

const skills = [
  fakeRecord('pdf-forms', 'Fill in and flatten PDF forms.'),
  fakeRecord('pdf-extract', 'Extract text and tables from PDF documents.'),
  fakeRecord('spreadsheet', 'Create and edit Excel workbooks and CSV files.'),
  fakeRecord('code-review', 'Review a pull request for bugs, style and missing tests.'),
  fakeRecord('release-notes', 'Write release notes from the git history; mentions pdf export.'),
];

function names(query: string): string[] {
  return findSkills(skills, query).map((match) => match.record.name);
}

describe('findSkills', () => {
  it('returns nothing for an empty query', () => {
    assert.deepEqual(findSkills(skills, '   '), []);
  });

  it('ranks name matches above description matches', () => {
    const ranked = names('pdf');
    assert.deepEqual(ranked.slice(0, 2).sort(), ['pdf-extract', 'pdf-forms']);
    assert.equal(ranked[2], 'release-notes');
    assert.equal(ranked.length, 3);
  });

  it('puts the skill whose whole name is the query first', () => {
    assert.equal(names('code review')[0], 'code-review');
    assert.equal(names('pdfforms')[0], 'pdf-forms');
  });

  it('matches prefixes and partial words', () => {
    assert.equal(names('extr')[0], 'pdf-extract');
    assert.equal(names('sheet')[0], 'spreadsheet');
    assert.equal(names('workbook')[0], 'spreadsheet');
  });

  it('tolerates typos in longer words', () => {
    assert.equal(names('spredsheet')[0], 'spreadsheet');
    assert.equal(names('reveiw')[0], 'code-review');
    assert.equal(names('relase notse')[0], 'release-notes');
  });

  it('does not match short words by typo', () => {
    assert.deepEqual(names('pfx'), []);
  });

  it('ignores filler words and ranks by intent', () => {
    assert.equal(names('how do I fill a pdf form')[0], 'pdf-forms');
  });

  it('honours the limit and breaks ties alphabetically', () => {
    assert.deepEqual(
      findSkills(skills, 'pdf', { limit: 2 }).map((match) => match.record.name),
      ['pdf-extract', 'pdf-forms'],
    );
  });
});

describe('closestNames', () => {
  const all = skills.map((record) => record.name);

  it('suggests names within a few edits, closest first', () => {
    assert.equal(closestNames('pdf-form', all)[0], 'pdf-forms');
    assert.equal(closestNames('code-reveiw', all)[0], 'code-review');
    assert.deepEqual(closestNames('pdf-form', all, 1), ['pdf-forms']);
  });

  it('suggests names that contain the request', () => {
    assert.deepEqual(closestNames('review', all), ['code-review']);
  });

  it('suggests nothing for unrelated names', () => {
    assert.deepEqual(closestNames('kubernetes', all), []);
    assert.deepEqual(closestNames('', all), []);
  });
});

describe('text helpers', () => {
  it('tokenizes on non-alphanumerics, lowercased', () => {
    assert.deepEqual(tokenize('PDF-Forms: fill_in, v2!'), ['pdf', 'forms', 'fill', 'in', 'v2']);
  });

  it('counts an adjacent transposition as one edit', () => {
    assert.equal(editDistance('review', 'reveiw'), 1);
    assert.equal(editDistance('kitten', 'sitting'), 3);
    assert.equal(editDistance('', 'abc'), 3);
  });
});
