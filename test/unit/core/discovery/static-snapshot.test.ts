import * as assert from 'node:assert/strict';
import type { RegistrySnapshot } from '../../../../src/core/discovery/registry';
import { staticSnapshot } from '../../../../src/core/discovery/static-snapshot';
import { fakeRecord } from '../../../fixtures/trees/tree';

describe('staticSnapshot', () => {
  const pdf = fakeRecord('pdf', 'Fill in PDF forms.', { status: 'active' });
  const charts = fakeRecord('charts', 'Draw charts from tables.');
  const hidden = fakeRecord('release', 'Cut a release of the charts package.', { disableModelInvocation: true });
  const shadowed = fakeRecord('pdf', 'An older PDF skill.', { dir: '/user/pdf', file: '/user/pdf/SKILL.md', status: 'shadowed', shadowedBy: pdf.file });
  const broken = fakeRecord('broken', 'Broken charts.', { status: 'invalid' });
  let snapshot: RegistrySnapshot;
  beforeEach(() => {
    snapshot = staticSnapshot([pdf, charts, hidden, shadowed, broken]);
  });

  it('holds the records it was given, no problems, and the names of the active ones', () => {
    assert.equal(snapshot.version, 1);
    assert.deepEqual(snapshot.skills, [pdf, charts, hidden, shadowed, broken]);
    assert.deepEqual(snapshot.problems, []);
    assert.deepEqual([...snapshot.activeNames], ['pdf']);
  });

  it('gives the usable record of a name, and every record of it', () => {
    assert.equal(snapshot.usable('pdf'), pdf);
    assert.equal(snapshot.usable('charts'), charts);
    assert.equal(snapshot.usable('broken'), undefined);
    assert.equal(snapshot.usable('missing'), undefined);
    assert.deepEqual(snapshot.byName('pdf'), [pdf, shadowed]);
    assert.deepEqual(snapshot.byName('missing'), []);
  });

  it('finds and ranks only the skills the model may invoke, each search alike', () => {
    const names = (query: string): string[] => snapshot.findSkills(query).map((match) => match.record.name);
    assert.deepEqual(names('charts'), ['charts']);
    assert.deepEqual(names('charts'), ['charts']);
    assert.deepEqual(names('pdf forms'), ['pdf']);
    assert.deepEqual(
      snapshot.findSkills('charts pdf', { limit: 1 }).map((match) => match.record.name),
      [snapshot.rankSkills('charts pdf', 1).best[0].record.name],
    );
    const ranked = snapshot.rankSkills('charts pdf', 1);
    assert.equal(ranked.best.length, 1);
    assert.equal(ranked.total, 2);
  });

  it('answers from the records it was made with, whatever becomes of the array they came in', () => {
    const records = [charts];
    const own = staticSnapshot(records);
    records.push(pdf);
    assert.deepEqual(own.skills, [charts]);
    assert.deepEqual(
      own.findSkills('pdf charts').map((match) => match.record.name),
      ['charts'],
    );
  });
});
