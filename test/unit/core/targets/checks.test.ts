// Per-host warnings: a folder a host does not read, once for the project; a skill's fields and
// list budget; each naming the host.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { targetListings } from '../../../../src/core/targets/budget';
import { checkSkillForTargets, diskFieldRanges, fieldKeyRanges, targetFolderFindings, targetLocationOf } from '../../../../src/core/targets/checks';
import { targetProfile, type TargetProfile } from '../../../../src/core/targets/profiles';
import type { SkillRecord } from '../../../../src/core/model/types';
import { fakeRecord } from '../../../fixtures/trees/tree';

const hosts = (...ids: string[]): TargetProfile[] => ids.map((id) => targetProfile(id)!);

function inLocation(record: SkillRecord, location: string): SkillRecord {
  return { ...record, root: { path: `/repo/${location}`, kind: 'workspace', label: 'repo', folder: 'repo', location } };
}

function messages(records: SkillRecord[], targets: TargetProfile[], record = records[0], tokens = 200_000): string[] {
  return checkSkillForTargets(record, { targets, listings: targetListings(records, targets, tokens), homeDir: '/home/me' }).map((diagnostic) => `${diagnostic.host}: ${diagnostic.message}`);
}

describe('host checks', function () {
  it('name the folder a skill sits in as hosts name theirs', function () {
    const record = fakeRecord('a', 'A.');
    assert.equal(targetLocationOf(inLocation(record, '.agent/skills/')), '.agent/skills');
    assert.equal(targetLocationOf({ root: { path: '/home/me/.claude/skills', kind: 'user', label: 'User' } }, '/home/me'), '~/.claude/skills');
    assert.equal(targetLocationOf({ root: { path: '/work/repo/.github/skills', kind: 'env', label: 'x' } }, '/home/me'), '.github/skills');
    assert.equal(targetLocationOf({ root: { path: '/work/skills', kind: 'env', label: 'x' } }, '/home/me'), undefined);
    assert.equal(targetLocationOf({ root: { path: '/ext/skills', kind: 'builtin', label: 'Built-in' } }, '/home/me'), undefined);
  });

  /** `host folder (skills): message` of the project's folder findings. */
  function folderFindings(records: SkillRecord[], targets: TargetProfile[], servedInVsCode = false): string[] {
    return targetFolderFindings(records, { targets, homeDir: '/home/me', servedInVsCode }).map(
      (finding) => `${finding.host.id} ${finding.folder} (${finding.skills.map((skill) => skill.name).join(', ')}): ${finding.message}`,
    );
  }

  it('say once per host and folder that a host does not read it, naming the folders it does read, and nothing per skill', function () {
    const skills = ['a', 'b', 'c'].map((name) => inLocation(fakeRecord(name, 'A.'), '.agent/skills'));
    assert.deepEqual(folderFindings([...skills, inLocation(fakeRecord('d', 'D.'), '.claude/skills')], hosts('claude-code', 'copilot-cli')), [
      'claude-code /repo/.agent/skills (a, b, c): Claude Code reads `.claude/skills`, not `.agent/skills`: the 3 skills there are invisible to it.',
      'copilot-cli /repo/.agent/skills (a, b, c): Copilot CLI reads `.github/skills`, `.claude/skills` or `.agents/skills`, not `.agent/skills`: the 3 skills there are invisible to it.',
    ]);
    assert.deepEqual(messages(skills, hosts('claude-code', 'copilot-cli')), []);
    assert.deepEqual(folderFindings([inLocation(fakeRecord('a', 'A.'), '.claude/skills')], hosts('claude-code', 'vscode', 'opencode')), []);
    // Inside VS Code this extension offers its own locations to VS Code's chat: nothing is hidden there.
    assert.deepEqual(folderFindings(skills, hosts('vscode'), true), []);
    assert.equal(folderFindings(skills, hosts('vscode')).length, 1);
    const user = { ...fakeRecord('a', 'A.'), root: { path: '/home/me/.agent/skills', kind: 'user' as const, label: 'User' } };
    assert.deepEqual(folderFindings([user], hosts('codex')), [
      'codex /home/me/.agent/skills (a): Codex reads `~/.agents/skills` or `~/.codex/skills`, not `~/.agent/skills`: the skill there (a) is invisible to it.',
    ]);
    // A skill with an error is used by no host.
    assert.deepEqual(folderFindings([{ ...skills[0], metadata: undefined }], hosts('codex')), []);
  });

  it('warn about fields a host is known to ignore, with the value written, and only there', function () {
    const base = inLocation(fakeRecord('a', 'A.'), '.agents/skills');
    const record = { ...base, metadata: { ...base.metadata!, context: 'fork' as const, model: 'fast', disableModelInvocation: true } };
    assert.deepEqual(messages([record], hosts('codex', 'copilot-cli', 'vscode')), [
      // In the order of the frontmatter table (FRONTMATTER_FIELDS).
      'codex: Codex ignores `disable-model-invocation: true`.',
      'codex: Codex ignores `context: fork`.',
      'codex: Codex ignores `model: fast`.',
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

  it('read the key positions of a SKILL.md on disk again only when its record says it changed', function () {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-skills-ranges-'));
    try {
      const file = path.join(folder, 'SKILL.md');
      fs.writeFileSync(file, '---\nname: a\ndescription: A.\n---\n');
      const ranges = diskFieldRanges();
      assert.equal(ranges({ file, mtimeMs: 1 })('description')?.start.line, 2);
      fs.writeFileSync(file, '---\nname: a\nmodel: fast\ndescription: A.\n---\n');
      assert.equal(ranges({ file, mtimeMs: 1 })('description')?.start.line, 2, 'the same version: not read again');
      assert.equal(ranges({ file, mtimeMs: 2 })('description')?.start.line, 3);
      fs.rmSync(file);
      assert.equal(ranges({ file, mtimeMs: 3 })('description'), undefined, 'gone: on the opening fence');
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it('name no host folder for a server, a home folder itself, or a folder too short to be one', function () {
    assert.equal(targetLocationOf({ root: { path: '/cache/team', kind: 'server', label: 'team' } }, '/home/me'), undefined);
    assert.equal(targetLocationOf({ root: { path: '/cache/.agents/skills', kind: 'server', label: 'team' } }, '/home/me'), undefined);
    assert.equal(targetLocationOf({ root: { path: '/ext/.claude/skills', kind: 'builtin', label: 'Built-in' } }, '/home/me'), undefined);
    assert.equal(targetLocationOf({ root: { path: '/repo/custom', kind: 'workspace', label: 'repo', location: '.agents/skills' } }), '.agents/skills');
    assert.equal(targetLocationOf({ root: { path: '/repo/.github/skills', kind: 'env', label: 'x' } }), '.github/skills');
    assert.equal(targetLocationOf({ root: { path: '/.claude/skills', kind: 'env', label: 'x' } }), '.claude/skills');
    assert.equal(targetLocationOf({ root: { path: '/home/me', kind: 'user', label: 'User' } }, '/home/me'), undefined);
    assert.equal(targetLocationOf({ root: { path: '/.skills', kind: 'env', label: 'x' } }, '/home/me'), undefined);
    assert.equal(targetLocationOf({ root: { path: '/home/me/.claude/skills/', kind: 'env', label: 'x' } }), '.claude/skills');
    assert.equal(targetLocationOf({ root: { path: '/home/mine/.claude/skills', kind: 'user', label: 'x' } }, '/home/me'), '.claude/skills');
    assert.equal(targetLocationOf({ root: { path: '/repo/x/./.agents//skills', kind: 'workspace', label: 'x', location: './.agents//skills/' } }), '.agents/skills');
  });

  it('warn about each field that changes what a host does, as written, on its key', function () {
    const base = inLocation(fakeRecord('a', 'A.'), '.agents/skills');
    const record = { ...base, metadata: { ...base.metadata!, allowedTools: 'Read', argumentHint: '[file]', userInvocable: false } };
    const at = (line: number): { start: { line: number; column: number }; end: { line: number; column: number } } => ({ start: { line, column: 0 }, end: { line, column: 4 } });
    const lines: Record<string, number> = { name: 1, description: 2, 'allowed-tools': 3, 'argument-hint': 4, 'user-invocable': 5 };
    const targets = hosts('codex');
    const diagnostics = checkSkillForTargets(record, { targets, listings: targetListings([record], targets), fieldRange: (field) => (field in lines ? at(lines[field]) : undefined) });
    assert.deepEqual(
      diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.severity, diagnostic.host, diagnostic.range.start.line, diagnostic.message, diagnostic.file]),
      [
        ['host-ignores-field', 'warning', 'codex', 3, 'Codex ignores `allowed-tools`.', record.file],
        ['host-ignores-field', 'warning', 'codex', 4, 'Codex ignores `argument-hint`.', record.file],
        ['host-ignores-field', 'warning', 'codex', 5, 'Codex ignores `user-invocable: false`.', record.file],
      ],
    );
    // A field the range function does not know is placed on the opening fence.
    const fork = { ...base, metadata: { ...base.metadata!, context: 'fork' as const } };
    const [onFence] = checkSkillForTargets(fork, { targets, listings: targetListings([fork], targets), fieldRange: () => undefined });
    assert.deepEqual(onFence.range, { start: { line: 0, column: 0 }, end: { line: 0, column: 3 } });
    // The model field on its own key.
    const model = { ...base, metadata: { ...base.metadata!, model: 'fast' } };
    const [onModel] = checkSkillForTargets(model, { targets, listings: targetListings([model], targets), fieldRange: (field) => (field === 'model' ? at(7) : undefined) });
    assert.equal(onModel.range.start.line, 7);
    // A user folder is checked against the host's user folders; a built-in skill against none.
    const user = { ...base, root: { path: '/home/me/.claude/skills', kind: 'user' as const, label: 'User' } };
    assert.deepEqual(checkSkillForTargets(user, { targets: hosts('claude-code'), listings: new Map(), homeDir: '/home/me' }), []);
    const builtin = { ...base, root: { path: '/ext/skills', kind: 'builtin' as const, label: 'Built-in' } };
    assert.deepEqual(checkSkillForTargets(builtin, { targets: hosts('claude-code'), listings: new Map() }), []);
    // Without metadata there is nothing to warn about.
    assert.deepEqual(checkSkillForTargets({ ...base, metadata: undefined }, { targets, listings: new Map() }), []);
  });

  it('place a budget warning on the description, and none for a host that does not read the folder', function () {
    const records = [inLocation(fakeRecord('skill-0', 'd'.repeat(400)), '.agent/skills')];
    const targets = hosts('codex');
    const range = (field: string) => (field === 'name' || field === 'description' ? { start: { line: field === 'name' ? 1 : 2, column: 0 }, end: { line: 1, column: 4 } } : undefined);
    assert.deepEqual(checkSkillForTargets(records[0], { targets, listings: targetListings(records, targets, 100), fieldRange: range }), []);
    const listed = [inLocation(fakeRecord('skill-0', 'd'.repeat(400)), '.agents/skills')];
    const one = checkSkillForTargets(listed[0], { targets, listings: targetListings(listed, targets, 100), fieldRange: range });
    assert.deepEqual(
      one.map((diagnostic) => [diagnostic.code, diagnostic.range.start.line, diagnostic.message]),
      [['host-budget', 2, "With this project's 1 skill, Codex lists this one by name only at a 100-token context."]],
    );
    // No listing for the host: no budget warning.
    assert.deepEqual(checkSkillForTargets(listed[0], { targets, listings: new Map() }), []);
  });

  it('warn inside VS Code for the other hosts, and name one folder, or none', function () {
    const record = inLocation(fakeRecord('a', 'A.'), '.agent/skills');
    assert.deepEqual(
      targetFolderFindings([record], { targets: hosts('vscode', 'claude-code'), servedInVsCode: true }).map((finding) => finding.host.id),
      ['claude-code'],
    );
    const none = { ...targetProfile('codex')!, projectFolders: { ...targetProfile('codex')!.projectFolders, value: [] } };
    assert.deepEqual(
      targetFolderFindings([record], { targets: [none] }).map((finding) => finding.message),
      ['Codex reads no folder, not `.agent/skills`: the skill there (a) is invisible to it.'],
    );
    const two = { ...none, projectFolders: { ...none.projectFolders, value: ['.a/skills', '.b/skills'] } };
    assert.deepEqual(
      targetFolderFindings([record], { targets: [two] }).map((finding) => finding.message),
      ['Codex reads `.a/skills` or `.b/skills`, not `.agent/skills`: the skill there (a) is invisible to it.'],
    );
  });

  it('find frontmatter keys up to the closing fence, with trailing spaces and CRLF', function () {
    const ranges = fieldKeyRanges('---\r\nname: a\r\n---  \r\nmodel: x\r\n');
    assert.deepEqual(ranges('name'), { start: { line: 1, column: 0 }, end: { line: 1, column: 4 } });
    assert.equal(ranges('model'), undefined);
    assert.equal(fieldKeyRanges('---\n---\nname: a\n')('name'), undefined);
    // Without a closing fence there is no frontmatter to point into.
    assert.equal(fieldKeyRanges('---\nname: a\nmodel: x\n')('name'), undefined);
  });
});
