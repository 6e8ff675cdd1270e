import * as assert from 'node:assert/strict';
import { closestNames, editDistance, findSkills, similarSkillNames, SkillSearchIndex, stem, tokenize } from '../../../../src/core/use/find';
import type { SkillRecord } from '../../../../src/core/model/types';
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

  it('answers a word searched before as a fresh index does: after a query joining it with the next word, and after the skills changed', () => {
    const index = new SkillSearchIndex();
    const joined = [fakeRecord('googlecalendar', 'Automate calendar tasks.'), fakeRecord('google-meet', 'Schedule Google calendar events for meetings.')];
    index.sync(joined);
    const ranked = (query: string): [string, number][] => index.search(query).map((match) => [match.record.name, match.score]);
    const fresh = (records: readonly SkillRecord[], query: string): [string, number][] => findSkills(records, query).map((match) => [match.record.name, match.score]);
    assert.equal(ranked('google calendar')[0][0], 'googlecalendar');
    // "google" alone does not reach the joined name the pair did.
    assert.deepEqual(ranked('google'), fresh(joined, 'google'));
    assert.deepEqual(ranked('extr'), []);
    const grown = [...joined, fakeRecord('table-extraction', 'Extraction of tables from documents.')];
    index.sync(grown);
    assert.deepEqual(ranked('extr'), fresh(grown, 'extr'));
    assert.equal(ranked('extr').length, 1, 'a word reached nothing before the skill holding it came');
    index.sync(joined);
    assert.deepEqual(ranked('extr'), [], 'nor after it went');
  });

  it('finds every skill after growing well past the skills it held at its first search', () => {
    const index = new SkillSearchIndex();
    index.add(fakeRecord('report-0', 'Write a report.'));
    assert.equal(index.search('report').length, 1);
    for (let number = 1; number <= 40; number++) {
      index.add(fakeRecord(`report-${number}`, 'Write a report.'));
    }
    assert.equal(index.search('report', { limit: 100 }).length, 41);
  });

  it('keeps the same object once however often it is added', () => {
    const index = new SkillSearchIndex();
    index.add(skills[0]);
    index.add(skills[0]);
    assert.equal(index.size, 1);
    assert.equal(index.search('forms').length, 1);
  });
});

describe('similarSkillNames', () => {
  const names = ['sql-format', 'format-sql', 'db-migrations', 'pdf-forms', 'pdf-report', 'release-notes'];

  it('suggests names sharing a word or an abbreviation of one, after the typos', () => {
    assert.deepEqual(similarSkillNames('sql-fmt', names), ['format-sql', 'sql-format']);
    assert.deepEqual(similarSkillNames('fmt', names), ['format-sql', 'sql-format']);
    assert.deepEqual(similarSkillNames('pdf-form', names), ['pdf-forms', 'pdf-report']);
    assert.deepEqual(similarSkillNames('relase-notes', names), ['release-notes']);
  });

  it('suggests nothing for names that share no word, and takes no one-letter word for one', () => {
    assert.deepEqual(similarSkillNames('kubernetes', names), []);
    // An abbreviation keeps the first letter, has three letters or more and is three shorter than the word.
    assert.deepEqual(similarSkillNames('db-tools-x', ['debug-helper']), []);
    assert.deepEqual(similarSkillNames('mt-sq', names), []);
    assert.deepEqual(similarSkillNames('cfg-repo', ['config-loader', 'repository-tools', 'conf-parser']), ['config-loader', 'repository-tools']);
  });

  it('keeps to the limit, typos first', () => {
    assert.deepEqual(similarSkillNames('pdf-form', names, 1), ['pdf-forms']);
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
    assert.deepEqual(closestNames('  ', ['ab']), []);
    assert.deepEqual(closestNames('a', ['abcdefgh']), []);
  });

  it('orders names equally close by name', () => {
    assert.deepEqual(closestNames('pdf', ['pdz', 'pdy', 'pda']), ['pda', 'pdy', 'pdz']);
  });

  it('ignores spaces around the request', () => {
    assert.deepEqual(closestNames(' pdf ', all), ['pdf-forms', 'pdf-extract']);
  });

  it('allows an edit per three letters, at least two, and containment from three letters on', () => {
    assert.deepEqual(closestNames('pdfx', ['pdf-y']), ['pdf-y']);
    assert.deepEqual(closestNames('kubernetes-deploy', ['kubernetas-daploi']), ['kubernetas-daploi']);
    assert.deepEqual(closestNames('pdf', ['pdf-forms-tool']), ['pdf-forms-tool']);
  });

  it('orders by distance, then by name, and keeps the first few', () => {
    const candidates = ['pdf-xyz', 'pdf-c', 'pdf-b', 'pdf-a'];
    assert.deepEqual(closestNames('pdf-x', candidates), ['pdf-a', 'pdf-b', 'pdf-c', 'pdf-xyz']);
    assert.deepEqual(closestNames('pdf-x', candidates, 2), ['pdf-a', 'pdf-b']);
  });
});

