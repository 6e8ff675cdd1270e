import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { REPORTED_BY_VSCODE_SKILLS } from '../../../../src/core/skill-file/diagnostic-codes';
import { validateSkillText } from '../../../../src/core/skill-file/load';
import { fixtureSkill } from '../../../fixtures/skills/temp-skills';

describe('REPORTED_BY_VSCODE_SKILLS', () => {
  it('holds the problems VS Code reports itself: a name that breaks the rules or its folder, and a missing link', () => {
    const file = path.join(fixtureSkill('valid'), 'SKILL.md');
    const text = '---\nname: Bad_Name\ndescription: Does one thing.\n---\nSee [the guide](references/gone.md).\n';
    const codes = validateSkillText(text, file, { checkBody: true }).diagnostics.map((diagnostic) => diagnostic.code);
    assert.deepEqual(new Set(codes), REPORTED_BY_VSCODE_SKILLS);
  });
});
