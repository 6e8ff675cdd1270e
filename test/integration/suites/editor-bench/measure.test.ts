// Measurements for bench/sections/editor.ts, taken inside a real VS Code; not part of
// `npm run test:integration` (the suite is not in registry.ts). The bench section launches it with
// AGENT_SKILLS_PATH pointing at a synthetic tree and AGENT_SKILLS_BENCH_OUTPUT naming the file
// the figures go to.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { skillsApi, skillText, treeItem, workspaceSkillsFolder, type AgentSkillsApi } from '../../editor-helpers';
import type { EditorBenchFigures } from '../../../../bench/editor-figures';

const EDITS = 7;
const outputFile = process.env.AGENT_SKILLS_BENCH_OUTPUT;

/** Writes a new description and resolves with the milliseconds until the view shows it. */
async function timeChange(api: AgentSkillsApi, group: string, name: string, file: string, version: number): Promise<number> {
  const description = `Edited by the benchmark, version ${version}.`;
  const shown = () => treeItem(api, group, name)?.description === description;
  return new Promise<number>((resolve, reject) => {
    let start = 0;
    const timeout = setTimeout(() => {
      subscription.dispose();
      reject(new Error(`the view did not show the edit of ${name} within 10 s`));
    }, 10000);
    const subscription = api.testing.tree.onDidChangeTreeData(() => {
      if (shown()) {
        const elapsed = performance.now() - start;
        clearTimeout(timeout);
        subscription.dispose();
        resolve(elapsed);
      }
    });
    start = performance.now();
    fs.writeFileSync(file, skillText(name, description));
  });
}

describe('editor benchmark', function () {
  before(function () {
    if (!outputFile) {
      this.skip();
    }
  });

  it('measures start-up and the delay from a file change to the view', async () => {
    const api = await skillsApi();
    const startupMs = api.testing.startupMs();
    assert.ok(startupMs !== undefined);
    const skills = api.listSkills().length;

    const workspaceFile = path.join(workspaceSkillsFolder(), 'bench-edit', 'SKILL.md');
    const external = api.listSkills().find((skill) => skill.source.kind === 'env');
    assert.ok(external, 'no skill from AGENT_SKILLS_PATH');
    const workspaceChangeToTreeMs: number[] = [];
    const externalChangeToTreeMs: number[] = [];
    for (let edit = 1; edit <= EDITS; edit++) {
      workspaceChangeToTreeMs.push(await timeChange(api, 'Available', 'bench-edit', workspaceFile, edit));
      externalChangeToTreeMs.push(await timeChange(api, 'Available', external.name, external.path, edit));
      await new Promise((resolve) => setTimeout(resolve, 200)); // Let the watchers settle between edits.
    }
    const figures: EditorBenchFigures = { skills, startupMs, workspaceChangeToTreeMs, externalChangeToTreeMs };
    fs.writeFileSync(outputFile!, JSON.stringify(figures));
  });
});
