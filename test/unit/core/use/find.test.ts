import * as assert from 'node:assert/strict';
import { closestNames, editDistance, findSkills, SkillSearchIndex, stem, tokenize } from '../../../../src/core/use/find';
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

  it('does not reach the filler words of descriptions', () => {
    assert.deepEqual(findSkills([fakeRecord('helper', 'Tools for the team, and more.')], 'form'), []);
  });

  it('ignores filler words and ranks by intent', () => {
    assert.equal(names('how do I fill a pdf form')[0], 'pdf-forms');
  });

  it('honours the limit and breaks ties alphabetically', () => {
    assert.deepEqual(
      findSkills(skills, 'pdf', { limit: 2 })
        .map((match) => match.record.name)
        .sort(),
      ['pdf-extract', 'pdf-forms'],
    );
    const twins = [fakeRecord('notes-b', 'Take meeting notes.'), fakeRecord('notes-a', 'Take meeting notes.')];
    assert.deepEqual(
      findSkills(twins, 'meeting').map((match) => match.record.name),
      ['notes-a', 'notes-b'],
    );
  });

  it('meets words in other forms: plurals, -ing and -ed', () => {
    assert.equal(names('reviewing tests')[0], 'code-review');
    assert.equal(names('flattened form')[0], 'pdf-forms');
  });

  it('meets words of the same root with other endings', () => {
    const stats = [fakeRecord('ab-tests', 'Analyse experiments for statistical significance.'), fakeRecord('charts', 'Plot significant trends.')];
    assert.deepEqual(
      findSkills(stats, 'significance').map((match) => match.record.name),
      ['ab-tests', 'charts'],
    );
  });

  it('takes a query that is a skill name in another form as that skill', () => {
    const named = [
      ...skills.filter((record) => !record.name.startsWith('pdf')),
      fakeRecord('pdf', 'Read PDF files.'),
      fakeRecord('pdf-tools', 'Merge PDF files.'),
      fakeRecord('pdf-forms', 'Fill PDF forms.'),
    ];
    assert.equal(findSkills(named, 'pdff')[0].record.name, 'pdf');
    assert.equal(findSkills(named, 'pdf form')[0].record.name, 'pdf-forms');
  });

  it('finds a name written as one word in the query as two', () => {
    const joined = [fakeRecord('googlecalendar', 'Automate calendar tasks.'), fakeRecord('google-meet', 'Schedule Google calendar events for meetings.')];
    assert.equal(findSkills(joined, 'google calendar')[0].record.name, 'googlecalendar');
  });

  it('prefers skills that match more of the query over one rare word', () => {
    const ranked = findSkills([fakeRecord('invoices', 'Create invoices with taxes and payment terms.'), fakeRecord('taxonomy', 'Classify species into a taxonomy.')], 'invoice with taxes');
    assert.equal(ranked[0].record.name, 'invoices');
    assert.equal(ranked[0].matchedWords, 2);
  });

  it('says whether a query word matched the name', () => {
    const [forms, , notes] = findSkills(skills, 'pdf');
    assert.equal(forms.nameMatch, true);
    assert.equal(notes.record.name, 'release-notes');
    assert.equal(notes.nameMatch, false);
  });
});

describe('SkillSearchIndex', () => {
  it('ranks as findSkills does, and follows records added, replaced and removed', () => {
    const index = new SkillSearchIndex();
    index.sync(skills);
    assert.deepEqual(
      index.search('extract tables').map((match) => match.record.name),
      names('extract tables'),
    );
    const edited = fakeRecord('spreadsheet', 'Create charts from tables.');
    index.sync([...skills.filter((record) => record.name !== 'spreadsheet'), edited]);
    assert.equal(index.size, skills.length);
    assert.deepEqual(index.search('workbook'), []);
    assert.deepEqual(
      index.search('chart').map((match) => match.record),
      [edited],
    );
    index.remove(edited);
    assert.deepEqual(index.search('chart'), []);
    // A word no skill holds any more is no longer reached by prefix or typo either.
    assert.deepEqual(index.search('chrts'), []);
    assert.deepEqual(index.search('char'), []);
  });

  it('keeps the same object once however often it is added', () => {
    const index = new SkillSearchIndex();
    index.add(skills[0]);
    index.add(skills[0]);
    assert.equal(index.size, 1);
    assert.equal(index.search('forms').length, 1);
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

  it('stems plurals, -ing, -ed and a final e to one form', () => {
    assert.equal(stem('forms'), stem('form'));
    assert.equal(stem('merging'), stem('merge'));
    assert.equal(stem('merged'), stem('merges'));
    assert.equal(stem('running'), 'run');
    assert.equal(stem('categories'), stem('category'));
    assert.equal(stem('class'), 'class');
  });

  it('counts an adjacent transposition as one edit', () => {
    assert.equal(editDistance('review', 'reveiw'), 1);
    assert.equal(editDistance('kitten', 'sitting'), 3);
    assert.equal(editDistance('', 'abc'), 3);
  });
});
