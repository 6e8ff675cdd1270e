// The host profiles: every host the product targets, every fact with its source and date, and the
// parsing of --target values.

import * as assert from 'node:assert/strict';
import { defaultTargetIds, TARGET_IDS, TARGET_PROFILES, targetIgnores, targetProfile, targetsHonouring, parseTargetIds } from '../../../../src/core/targets/profiles';

describe('host profiles', function () {
  it('cover the seven hosts, each fact with a source link and the date it was checked', function () {
    assert.deepEqual(
      TARGET_PROFILES.map((host) => host.id),
      ['vscode', 'copilot-cli', 'claude-code', 'codex', 'gemini-cli', 'cursor', 'opencode'],
    );
    for (const host of TARGET_PROFILES) {
      for (const fact of [host.projectFolders, host.userFolders, host.fields, host.limits, host.budget, host.invocation]) {
        assert.match(fact.source, /^https:\/\//, `${host.id}: ${fact.source}`);
        assert.match(fact.checked, /^\d{4}-\d{2}-\d{2}$/);
      }
      assert.ok(host.projectFolders.value.every((folder) => !folder.startsWith('~')));
      assert.ok(host.userFolders.value.every((folder) => folder.startsWith('~/')));
    }
  });

  it('record the documented budgets of Claude Code and Codex', function () {
    assert.deepEqual(targetProfile('claude-code')?.budget.value, {
      kind: 'share',
      contextPercent: 1,
      fallbackChars: 8000,
      descriptionChars: 1536,
      overflow: 'name-only',
      order: 'the skills used most keep their descriptions',
    });
    assert.deepEqual(targetProfile('codex')?.budget.value, { kind: 'share', contextPercent: 2, fallbackChars: 8000, overflow: 'shorten-then-omit' });
    assert.equal(targetProfile('vscode')?.budget.value.kind, 'unknown');
  });

  it('say which hosts honour a field, and ignore one only where the host says what it does with the rest', function () {
    assert.deepEqual(
      targetsHonouring('allowed-tools').map((host) => host.id),
      ['claude-code'],
    );
    assert.equal(targetIgnores(targetProfile('codex')!, 'context'), true);
    assert.equal(targetIgnores(targetProfile('vscode')!, 'context'), false);
    // Copilot CLI documents no rule for other fields: nothing is claimed about them.
    assert.equal(targetIgnores(targetProfile('copilot-cli')!, 'context'), false);
  });

  it('by default check VS Code, plus the hosts whose own folder holds skills in the project, not those of folders shared with VS Code', function () {
    const project = (...folders: string[]) => defaultTargetIds((relative) => folders.includes(relative));
    assert.deepEqual(project(), ['vscode']);
    // VS Code's chat reads both: they show VS Code in use, not Copilot CLI, Codex, Gemini CLI or OpenCode.
    assert.deepEqual(project('.github/skills', '.agents/skills'), ['vscode']);
    // Cursor and OpenCode read .claude/skills too, but the folder is Claude Code's.
    assert.deepEqual(project('.claude/skills'), ['vscode', 'claude-code']);
    assert.deepEqual(project('.opencode/skills', '.cursor/skills', '.gemini/skills'), ['vscode', 'gemini-cli', 'cursor', 'opencode']);
    // A host's own folder without a skills folder it reads shows nothing.
    assert.deepEqual(project('.codex/skills'), ['vscode']);
  });

  it('parse repeated and comma-separated ids once each, and name the unknown ones', function () {
    assert.deepEqual(parseTargetIds(['codex,cursor', 'vscode', ' codex ', '']), { ids: ['codex', 'cursor', 'vscode'], unknown: [] });
    assert.deepEqual(parseTargetIds(['claude', 'codex']), { ids: ['codex'], unknown: ['claude'] });
    assert.equal(TARGET_IDS.length, TARGET_PROFILES.length);
  });
});
