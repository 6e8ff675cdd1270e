// The ids in src/vscode/shared/manifest.ts against package.json: each side must name exactly what the
// other does, so a rename or an addition on one side alone fails here instead of in the editor.

import * as assert from 'node:assert/strict';
import manifest from '../../../package.json';
import { AGENT_MODE_TOOLS, COMMANDS, CONTEXT_KEYS, PARTICIPANT_ID, SETTING_DEFAULTS, SETTINGS, SETTINGS_SECTION, SKILLS_VIEW_ID, TOOLS, VIEW_CONTAINER_ID } from '../../../src/vscode/shared/manifest';
import { VIEW_ITEM_FLAGS } from '../../../src/core/view/skill-view';

const contributes = manifest.contributes;
const sorted = (values: Iterable<string>): string[] => [...new Set(values)].sort();

/** Every `when` clause and welcome text of the manifest. */
function whenClauses(): string[] {
  const menus = Object.values(contributes.menus).flat();
  return [...menus.map((entry) => entry.when ?? ''), ...contributes.viewsWelcome.map((entry) => entry.when), ...contributes.languageModelTools.map((tool) => tool.when)];
}

describe('manifest ids', () => {
  it('names every contributed command, and no other', () => {
    assert.deepEqual(sorted(Object.values(COMMANDS)), sorted(contributes.commands.map((command) => command.command)));
  });

  it('menus and welcome links use only contributed commands', () => {
    const known = new Set<string>(Object.values(COMMANDS));
    for (const entry of Object.values(contributes.menus).flat()) {
      assert.ok(known.has(entry.command), `menu entry ${entry.command}`);
    }
    for (const welcome of contributes.viewsWelcome) {
      for (const [, command] of welcome.contents.matchAll(/\(command:(agentSkills\.[\w.]+)/g)) {
        assert.ok(known.has(command), `welcome link ${command}`);
      }
    }
  });

  it('names the view container and the Skills view', () => {
    assert.deepEqual(
      contributes.viewsContainers.activitybar.map((container) => container.id),
      [VIEW_CONTAINER_ID],
    );
    assert.deepEqual(Object.keys(contributes.views), [VIEW_CONTAINER_ID]);
    assert.deepEqual(
      contributes.views.agentSkills.map((view) => view.id),
      [SKILLS_VIEW_ID],
    );
    for (const welcome of contributes.viewsWelcome) {
      assert.equal(welcome.view, SKILLS_VIEW_ID);
    }
  });

  it('sets every context key the when clauses read, and no other', () => {
    // `view == agentSkills.skills` names the view, not a context key.
    const read = whenClauses().flatMap((clause) => [...clause.replace(/\bview == [\w.]+/g, '').matchAll(/(?<![.\w])(agentSkills\.\w+)/g)].map((match) => match[1]));
    assert.deepEqual(sorted(read), sorted(Object.values(CONTEXT_KEYS)));
  });

  it("matches only the Skills view's row flags in its menus, and each flag a menu can use is matched", () => {
    const matched = whenClauses().flatMap((clause) => [...clause.matchAll(/\bviewItem\b[^&|]*/g)].map(([test]) => test));
    const flags = matched.map((test) => {
      const flag = /^viewItem =~ \/\\b([a-z-]+)\\b\/$/.exec(test.trim())?.[1];
      assert.ok(flag !== undefined, `"${test}" matches a row by one whole word`);
      return flag;
    });
    const rowOnly = new Set<string>([VIEW_ITEM_FLAGS.problem, VIEW_ITEM_FLAGS.outdated]);
    assert.deepEqual(sorted(flags), sorted(Object.values(VIEW_ITEM_FLAGS).filter((flag) => !rowOnly.has(flag))));
  });

  it('declares each setting with the default the code falls back to', () => {
    for (const [key, fallback] of Object.entries(SETTING_DEFAULTS)) {
      const setting = `${SETTINGS_SECTION}.${SETTINGS[key as keyof typeof SETTINGS]}`;
      const declared = contributes.configuration.properties[setting as keyof typeof contributes.configuration.properties] as { default: unknown };
      assert.deepEqual(declared.default, fallback, setting);
    }
  });

  it('names the chat participant', () => {
    assert.deepEqual(
      contributes.chatParticipants.map((participant) => participant.id),
      [PARTICIPANT_ID],
    );
  });

  it('names every setting, and no other', () => {
    assert.deepEqual(sorted(Object.keys(contributes.configuration.properties)), sorted(Object.values(SETTINGS).map((key) => `${SETTINGS_SECTION}.${key}`)));
  });

  it('names every language-model tool, and no other', () => {
    assert.deepEqual(sorted(contributes.languageModelTools.map((tool) => tool.name)), sorted([...Object.values(TOOLS), ...Object.values(AGENT_MODE_TOOLS)]));
  });

  it('offers agent mode each tool once: only the twins are referenceable, and only with agentMode "tools"', () => {
    const byName = new Map(contributes.languageModelTools.map((tool) => [tool.name, tool]));
    for (const key of Object.keys(TOOLS) as (keyof typeof TOOLS)[]) {
      const base = byName.get(TOOLS[key])!;
      const twin = byName.get(AGENT_MODE_TOOLS[key])!;
      assert.equal(base.canBeReferencedInPrompt, false, base.name);
      assert.equal(twin.canBeReferencedInPrompt, true, twin.name);
      assert.match(twin.when, /config\.agentSkills\.agentMode == 'tools'/);
      assert.deepEqual(twin.inputSchema, base.inputSchema, `${twin.name} takes what ${base.name} takes`);
      assert.equal(twin.displayName, base.displayName);
      // Each set names only its own tools to the model.
      for (const other of Object.values(TOOLS)) {
        assert.ok(!twin.modelDescription.includes(other), `${twin.name} mentions ${other}`);
      }
    }
    const setting = contributes.configuration.properties['agentSkills.agentMode'];
    assert.deepEqual(setting.enum, ['mcpServer', 'tools']);
    assert.equal(setting.default, 'mcpServer');
  });
});
