// Per-host warnings about one skill: the folder, the fields, the list budget, each naming the host.

import * as assert from 'node:assert/strict';
import { hostListings } from '../../../../src/core/hosts/budget';
import { checkSkillForHosts, fieldKeyRanges, hostLocationOf } from '../../../../src/core/hosts/checks';
import { hostProfile, type HostProfile } from '../../../../src/core/hosts/profiles';
import type { SkillRecord } from '../../../../src/core/model/types';
import { fakeRecord } from '../../../fixtures/trees/tree';

const hosts = (...ids: string[]): HostProfile[] => ids.map((id) => hostProfile(id)!);

function inLocation(record: SkillRecord, location: string): SkillRecord {
  return { ...record, root: { path: `/repo/${location}`, kind: 'workspace', label: 'repo', folder: 'repo', location } };
}

function messages(records: SkillRecord[], targets: HostProfile[], record = records[0], tokens = 200_000): string[] {
  return checkSkillForHosts(record, { targets, listings: hostListings(records, targets, tokens), homeDir: '/home/me' }).map((diagnostic) => `${diagnostic.host}: ${diagnostic.message}`);
}

describe('host checks', function () {
  it('name the folder a skill sits in as hosts name theirs', function () {
    const record = fakeRecord('a', 'A.');
    assert.equal(hostLocationOf(inLocation(record, '.agent/skills/')), '.agent/skills');
    assert.equal(hostLocationOf({ root: { path: '/home/me/.claude/skills', kind: 'user', label: 'User' } }, '/home/me'), '~/.claude/skills');
    assert.equal(hostLocationOf({ root: { path: '/work/repo/.github/skills', kind: 'env', label: 'x' } }, '/home/me'), '.github/skills');
    assert.equal(hostLocationOf({ root: { path: '/work/skills', kind: 'env', label: 'x' } }, '/home/me'), undefined);
    assert.equal(hostLocationOf({ root: { path: '/ext/skills', kind: 'builtin', label: 'Built-in' } }, '/home/me'), undefined);
  });

  it('warn that a host does not read the folder, naming the folders it does read', function () {
    const record = inLocation(fakeRecord('a', 'A.'), '.agent/skills');
    assert.deepEqual(messages([record], hosts('claude-code', 'copilot-cli')), [
      'claude-code: Claude Code reads `.claude/skills`, not `.agent/skills`: this skill is invisible there.',
      'copilot-cli: Copilot CLI reads `.github/skills`, `.claude/skills` or `.agents/skills`, not `.agent/skills`: this skill is invisible there.',
    ]);
    assert.deepEqual(messages([inLocation(fakeRecord('a', 'A.'), '.claude/skills')], hosts('claude-code', 'vscode', 'opencode')), []);
    // Inside VS Code this extension offers its own locations to VS Code's chat: nothing is hidden there.
    const ours = inLocation({ ...fakeRecord('a', 'A.'), metadata: { ...fakeRecord('a', 'A.').metadata!, model: 'fast' } }, '.agent/skills');
    const targets = hosts('vscode');
    assert.equal(checkSkillForHosts(ours, { targets, listings: hostListings([ours], targets), servedInVsCode: true }).length, 0);
    assert.equal(checkSkillForHosts(ours, { targets, listings: hostListings([ours], targets) }).length, 1);
    const user = { ...fakeRecord('a', 'A.'), root: { path: '/home/me/.agent/skills', kind: 'user' as const, label: 'User' } };
    assert.deepEqual(messages([user], hosts('codex')), ['codex: Codex reads `~/.agents/skills` or `~/.codex/skills`, not `~/.agent/skills`: this skill is invisible there.']);
  });

  it('warn about fields a host is known to ignore, with the value written, and only there', function () {
    const base = inLocation(fakeRecord('a', 'A.'), '.agents/skills');
    const record = { ...base, metadata: { ...base.metadata!, context: 'fork' as const, model: 'fast', disableModelInvocation: true } };
    assert.deepEqual(messages([record], hosts('codex', 'copilot-cli', 'vscode')), [
      'codex: Codex ignores `context: fork`.',
      'codex: Codex ignores `model: fast`.',
      'codex: Codex ignores `disable-model-invocation: true`.',
      // VS Code honours context and disable-model-invocation, and skips model (with a hint of its own).
      'vscode: VS Code ignores `model: fast`.',
    ]);
  });

  it('warn where the host list cuts the skill at the chosen context size, counting the project skills', function () {
    const records = Array.from({ length: 180 }, (_, index) => inLocation(fakeRecord(`skill-${index}`, 'd'.repeat(400)), '.agents/skills'));
    assert.deepEqual(messages(records, hosts('codex'), records[0]), ["codex: With this project's 180 skills, Codex lists this one with a shortened description at a 200,000-token context."]);
    assert.deepEqual(messages(records, hosts('codex'), records[0], 20_000), ["codex: With this project's 180 skills, Codex lists this one by name only at a 20,000-token context."]);
    assert.deepEqual(messages(records, hosts('codex'), records[179], 20_000), ["codex: With this project's 180 skills, Codex lists this one not at all at a 20,000-token context."]);
    assert.deepEqual(messages(records, hosts('codex'), records[0], 2_000_000), []);
  });

  it('place each warning on the key it is about', function () {
    const text = '---\nname: a\ndescription: A.\ncontext: fork\n---\nBody\n';
    const ranges = fieldKeyRanges(text);
    assert.deepEqual(ranges('context'), { start: { line: 3, column: 0 }, end: { line: 3, column: 7 } });
    assert.equal(ranges('model'), undefined);
    assert.equal(fieldKeyRanges('no frontmatter')('name'), undefined);
  });
});