describe('text helpers', () => {
  it('tokenizes on non-alphanumerics, lowercased', () => {
    assert.deepEqual(tokenize('PDF-Forms: fill_in, v2!'), ['pdf', 'forms', 'fill', 'in', 'v2']);
  });

  it('splits text into the same words as the Unicode classes of letters and numbers say, ASCII or not', () => {
    const byClasses = (text: string): string[] =>
      text
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter((word) => word !== '');
    // ASCII of every kind, then letters and digits of other scripts, and a Kelvin sign that lower-cases to "k".
    const alphabet = ['a', 'Z', 'q', '0', '9', ' ', '-', '_', '.', '/', '@', '[', '`', '{', '~', '\n', '\t', '\u007f', 'é', 'Ä', '\u212a', 'İ', '١', 'ж', '日', '😀', '\u00a0'];
    let state = 7;
    const next = (bound: number): number => ((state = (state * 1103515245 + 12345) % 2147483648), state % bound);
    for (let round = 0; round < 3000; round++) {
      const ascii = round % 2 === 0 ? 18 : alphabet.length;
      const text = Array.from({ length: next(14) }, () => alphabet[next(ascii)]).join('');
      assert.deepEqual(tokenize(text), byClasses(text), JSON.stringify(text));
    }
    assert.deepEqual(tokenize('Ünïcode-Wörds and \u212Aelvin'), ['ünïcode', 'wörds', 'and', 'kelvin']);
  });

  it('stems plurals, -ing, -ed and a final e to one form', () => {
    assert.equal(stem('forms'), stem('form'));
    assert.equal(stem('merging'), stem('merge'));
    assert.equal(stem('merged'), stem('merges'));
    assert.equal(stem('running'), 'run');
    assert.equal(stem('categories'), stem('category'));
    assert.equal(stem('class'), 'class');
  });

  it('leaves short words and inner letters alone', () => {
    const stems = Object.fromEntries(['ties', 'gas', 'issues', 'thing', 'need', 'add', 'letter', 'ace'].map((word) => [word, stem(word)]));
    assert.deepEqual(stems, { ties: 'tie', gas: 'gas', issues: 'issu', thing: 'thing', need: 'need', add: 'add', letter: 'letter', ace: 'ace' });
  });

  it('counts an adjacent transposition as one edit', () => {
    assert.equal(editDistance('review', 'reveiw'), 1);
    assert.equal(editDistance('kitten', 'sitting'), 3);
    assert.equal(editDistance('', 'abc'), 3);
    assert.equal(editDistance('ab', 'b'), 1);
    assert.equal(editDistance('ab', ''), 2);
  });

  it('swaps only two letters that trade places', () => {
    assert.equal(editDistance('ab', 'xa'), 2);
    assert.equal(editDistance('xb', 'bz'), 2);
  });

  it('reports any distance above the limit as the limit plus one', () => {
    assert.equal(editDistance('ab', 'abcdef', 2), 3);
    assert.equal(editDistance('abcdef', 'uvwxyz', 2), 3);
    assert.equal(editDistance('review', 'reveiw', 2), 1);
  });

  it('measures names longer than its kept rows, and a swap at either end', () => {
    const long = 'a-skill-name-that-runs-well-past-sixty-four-characters-and-then-some-more';
    assert.equal(editDistance(long, `${long}x`), 1);
    assert.equal(editDistance(long, long.replace('skill', 'skil')), 1);
    assert.equal(editDistance(`${long}${long}`, `${long}-${long}`, 2), 1);
    assert.equal(editDistance('ba', 'ab'), 1);
    assert.equal(editDistance('xyba', 'xyab'), 1);
  });
});

/** BM25F of one reached word in one skill, as documented: idf times the saturated, length-normalised frequency of both fields. */
function bm25f(count: number, holders: number, fields: { weight: number; lengthNormalization: number; occurrences: number; length: number; average: number }[], reachWeight = 1): number {
  const idf = Math.log(1 + (count - holders + 0.5) / (holders + 0.5));
  const frequency = fields.reduce((sum, field) => sum + (field.weight * field.occurrences) / (1 - field.lengthNormalization + (field.lengthNormalization * field.length) / field.average), 0);
  return (reachWeight * idf * frequency * 2.2) / (frequency + 1.2);
}

