import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { MAX_FOLDERS_WALKED } from '../../../../src/core/discovery/nested-locations';
import { projectRoots, readProjectSettings } from '../../../../src/core/discovery/project';
import { removeDir, skillText, tempDir, writeTree, type Tree } from '../../../fixtures/trees/tree';

const DEFAULTS = { locations: ['.agent/skills'], nestedLocations: true, problems: [] };

describe('project folders', () => {
  let dir: string;
  let settingsFile: string;

  beforeEach(async () => {
    dir = await tempDir();
    settingsFile = path.join(dir, '.vscode', 'settings.json');
  });

  afterEach(async () => {
    await removeDir(dir);
  });

  const withSettings = (text: string): Promise<void> => writeTree(dir, { '.vscode': { 'settings.json': text } });
  const messages = async (): Promise<string[]> =>
    (await readProjectSettings(dir)).problems.map(
      (problem) => `${problem.code} ${problem.severity} ${problem.path === settingsFile ? 'FILE' : problem.path}: ${problem.message.split(settingsFile).join('FILE')}`,
    );

  describe('readProjectSettings', () => {
    it('gives the defaults, quietly, for a folder without settings or a path that is a file', async () => {
      assert.deepEqual(await readProjectSettings(dir), DEFAULTS);
      await writeTree(dir, { 'a-file': 'not a folder' });
      assert.deepEqual(await readProjectSettings(path.join(dir, 'a-file')), DEFAULTS);
    });

    it('reads JSONC as VS Code writes it, keeping the non-blank locations as written', async () => {
      await withSettings('{\n  // comments and trailing commas\n  "agentSkills.locations": [" ", ".github/skills", "", " .claude/skills"],\n  "agentSkills.nestedLocations": false,\n}\n');
      assert.deepEqual(await readProjectSettings(dir), { locations: ['.github/skills', ' .claude/skills'], nestedLocations: false, problems: [] });
    });

    it('warns about a settings file it cannot read, and uses the defaults', async () => {
      await writeTree(dir, { '.vscode': { 'settings.json': {} } });
      const settings = await readProjectSettings(dir);
      assert.deepEqual({ ...settings, problems: [] }, DEFAULTS);
      assert.deepEqual(await messages(), ['project-settings warning FILE: Cannot read FILE: EISDIR: illegal operation on a directory, read; the default skill locations are used.']);
    });

    it('warns about text that is not a JSON object, saying where it breaks', async () => {
      await withSettings('{\n  "agentSkills.locations": [".github/skills"]\n  "agentSkills.nestedLocations": false\n}\n');
      assert.deepEqual(await messages(), ['project-settings warning FILE: FILE is not valid JSON (CommaExpected at line 3, column 3); the default skill locations are used.']);
      assert.deepEqual((await readProjectSettings(dir)).locations, DEFAULTS.locations);
      for (const notAnObject of ['[]', 'null', '42', '"text"']) {
        await withSettings(notAnObject);
        assert.deepEqual(await messages(), ['project-settings warning FILE: FILE is not valid JSON (it does not hold an object); the default skill locations are used.'], notAnObject);
      }
    });

    it('warns about values of the wrong type, and uses the defaults for them', async () => {
      for (const locations of ['".github/skills"', '[".github/skills", 3]', 'null']) {
        await withSettings(`{ "agentSkills.locations": ${locations}, "agentSkills.nestedLocations": "no" }`);
        assert.deepEqual(
          await messages(),
          [
            'project-settings warning FILE: agentSkills.locations in FILE must be a list of folder paths; the default .agent/skills is used.',
            'project-settings warning FILE: agentSkills.nestedLocations in FILE must be true or false; it is taken as true.',
          ],
          locations,
        );
        assert.deepEqual({ ...(await readProjectSettings(dir)), problems: [] }, DEFAULTS);
      }
      await withSettings('{ "editor.tabSize": 2 }');
      assert.deepEqual(await readProjectSettings(dir), DEFAULTS);
    });
  });

  describe('projectRoots', () => {
    const skill = (name: string): Tree => ({ [name]: { 'SKILL.md': skillText(name, `Use for ${name}.`) } });

    it('gives the project’s own locations, then its sub-projects’, trusted, named by the project folder', async () => {
      await writeTree(dir, { '.agent': { skills: skill('deploy') }, packages: { web: { '.agent': { skills: skill('lint') } } } });
      const found = await projectRoots(dir);
      const name = path.basename(dir);
      assert.deepEqual(
        found.roots.map((root) => [root.label, root.path, root.untrusted === true]),
        [
          [name, path.join(dir, '.agent', 'skills'), false],
          [`${name} · packages/web`, path.join(dir, 'packages', 'web', '.agent', 'skills'), false],
        ],
      );
      assert.deepEqual(found.problems, []);
      assert.equal(found.folder, dir);
      await withSettings('{ "agentSkills.nestedLocations": false }');
      assert.deepEqual(
        (await projectRoots(dir)).roots.map((root) => root.path),
        [path.join(dir, '.agent', 'skills')],
      );
    });

    it('passes on the settings’ problems, and says when the walk for sub-projects stopped early', async () => {
      await withSettings('{ "agentSkills.nestedLocations": 1 }');
      // One folder more than the walk reads, with the project folder itself.
      await Promise.all(Array.from({ length: MAX_FOLDERS_WALKED }, (_, index) => fs.mkdir(path.join(dir, `f${index}`))));
      const found = await projectRoots(dir);
      assert.deepEqual(
        found.problems.map((problem) => [problem.code, problem.severity, problem.path]),
        [
          ['project-settings', 'warning', settingsFile],
          ['nested-locations-truncated', 'warning', dir],
        ],
      );
      assert.match(found.problems[1].message, /^Stopped looking for sub-project skill locations in /);
    });
  });
});
