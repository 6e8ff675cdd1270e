// Each host's list of a project's skills at a context size: full, shortened, by name only, left
// out, or not offered to the model, with what each costs.

import * as assert from 'node:assert/strict';
import { budgetChars, countByState, targetListing, targetListings, type TargetListing } from '../../../../src/core/targets/budget';
import { targetProfile } from '../../../../src/core/targets/profiles';
import { fakeRecord } from '../../../fixtures/trees/tree';

const description = (length: number, letter = 'd'): string => letter.repeat(length);

function states(listing: TargetListing): string[] {
  return listing.skills.map((skill) => `${skill.name}:${skill.state}:${skill.descriptionChars}`);
}

describe('host listings', function () {
  const claude = targetProfile('claude-code')!;
  const codex = targetProfile('codex')!;
  const gemini = targetProfile('gemini-cli')!;

  it('take the budget as a share of the context window, about four characters a token, or the fallback without one', function () {
    assert.equal(budgetChars(claude.budget.value, 200_000), 8000);
    assert.equal(budgetChars(codex.budget.value, 200_000), 16_000);
    assert.equal(budgetChars(codex.budget.value, 0), 8000);
    assert.equal(budgetChars(gemini.budget.value, 200_000), undefined);
  });

  it('list everything in full when it fits, each entry costing its name, description and separators', function () {
    const listing = targetListing([fakeRecord('alpha', 'Does alpha.'), fakeRecord('beta', 'Does beta.')], codex);
    assert.deepEqual(states(listing), ['alpha:full:11', 'beta:full:10']);
    assert.deepEqual(
      listing.skills.map((skill) => skill.chars),
      ['alpha: Does alpha.\n'.length, 'beta: Does beta.\n'.length],
    );
    assert.equal(listing.usedChars, 36);
  });

  it('Claude Code: cut each description to 1,536 characters, then list the skills past the budget by name only', function () {
    const records = [fakeRecord('long', description(2000)), ...Array.from({ length: 8 }, (_, index) => fakeRecord(`s${index}`, description(1000)))];
    const listing = targetListing(records, claude, 200_000);
    assert.equal(listing.skills[0].state, 'shortened');
    assert.equal(listing.skills[0].descriptionChars, 1536);
    assert.equal(listing.skills[0].description.length, 1536);
    const counts = countByState(listing);
    assert.deepEqual(counts, { full: 6, shortened: 1, 'name-only': 2, dropped: 0, 'user-only': 0 });
    assert.ok(listing.usedChars <= 8000, String(listing.usedChars));
    // The skills kept in full are the first ones.
    assert.deepEqual(
      listing.skills.filter((skill) => skill.state === 'name-only').map((skill) => skill.name),
      ['s6', 's7'],
    );
  });

  it('Codex: shorten every description to one length first, then list by name only, then leave skills out from the end', function () {
    const few = Array.from({ length: 20 }, (_, index) => fakeRecord(`skill-${index}`, description(1000)));
    const shortened = targetListing(few, codex, 200_000);
    assert.ok(shortened.skills.every((skill) => skill.state === 'shortened'));
    const cap = shortened.skills[0].descriptionChars;
    assert.ok(shortened.skills.every((skill) => skill.descriptionChars === cap));
    assert.ok(shortened.usedChars <= 16_000 && shortened.usedChars > 16_000 - 20, String(shortened.usedChars));

    const many = Array.from({ length: 1200 }, (_, index) => fakeRecord(`skill-number-${index}`, description(100)));
    const cut = targetListing(many, codex, 100_000);
    const counts = countByState(cut);
    assert.ok(counts['name-only'] > 0 && counts.dropped > 0, JSON.stringify(counts));
    assert.equal(counts['name-only'] + counts.dropped, 1200);
    assert.equal(cut.skills[0].state, 'name-only');
    assert.equal(cut.skills[1199].state, 'dropped');
    assert.ok(cut.usedChars <= 8000);
  });

  it('leave out skills the model may not invoke where the host honours disable-model-invocation, and unusable ones everywhere', function () {
    const records = [fakeRecord('manual', 'By hand only.', { disableModelInvocation: true }), fakeRecord('broken', 'x', { status: 'invalid' }), fakeRecord('fine', 'Fine.')];
    assert.deepEqual(states(targetListing(records, claude)), ['manual:user-only:0', 'fine:full:5']);
    assert.deepEqual(states(targetListing(records, gemini)), ['manual:full:13', 'fine:full:5']);
  });

  it('cut a description only past the host limit, on one line, and skip skills without metadata', function () {
    const records = [fakeRecord('at', description(1536)), fakeRecord('over', description(1537)), fakeRecord('lines', 'One\n   two\tthree.'), { ...fakeRecord('bare', 'x'), metadata: undefined }];
    const listing = targetListing(records, claude, 2_000_000);
    assert.deepEqual(states(listing), ['at:full:1536', 'over:shortened:1536', 'lines:full:14']);
    assert.equal(listing.skills[2].description, 'One two three.');
    assert.equal(listing.budgetChars, 80_000);
    assert.equal(targetListing(records, gemini).budgetChars, undefined);
    assert.equal('budgetChars' in targetListing(records, gemini), false);
  });

  it('Claude Code: keep descriptions while they and the names after them fit, to the last character', function () {
    const records = [fakeRecord('a', description(10)), fakeRecord('b', description(10))];
    // Each entry costs 14 characters in full, 2 by name; the budget is 4 characters per 100 tokens.
    assert.deepEqual(states(targetListing(records, claude, 700)), ['a:full:10', 'b:full:10']);
    assert.equal(targetListing(records, claude, 700).usedChars, 28);
    assert.deepEqual(states(targetListing(records, claude, 675)), ['a:full:10', 'b:name-only:0']);
    assert.equal(targetListing(records, claude, 675).usedChars, 16);
    assert.deepEqual(states(targetListing(records, claude, 450)), ['a:full:10', 'b:name-only:0']);
    assert.deepEqual(states(targetListing(records, claude, 375)), ['a:name-only:0', 'b:name-only:0']);
    // A description is kept only if the names of all the skills after it still fit.
    const three = [...records, fakeRecord('c', description(10))];
    assert.deepEqual(states(targetListing(three, claude, 425)), ['a:name-only:0', 'b:name-only:0', 'c:name-only:0']);
    assert.deepEqual(states(targetListing(three, claude, 450)), ['a:full:10', 'b:name-only:0', 'c:name-only:0']);
  });

  it('Codex: the longest common description length that fits, then names only, then skills left out from the end', function () {
    const records = [fakeRecord('a', description(10)), fakeRecord('b', description(20))];
    // 8 characters per 100 tokens; in full the two cost 14 + 24.
    const at = (tokens: number): string[] => states(targetListing(records, codex, tokens));
    assert.deepEqual(at(475), ['a:full:10', 'b:full:20']);
    assert.deepEqual(at(463), ['a:full:10', 'b:shortened:19']);
    assert.deepEqual(at(400), ['a:full:10', 'b:shortened:14']);
    assert.deepEqual(at(300), ['a:shortened:8', 'b:shortened:8']);
    // A description exactly at the common length stays in full.
    assert.deepEqual(at(350), ['a:full:10', 'b:shortened:10']);
    assert.deepEqual(at(125), ['a:shortened:1', 'b:shortened:1']);
    assert.deepEqual(at(100), ['a:name-only:0', 'b:name-only:0']);
    assert.deepEqual(at(50), ['a:name-only:0', 'b:name-only:0']);
    assert.deepEqual(at(40), ['a:name-only:0', 'b:dropped:0']);
    assert.equal(targetListing(records, codex, 40).usedChars, 2);
    assert.deepEqual(at(20), ['a:dropped:0', 'b:dropped:0']);
    assert.equal(targetListing(records, codex, 20).usedChars, 0);
    assert.deepEqual(
      targetListing(records, codex, 300).skills.map((skill) => skill.description),
      [description(8), description(8)],
    );
  });

  it('Codex: once a skill is left out, the later ones are too, even when a shorter name would fit', function () {
    const records = [fakeRecord('aaaa', 'x'), fakeRecord('b', 'y')];
    // Budget 4: "aaaa" by name costs 5 and does not fit; "b" (2) would, but the list has ended.
    assert.deepEqual(states(targetListing(records, codex, 50)), ['aaaa:dropped:0', 'b:dropped:0']);
  });

  it('list a record again with the description it holds now, on one line', function () {
    const record = fakeRecord('alpha', 'Does\n  alpha.');
    assert.equal(targetListing([record], codex).skills[0].description, 'Does alpha.');
    assert.equal(targetListing([record], codex).skills[0].description, 'Does alpha.');
    // A record whose description was replaced in place is not listed with the one it had before.
    const rewritten = Object.assign(record, { metadata: { ...record.metadata!, description: 'Now  does\tbeta.' } });
    assert.equal(targetListing([rewritten], codex).skills[0].description, 'Now does beta.');
  });

  it('count the states of a listing, and list each target', function () {
    const listings = targetListings([fakeRecord('a', 'A.')], [claude, codex], 1000);
    assert.deepEqual([...listings.keys()], ['claude-code', 'codex']);
    assert.equal(listings.get('codex')?.contextTokens, 1000);
    assert.equal(targetListings([], [claude]).get('claude-code')?.contextTokens, 200_000);
  });
});