function scoreOf(records: readonly SkillRecord[], query: string, name: string): number {
  const match = findSkills(records, query).find((candidate) => candidate.record.name === name);
  assert.ok(match, `${name} should match "${query}"`);
  return match.score;
}

describe('findSkills scores', () => {
  // Name lengths 3 (two words and their joined form), 1, 1; description lengths 5, 2, 4 without filler words.
  const charts = [fakeRecord('chart-maker', 'Draws charts and charts of sales data.'), fakeRecord('sales', 'Forecast sales.'), fakeRecord('data', 'Clean data tables for charts.')];
  const averageName = 5 / 3;
  const averageDescription = 11 / 3;
  const name = (occurrences: number, length: number) => ({ weight: 3, lengthNormalization: 0.3, occurrences, length, average: averageName });
  const description = (occurrences: number, length: number) => ({ weight: 1, lengthNormalization: 0.75, occurrences, length, average: averageDescription });

  it('weighs a word by its rarity and its length-normalised frequency in the name and the description', () => {
    const ranked = findSkills(charts, 'chart');
    assert.deepEqual(
      ranked.map((match) => match.record.name),
      ['chart-maker', 'data'],
    );
    assert.ok(Math.abs(ranked[0].score - bm25f(3, 2, [name(1, 3), description(2, 5)])) < 1e-12);
    assert.ok(Math.abs(ranked[1].score - bm25f(3, 2, [description(1, 4)])) < 1e-12);
  });

  it('doubles the score of the skill whose whole name is the query', () => {
    assert.ok(Math.abs(scoreOf(charts, 'sales', 'sales') - 2 * bm25f(3, 2, [name(1, 1), description(1, 2)])) < 1e-12);
    assert.ok(Math.abs(scoreOf(charts, 'sales', 'chart-maker') - bm25f(3, 2, [description(1, 5)])) < 1e-12);
    const filler = [fakeRecord('pdf-form-filler', 'Completes documents.')];
    assert.ok(Math.abs(scoreOf(filler, 'pdf form filler', 'pdf-form-filler') - 2 * scoreOf(filler, 'filler form pdf', 'pdf-form-filler')) < 1e-12);
  });

  it('counts a word reached by prefix, typo, inside a longer word or by its root for less than an exact one', () => {
    const one = [fakeRecord('drawing', 'Draw charts in a spreadsheet and print documents.')];
    const ratio = (query: string, exact: string) => scoreOf(one, query, 'drawing') / scoreOf(one, exact, 'drawing');
    assert.ok(Math.abs(ratio('char', 'chart') - 0.7) < 1e-12);
    assert.ok(Math.abs(ratio('ch', 'chart') - 0.7) < 1e-12);
    assert.ok(Math.abs(ratio('chrat', 'chart') - 0.6) < 1e-12);
    assert.ok(Math.abs(ratio('sheet', 'spreadsheet') - 0.5) < 1e-12);
    assert.ok(Math.abs(ratio('sspreadshet', 'spreadsheet') - 0.4) < 1e-12);
    assert.ok(Math.abs(ratio('printer', 'print') - 0.5) < 1e-12);
  });

  it('counts the best of the words one query word reaches in a skill', () => {
    for (const other of ['format', 'formula']) {
      const records = [fakeRecord('both', 'format formula'), fakeRecord('other', other)];
      const best = Math.max(scoreOf(records, 'format', 'both'), scoreOf(records, 'formula', 'both'));
      assert.ok(Math.abs(scoreOf(records, 'form', 'both') - 0.7 * best) < 1e-12, `with ${other}`);
    }
  });

  it('scales a skill by the share of the query words it matches', () => {
    assert.ok(Math.abs(scoreOf(charts, 'chart zebra', 'data') - scoreOf(charts, 'chart', 'data') / 2) < 1e-12);
    assert.equal(findSkills(charts, 'chart zebra')[0].matchedWords, 1);
  });

  it('leaves filler words out of a query that has other words, and keeps them in one that has not', () => {
    assert.deepEqual(findSkills(skills, 'the pdf'), findSkills(skills, 'pdf'));
    assert.deepEqual(
      findSkills([fakeRecord('how-to', 'Guides.')], 'how to').map((match) => [match.record.name, match.matchedWords]),
      [['how-to', 2]],
    );
  });

  it('counts two query words that join into a name as that one name', () => {
    const paypal = [fakeRecord('paypal', 'Send money.')];
    assert.deepEqual(findSkills(paypal, 'pay pal'), findSkills(paypal, 'paypal'));
  });

  it('says a skill matched the name when any query word did', () => {
    const [match] = findSkills([fakeRecord('pdf-tools', 'Merge files.')], 'pdf merge');
    assert.equal(match.nameMatch, true);
    assert.equal(match.matchedWords, 2);
  });

  it('says the name matched when a word of the name and one of the description tie for a query word', () => {
    // "form" reaches both words by prefix; with one skill, the name once and the description three
    // times weigh the same.
    for (const [name, description] of [
      ['format', 'formal formal formal'],
      ['formal', 'format format format'],
    ]) {
      const [match] = findSkills([fakeRecord(name, description)], 'form');
      assert.equal(match.score, scoreOf([fakeRecord('other', description)], 'form', 'other'), name);
      assert.equal(match.nameMatch, true, name);
    }
  });

  it('keeps the best score of a query word when a weaker word of the name follows', () => {
    // "form" is in the description five times, exactly; "format" of the name is reached by prefix only.
    const description = 'form form form form form';
    const [match] = findSkills([fakeRecord('format', description)], 'form');
    assert.equal(match.score, scoreOf([fakeRecord('other', description)], 'form', 'other'));
    assert.equal(match.nameMatch, false);
  });

  it('joins the last query word with nothing', () => {
    // A name ending in "undefined" gains nothing from the last word of the query.
    const scores = ['pdf-undefined', 'pdf-unrelated'].map((name) => scoreOf([fakeRecord(name, ''), fakeRecord('pdf-forms', '')], 'pdf', name));
    assert.equal(scores[0], scores[1]);
    assert.equal(scores[0], scoreOf([fakeRecord('pdf-undefined', ''), fakeRecord('pdf-forms', '')], 'pdf', 'pdf-forms'));
  });

  it('keeps the given order between skills of the same name and score, and sorts other ties by name', () => {
    const first = fakeRecord('notes', 'Take meeting notes.', { dir: '/one/notes' });
    const second = fakeRecord('notes', 'Take meeting notes.', { dir: '/two/notes' });
    assert.deepEqual(
      findSkills([first, second], 'meeting').map((match) => match.record),
      [first, second],
    );
    const twins = ['notes-c', 'notes-a', 'notes-d', 'notes-b'].map((twin) => fakeRecord(twin, 'Take meeting notes.'));
    assert.deepEqual(
      findSkills(twins, 'meeting').map((match) => match.record.name),
      ['notes-a', 'notes-b', 'notes-c', 'notes-d'],
    );
  });
});

