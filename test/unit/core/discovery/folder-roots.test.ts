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

  it('honours userSkills and builtinSkills being off', () => {
    const roots = buildFolderSkillRoots([], { homeDir: home, userSkills: false, builtinDir: path.resolve('/ext/skills'), builtinSkills: false });
    assert.deepEqual(roots, []);
  });
});
