import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { buildFolderSkillRoots } from '../../../../src/core/discovery/folder-roots';

describe('buildFolderSkillRoots', () => {
  const home = path.resolve('/home/dev');

  it('gives each folder its own locations, in folder order, before user, env and built-in', () => {
    const roots = buildFolderSkillRoots(
      [
        { name: 'app', path: path.resolve('/repo/app'), locations: ['.agent/skills', '.claude/skills'] },
        { name: 'lib', path: path.resolve('/repo/lib'), locations: ['.agent/skills'] },
      ],
      { homeDir: home, skillsPath: path.resolve('/opt/skills'), builtinDir: path.resolve('/ext/skills') },
    );
    assert.deepEqual(
      roots.map((root) => [root.kind, root.label, root.path]),
      [
        ['workspace', 'app · .agent/skills', path.resolve('/repo/app/.agent/skills')],
        ['workspace', 'app · .claude/skills', path.resolve('/repo/app/.claude/skills')],
        ['workspace', 'lib', path.resolve('/repo/lib/.agent/skills')],
        ['user', 'User', path.join(home, '.agent', 'skills')],
        ['env', 'AGENT_SKILLS_PATH', path.resolve('/opt/skills')],
        ['builtin', 'Built-in', path.resolve('/ext/skills')],
      ],
    );
  });

  it('marks only workspace roots untrusted and keeps the first of two roots on one folder', () => {
    const roots = buildFolderSkillRoots(
      [
        { name: 'home', path: home, locations: ['.agent/skills'] },
        { name: 'again', path: home, locations: ['.agent/skills'] },
      ],
      { homeDir: home, workspaceTrusted: false, userSkills: true, builtinSkills: false },
    );
    assert.deepEqual(
      roots.map((root) => [root.kind, root.label, !!root.untrusted]),
      [['workspace', 'home', true]],
    );
  });

  it("puts each folder's sub-project locations after its own, before the next folder, labelled by package", () => {
    const roots = buildFolderSkillRoots(
      [
        { name: 'mono', path: path.resolve('/repo/mono'), locations: ['.agent/skills'], packages: ['packages/web', 'apps/group/admin'] },
        { name: 'lib', path: path.resolve('/repo/lib'), locations: ['.agent/skills', '.github/skills'], packages: ['sub'] },
      ],
      { workspaceTrusted: false },
    );
    assert.deepEqual(
      roots.map((root) => [root.label, root.path, root.package, root.location, root.untrusted]),
      [
        ['mono', path.resolve('/repo/mono/.agent/skills'), undefined, '.agent/skills', true],
        ['mono · packages/web', path.resolve('/repo/mono/packages/web/.agent/skills'), 'packages/web', '.agent/skills', true],
        ['mono · apps/group/admin', path.resolve('/repo/mono/apps/group/admin/.agent/skills'), 'apps/group/admin', '.agent/skills', true],
        ['lib · .agent/skills', path.resolve('/repo/lib/.agent/skills'), undefined, '.agent/skills', true],
        ['lib · .github/skills', path.resolve('/repo/lib/.github/skills'), undefined, '.github/skills', true],
        ['lib · sub/.agent/skills', path.resolve('/repo/lib/sub/.agent/skills'), 'sub', '.agent/skills', true],
        ['lib · sub/.github/skills', path.resolve('/repo/lib/sub/.github/skills'), 'sub', '.github/skills', true],
      ],
    );
  });

  it('honours userSkills and builtinSkills being off', () => {
    const roots = buildFolderSkillRoots([], { homeDir: home, userSkills: false, builtinDir: path.resolve('/ext/skills'), builtinSkills: false });
    assert.deepEqual(roots, []);
  });
});