describe('findSkills reach', () => {
  it('reaches words by a prefix of two letters or more, not one', () => {
    assert.deepEqual(names('ex'), ['pdf-extract', 'spreadsheet', 'release-notes']);
    assert.deepEqual(names('e'), []);
  });

  it('finds words inside longer ones from four letters on', () => {
    assert.deepEqual(names('read'), ['spreadsheet']);
    assert.deepEqual(names('she'), []);
  });

  it('reaches the root of a word of seven letters or more, keeping at least five letters', () => {
    const records = [fakeRecord('print', 'Print documents.'), fakeRecord('prince', 'Royal prince.')];
    assert.deepEqual(
      findSkills(records, 'printer').map((match) => match.record.name),
      ['print'],
    );
    assert.deepEqual(
      findSkills([fakeRecord('stats', 'Statistically significantly.')], 'significance').map((match) => match.record.name),
      ['stats'],
    );
  });

  it('tolerates one typo below eight letters and two from eight on', () => {
    assert.deepEqual(names('eviewr'), []);
    assert.deepEqual(names('dcumenta'), ['pdf-extract']);
  });

  it('finds every word one typo away, whatever else shares its letters', () => {
    const records = [fakeRecord('cart', 'Cart.'), fakeRecord('card', 'Card.'), fakeRecord('car', 'Car.')];
    assert.deepEqual(
      findSkills(records, 'carx').map((match) => match.record.name),
      ['car', 'card', 'cart'],
    );
  });

  it('does not look up typos of a stem shorter than four letters', () => {
    assert.deepEqual(findSkills([fakeRecord('ruins', 'Explore ancient ruins.')], 'runs'), []);
  });

  it('matches a name written as one word only whole, never by a typo', () => {
    assert.deepEqual(findSkills([fakeRecord('pdf-forms', 'Fill in.')], 'pdfformx'), []);
  });

  it('finds nothing for a word no skill holds, even for skills without metadata', () => {
    const broken = fakeRecord('broken', 'x', { status: 'invalid', metadata: undefined });
    assert.deepEqual(findSkills([...skills, broken], 'here'), []);
    assert.deepEqual(
      findSkills([...skills, broken], 'broken').map((match) => match.record),
      [broken],
    );
  });
});

