// Restricted Mode with several configured locations: every location of every folder of an
// untrusted workspace must stay out of the model's catalog, not only the first one.

import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { buildSkillRoots } from '../../../../src/core/discovery/roots';
import { buildFolderSkillRoots } from '../../../../src/core/discovery/folder-roots';
import { SkillRegistry } from '../../../../src/core/discovery/registry';
import { renderCatalog } from '../../../../src/core/use/catalog';
import { removeDir, skillText, tempDir, writeTree } from '../../../fixtures/trees/tree';

describe('untrusted workspace with several locations', () => {
  const home = path.resolve('/home/dev');
  const untrustedLabels = (roots: ReturnType<typeof buildSkillRoots>): string[] => roots.filter((root) => root.untrusted).map((root) => root.label);

  it('marks every location of every folder untrusted (shared locations)', () => {
    const roots = buildSkillRoots({
      workspaceFolders: [
        { name: 'app', path: path.resolve('/repo/app') },
        { name: 'lib', path: path.resolve('/repo/lib') },
      ],
      locations: ['.agent/skills', '.claude/skills', '.github/skills'],
      workspaceTrusted: false,
      homeDir: home,
    });
    assert.deepEqual(
      roots.map((root) => [root.label, root.untrusted === true]),
      [
        ['app · .agent/skills', true],
        ['app · .claude/skills', true],
        ['app · .github/skills', true],
        ['lib · .agent/skills', true],
        ['lib · .claude/skills', true],
        ['lib · .github/skills', true],
        ['User', false],
      ],
    );
  });

  it('marks every location of every folder untrusted (per-folder locations)', () => {
    const roots = buildFolderSkillRoots(
      [
        { name: 'app', path: path.resolve('/repo/app'), locations: ['.agent/skills', '.claude/skills'] },
        { name: 'lib', path: path.resolve('/repo/lib'), locations: ['.claude/skills', 'tools/skills'] },
      ],
      { workspaceTrusted: false, homeDir: home, builtinDir: path.resolve('/ext/skills') },
    );
    assert.deepEqual(untrustedLabels(roots), ['app · .agent/skills', 'app · .claude/skills', 'lib · .claude/skills', 'lib · tools/skills']);
    assert.deepEqual(
      roots.filter((root) => !root.untrusted).map((root) => root.kind),
      ['user', 'builtin'],
    );
  });

  it('keeps a location that reaches the user folder untrusted, rather than trusting it as the user root', () => {
    // A repository can point a location at the user's own skills folder; reached through an
    // untrusted folder, that folder must not become a trusted root by being deduplicated away.
    const project = path.join(home, 'project');
    for (const roots of [
      buildSkillRoots({ workspaceFolders: [{ name: 'project', path: project }], locations: ['.agent/skills', '../.agent/skills'], workspaceTrusted: false, homeDir: home }),
      buildFolderSkillRoots([{ name: 'project', path: project, locations: ['.agent/skills', '../.agent/skills'] }], { workspaceTrusted: false, homeDir: home }),
    ]) {
      assert.deepEqual(
        roots.map((root) => [root.kind, root.path, root.untrusted === true]),
        [
          ['workspace', path.join(project, '.agent', 'skills'), true],
          ['workspace', path.join(home, '.agent', 'skills'), true],
        ],
      );
    }
  });

  it('keeps the user folder untrusted when a workspace folder is the home folder', () => {
    const roots = buildFolderSkillRoots([{ name: 'home', path: home, locations: ['.claude/skills', '.agent/skills'] }], { workspaceTrusted: false, homeDir: home });
    assert.deepEqual(
      roots.map((root) => [root.kind, root.label, root.untrusted === true]),
      [
        ['workspace', 'home · .claude/skills', true],
        ['workspace', 'home · .agent/skills', true],
      ],
    );
  });

  describe('through discovery to the catalog', () => {
    let dir: string;
    let registry: SkillRegistry;

    beforeEach(async () => {
      dir = await tempDir();
      registry = new SkillRegistry();
    });

    afterEach(async () => {
      registry.dispose();
      await removeDir(dir);
    });

    it('keeps skills of the second and later locations out of the catalog, and the user skill in', async () => {
      const app = path.join(dir, 'app');
      const lib = path.join(dir, 'lib');
      const homeDir = path.join(dir, 'home');
      await writeTree(app, {
        '.agent/skills/app-agent': { 'SKILL.md': skillText('app-agent', 'APP-AGENT-TEXT from the first location.') },
        '.claude/skills/app-claude': { 'SKILL.md': skillText('app-claude', 'APP-CLAUDE-TEXT from the second location.') },
      });
      await writeTree(lib, { '.claude/skills/lib-claude': { 'SKILL.md': skillText('lib-claude', 'LIB-CLAUDE-TEXT from the second folder.') } });
      await writeTree(homeDir, { '.agent/skills/mine': { 'SKILL.md': skillText('mine', 'The user own skill.') } });

      await registry.setRoots(
        buildFolderSkillRoots(
          [
            { name: 'app', path: app, locations: ['.agent/skills', '.claude/skills'] },
            { name: 'lib', path: lib, locations: ['.agent/skills', '.claude/skills'] },
          ],
          { workspaceTrusted: false, homeDir },
        ),
      );

      const skills = registry.snapshot.skills;
      assert.deepEqual(
        skills.map((record) => `${record.name}:${record.status}`),
        ['app-agent:untrusted', 'app-claude:untrusted', 'lib-claude:untrusted', 'mine:available'],
      );
      const catalog = renderCatalog(skills);
      assert.deepEqual(catalog.included, ['mine']);
      assert.doesNotMatch(catalog.text, /APP-AGENT-TEXT|APP-CLAUDE-TEXT|LIB-CLAUDE-TEXT|app-claude|lib-claude|app-agent/);
    });
  });
});
