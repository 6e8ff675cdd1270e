// Texts from the host listings and profiles: summaries, cuts, Show Budget, the table of docs/targets.md.

import * as assert from 'node:assert/strict';
import { targetListing } from '../../../../src/core/targets/budget';
import { targetProfile } from '../../../../src/core/targets/profiles';
import { describeCuts, describeListing, listingLines, renderBudgetMarkdown, renderTargetTable } from '../../../../src/core/targets/report';
import { fakeRecord } from '../../../fixtures/trees/tree';

describe('host reports', function () {
  const records = Array.from({ length: 12 }, (_, index) => fakeRecord(`skill-${index}`, 'd'.repeat(900)));

  it('sum up a listing and name what it cuts', function () {
    const listing = targetListing(records, targetProfile('claude-code')!, 200_000);
    assert.equal(describeListing(listing), 'Claude Code at a 200,000-token context: budget 8,000 characters, 7,314 used; 8 in full, 4 by name only.');
    assert.equal(describeCuts(listing), 'By name only: skill-8, skill-9, skill-10, skill-11.');
    assert.deepEqual(listingLines(listing).slice(7), [`skill-7: ${'d'.repeat(900)}`, 'skill-8', 'skill-9', 'skill-10', 'skill-11']);
    assert.equal(describeListing(targetListing(records, targetProfile('gemini-cli')!)), 'Gemini CLI at a 200,000-token context lists every skill in full: 12 in full (10,922 characters).');
    assert.match(
      describeListing(targetListing(records, targetProfile('vscode')!)),
      /^VS Code at a 200,000-token context documents no budget for its list of skills, so all are assumed listed: 12 in full/,
    );
  });

  it('render Show Budget as a table per target with each skill and its cost', function () {
    const markdown = renderBudgetMarkdown([targetListing(records, targetProfile('codex')!, 100_000), targetListing(records, targetProfile('vscode')!, 100_000)], 100_000);
    assert.match(markdown, /^# Skills: budget per target\n/);
    assert.match(markdown, /## Codex\n\nCodex at a 100,000-token context: budget 8,000 characters/);
    assert.match(markdown, /\| `skill-0` \| shortened to 656 characters \| 666 \|/);
    assert.match(markdown, /## VS Code\n[\s\S]*\| `skill-11` \| in full \| 911 \|/);
    assert.match(markdown, /Source: none found/);
    assert.match(renderBudgetMarkdown([], 200_000), /No targets/);
    assert.match(
      renderBudgetMarkdown([], 200_000),
      /estimates\)\. Targets come from `agentSkills\.targets`\.\n\nNo targets: set `agentSkills\.targets` \(for example `\["vscode", "claude-code", "codex"\]`\)\.\n$/,
    );
    assert.doesNotMatch(renderBudgetMarkdown([targetListing(records, targetProfile('codex')!, 100_000)], 100_000), /decides the order/);
  });

  it('say which hosts to add when no target documents a budget', function () {
    const hint =
      'None of these targets documents a budget for its list of skills, so this report cannot show what a budget cuts. Add a target that documents one to `agentSkills.targets` to see it: Claude Code (`claude-code`) or Codex (`codex`).';
    const undocumented = renderBudgetMarkdown([targetListing(records, targetProfile('vscode')!, 100_000), targetListing(records, targetProfile('cursor')!, 100_000)], 100_000);
    assert.ok(undocumented.includes(`Targets come from \`agentSkills.targets\`.\n\n${hint}\n\n## VS Code\n`), undocumented);
    assert.ok(renderBudgetMarkdown([targetListing(records, targetProfile('gemini-cli')!, 100_000)], 100_000).includes(hint), 'a host that lists every skill cuts nothing either');
    assert.ok(!renderBudgetMarkdown([targetListing(records, targetProfile('vscode')!, 100_000), targetListing(records, targetProfile('codex')!, 100_000)], 100_000).includes('None of these targets'));
    assert.ok(!renderBudgetMarkdown([], 100_000).includes('None of these targets'));
  });

  it('list every host in the table with its folders and sources', function () {
    const table = renderTargetTable();
    for (const id of ['vscode', 'copilot-cli', 'claude-code', 'codex', 'gemini-cli', 'cursor', 'opencode']) {
      assert.match(table, new RegExp(`\\(\`${id}\`\\)`));
    }
    assert.match(
      table,
      /\| Codex \(`codex`\) \| `\.agents\/skills`; `~\/\.agents\/skills`, `~\/\.codex\/skills` \| `name`, `description`, `metadata`; others ignored \| name ≤ 64, description ≤ 1,024 \(rejected past them\) \| 2 % of the context window/,
    );
    assert.match(table, /Sources \(checked 2026-11-26\): VS Code: <https:\/\/github.com\/microsoft\/vscode\/tree\/1.139.1>/);
  });

  it('render Show Budget whole: each rule, its source, the order note, and a row per skill', function () {
    const skills = [fakeRecord('alpha', 'd'.repeat(2000)), fakeRecord('beta', 'Beta.'), fakeRecord('manual', 'By hand.', { disableModelInvocation: true })];
    const markdown = renderBudgetMarkdown(
      [targetListing(skills, targetProfile('claude-code')!, 1000), targetListing(skills, targetProfile('gemini-cli')!, 1000), targetListing([], targetProfile('vscode')!, 1000)],
      1000,
    );
    assert.equal(
      markdown,
      "# Skills: budget per target\n\nWhat each target lists of this project's skills at a 1,000-token context, from its documented rule (about four characters per token; targets differ in markup, so costs are estimates). Targets come from `agentSkills.targets`.\n\n## Claude Code\n\nClaude Code at a 1,000-token context: budget 40 characters, 18 used; 1 in full, 1 by name only, 1 not offered to the model (disable-model-invocation).\n\nBudget rule: 1 % of the context window (8,000 characters when the window is unknown), at most 1,536 characters per description; past it skills are listed by name only. Source: <https://claudefa.st/blog/guide/mechanics/skill-listing-budget> (settings skillListingBudgetFraction and skillListingMaxDescChars of Claude Code 2.1.129) (checked 2026-11-26).\n\nClaude Code decides the order itself (the skills used most keep their descriptions); this table takes the skills in this project's order.\n\n| skill | listed | characters |\n| --- | --- | ---: |\n| `alpha` | by name only | 6 |\n| `beta` | in full | 12 |\n| `manual` | not offered to the model (disable-model-invocation) | 0 |\n\n## Gemini CLI\n\nGemini CLI at a 1,000-token context lists every skill in full: 3 in full (2,037 characters).\n\nBudget rule: none: every skill is listed in full. Source: <https://raw.githubusercontent.com/google-gemini/gemini-cli/main/docs/cli/skills.md> (checked 2026-11-26).\n\n| skill | listed | characters |\n| --- | --- | ---: |\n| `alpha` | in full | 2,008 |\n| `beta` | in full | 12 |\n| `manual` | in full | 17 |\n\n## VS Code\n\nVS Code at a 1,000-token context documents no budget for its list of skills, so all are assumed listed: no skills (0 characters).\n\nBudget rule: not documented. Source: none found (checked 2026-11-26).\n",
    );
    assert.match(renderBudgetMarkdown([targetListing(skills, targetProfile('codex')!, 1000)], 1000), /\| `alpha` \| shortened to 43 characters \| 51 \|/);
  });

  it('say when a listing has no skills, and name every cut kind', function () {
    assert.equal(describeListing(targetListing([], targetProfile('codex')!, 1000)), 'Codex at a 1,000-token context: budget 80 characters, 0 used; no skills.');
    const skills = Array.from({ length: 30 }, (_, index) => fakeRecord(`skill-${index}`, 'd'.repeat(100)));
    assert.equal(
      describeCuts(targetListing(skills, targetProfile('codex')!, 100)),
      `By name only: skill-0. Not listed: ${skills
        .slice(1)
        .map((skill) => skill.name)
        .join(', ')}.`,
    );
    assert.equal(describeCuts(targetListing(skills.slice(0, 2), targetProfile('codex')!, 1000)), 'Shortened: skill-0, skill-1.');
    assert.equal(describeCuts(targetListing(skills.slice(0, 2), targetProfile('codex')!, 200_000)), '');
    const manual = fakeRecord('manual', 'By hand.', { disableModelInvocation: true });
    assert.deepEqual(listingLines(targetListing(skills.slice(0, 3), targetProfile('codex')!, 100)), ['skill-0']);
    assert.deepEqual(listingLines(targetListing([skills[0], manual], targetProfile('claude-code')!)), [`skill-0: ${'d'.repeat(100)}`]);
  });
});