describe('SkillSearchIndex updates', () => {
  const records = [
    fakeRecord('paypal', 'Send money.'),
    fakeRecord('pay-slips', 'Print pay slips and charts.'),
    fakeRecord('chart-maker', 'Draw charts.'),
    fakeRecord('card', 'Card.'),
    fakeRecord('cart', 'Cart.'),
  ];

  it('scores after removals exactly as an index built from the remaining skills', () => {
    const index = new SkillSearchIndex();
    index.sync(records);
    index.remove(records[0]);
    index.remove(records[2]);
    index.remove(records[3]);
    const fresh = new SkillSearchIndex();
    fresh.sync([records[1], records[4]]);
    for (const query of ['pay pal', 'chart', 'carx', 'print', 'slip']) {
      assert.deepEqual(index.search(query), fresh.search(query), query);
    }
  });

  it('scores after each change as a fresh index, also when the words were searched before it', () => {
    const queries = ['pay pal', 'chart', 'carx', 'print', 'slip', 'cart'];
    const index = new SkillSearchIndex();
    const steps: [() => void, SkillRecord[]][] = [
      [() => index.sync(records.slice(0, 3)), records.slice(0, 3)],
      [() => index.add(records[3]), records.slice(0, 4)],
      [() => index.remove(records[0]), records.slice(1, 4)],
      [() => index.add(records[4]), records.slice(1, 5)],
      [() => index.add(records[0]), [...records.slice(1, 5), records[0]]],
    ];
    for (const [change, held] of steps) {
      queries.forEach((query) => index.search(query));
      change();
      const fresh = new SkillSearchIndex();
      fresh.sync(held);
      for (const query of queries) {
        assert.deepEqual(index.search(query), fresh.search(query), query);
      }
    }
  });

  it('finds a word inside the longer words of skills added after a search, and no longer once they go', () => {
    const index = new SkillSearchIndex();
    const spreadsheet = fakeRecord('spreadsheet', 'Edit workbooks.');
    const zipper = fakeRecord('zipper', 'Pack files.');
    index.sync([fakeRecord('sheets', 'Edit sheets.')]);
    assert.deepEqual(index.search('read'), []);
    index.add(spreadsheet);
    index.add(zipper);
    assert.deepEqual(
      index.search('read').map((match) => match.record.name),
      ['spreadsheet'],
    );
    assert.deepEqual(
      index.search('ippe').map((match) => match.record.name),
      ['zipper'],
      'the last word of the vocabulary',
    );
    index.remove(spreadsheet);
    assert.deepEqual(index.search('read'), []);
  });

  it('ranks the first few exactly as search orders them all, and counts them all', () => {
    const twins = [
      fakeRecord('notes', 'Take meeting notes.', { dir: '/one/notes' }),
      fakeRecord('notes-b', 'Take meeting notes.'),
      fakeRecord('notes', 'Take meeting notes.', { dir: '/two/notes' }),
      fakeRecord('notes-a', 'Take meeting notes.'),
      fakeRecord('meeting-notes', 'Notes of a meeting, taken.'),
      fakeRecord('agenda', 'Plan a meeting.'),
    ];
    const index = new SkillSearchIndex();
    index.sync(twins);
    for (const query of ['meeting', 'notes', 'meeting notes', 'plan']) {
      const all = index.search(query);
      for (const limit of [0, 1, 2, 3, all.length, all.length + 5]) {
        assert.deepEqual(index.rank(query, limit), { best: all.slice(0, limit), total: all.length }, `${query}, ${limit}`);
      }
      assert.deepEqual(index.search(query, { limit: 2 }), all.slice(0, 2));
    }
    assert.deepEqual(index.rank('zebra', 5), { best: [], total: 0 });
  });

  it('indexes again only the records that changed', () => {
    let reads = 0;
    const counted = fakeRecord('chart-maker', 'Draw charts.');
    const { metadata } = counted;
    Object.defineProperty(counted, 'metadata', {
      get: () => {
        reads++;
        return metadata;
      },
    });
    const index = new SkillSearchIndex();
    index.sync([counted, records[0]]);
    const afterFirstSync = reads;
    assert.ok(afterFirstSync > 0);
    index.sync([records[1], counted]);
    assert.equal(reads, afterFirstSync);
    assert.deepEqual(
      index.search('chart').map((match) => match.record),
      [counted, records[1]],
    );
  });

  it('ignores the removal of a skill it does not hold', () => {
    const index = new SkillSearchIndex();
    index.sync(records.slice(1));
    index.remove(records[0]);
    assert.equal(index.size, 4);
    assert.equal(index.search('pay')[0].record.name, 'pay-slips');
  });
});
