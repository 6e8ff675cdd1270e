import * as assert from 'node:assert/strict';
import { firstError, leadingProblem } from '../../../../src/core/model/status';
import type { SkillDiagnostic } from '../../../../src/core/model/types';
import { fakeRecord } from '../../../fixtures/trees/tree';

const at = { start: { line: 0, column: 0 }, end: { line: 0, column: 0 } };
const warning: SkillDiagnostic = { code: 'unknown-field', severity: 'warning', message: 'A warning.', file: '/skills/pdf/SKILL.md', range: at };
const error: SkillDiagnostic = { code: 'missing-description', severity: 'error', message: 'An error.', file: '/skills/pdf/SKILL.md', range: at };

describe('firstError and leadingProblem', () => {
  it('take the first error, even after a warning', () => {
    const record = fakeRecord('pdf', 'Fills forms.', { diagnostics: [warning, error] });
    assert.equal(firstError(record), error);
    assert.equal(leadingProblem(record), error);
  });

  it('fall back to the first diagnostic only for the leading problem', () => {
    const record = fakeRecord('pdf', 'Fills forms.', { diagnostics: [warning] });
    assert.equal(firstError(record), undefined);
    assert.equal(leadingProblem(record), warning);
    assert.equal(leadingProblem(fakeRecord('pdf', 'Fills forms.')), undefined);
  });
});
