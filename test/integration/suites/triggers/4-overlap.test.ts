// Skills that compete for the same queries, found without a model and shown as you edit: a trigger
// query another skill ranks first for is a warning on the query, and descriptions too alike are a
// warning on each. Rewording the description clears both.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { diagnosticsOf, workspaceSkillsFolder } from '../../editor-helpers';
import { productApi } from '../../chat-helpers';
import { waitFor } from '../../util';

const ALIKE = 'Review a cloud architecture against the well-architected framework pillars for CLOUD workloads and report the risks.';

function writeSkill(name: string, description: string): string {
  const dir = path.join(workspaceSkillsFolder(), name);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'SKILL.md');
  fs.writeFileSync(file, `---\nname: ${name}\ndescription: ${description}\n---\n\nReview the architecture.\n`);
  return file;
}

describe('skills that compete for queries', () => {
  const names = ['aws-review', 'azure-review'];
  after(() => names.forEach((name) => fs.rmSync(path.join(workspaceSkillsFolder(), name), { recursive: true, force: true })));

  it('warns on the query and on both descriptions in Problems, and clears once the description says what sets it apart and the query asks for it', async () => {
    const api = await productApi();
    const aws = writeSkill('aws-review', ALIKE.replace('CLOUD', 'AWS'));
    const azure = writeSkill('azure-review', ALIKE.replace('CLOUD', 'Azure'));
    const triggers = path.join(path.dirname(azure), 'evals', 'triggers.json');
    fs.mkdirSync(path.dirname(triggers), { recursive: true });
    fs.writeFileSync(triggers, '[\n  { "query": "review my AWS workloads", "should_trigger": true }\n]\n');

    const codes = (file: string): string[] => diagnosticsOf(file).map((diagnostic) => String(diagnostic.code));
    await waitFor(
      async () => {
        await api.whenIdle();
        return codes(aws).includes('overlap-description') && codes(azure).includes('overlap-description') && codes(triggers).includes('overlap-query');
      },
      { message: () => `overlap warnings missing: ${JSON.stringify({ aws: codes(aws), azure: codes(azure), triggers: codes(triggers) })}`, timeoutMs: 15000 },
    );
    const onQuery = diagnosticsOf(triggers).find((diagnostic) => diagnostic.code === 'overlap-query')!;
    assert.equal(onQuery.range.start.line, 1);
    assert.equal(onQuery.range.start.character, 2);
    assert.match(onQuery.message, /^"review my AWS workloads" ranks aws-review above azure-review in the skill search/);
    const onDescription = diagnosticsOf(azure).find((diagnostic) => diagnostic.code === 'overlap-description')!;
    assert.equal(onDescription.range.start.line, 2);
    assert.match(onDescription.message, /^The description of azure-review is \d+% alike to aws-review's/);

    writeSkill('azure-review', 'Check Azure subscriptions for cost, security and reliability gaps, with a ranked fix list.');
    await waitFor(
      async () => {
        await api.whenIdle();
        return !codes(aws).includes('overlap-description') && !codes(azure).includes('overlap-description');
      },
      { message: () => `description warnings not cleared: ${JSON.stringify({ aws: codes(aws), azure: codes(azure) })}`, timeoutMs: 15000 },
    );
    assert.deepEqual(codes(triggers), ['overlap-query'], 'the query still ranks aws-review first');
    fs.writeFileSync(triggers, '[\n  { "query": "review my Azure workloads", "should_trigger": true }\n]\n');
    // VS Code's watcher may not report changes inside a skill folder made while it runs: the Testing
    // view's Refresh reads the trigger files again, as a user would.
    await vscode.commands.executeCommand('testing.refreshTests');
    await waitFor(
      async () => {
        await api.whenIdle();
        return codes(triggers).length === 0;
      },
      { message: () => `the query warning is not cleared: ${JSON.stringify(diagnosticsOf(triggers).map((diagnostic) => diagnostic.message))}`, timeoutMs: 15000 },
    );
  });

  it('names at most the three closest alike skills on each description in Problems, counts the rest, and follows an edit', async () => {
    const api = await productApi();
    const copies = ['deploy-a', 'deploy-b', 'deploy-c', 'deploy-d', 'deploy-e', 'deploy-f'];
    names.push(...copies);
    const files = copies.map((name) => writeSkill(name, 'Deploys the web service to the cloud region and rolls back a failed release.'));
    const alike = (file: string): string[] =>
      diagnosticsOf(file)
        .filter((diagnostic) => diagnostic.code === 'overlap-description')
        .map((diagnostic) => diagnostic.message);
    await waitFor(
      async () => {
        await api.whenIdle();
        return files.every((file) => alike(file).length === 3 && / 2 more skills are as alike \(80% or more\) to deploy-\w\.$/.test(alike(file)[2]));
      },
      { message: () => `not three warnings each: ${JSON.stringify(files.map(alike))}`, timeoutMs: 15000 },
    );
    // One copy says what sets it apart: the others keep three, counting one fewer.
    writeSkill('deploy-f', 'Draft release notes from merged pull requests, grouped by label.');
    await waitFor(
      async () => {
        await api.whenIdle();
        return alike(files[5]).length === 0 && files.slice(0, 5).every((file) => alike(file).length === 3 && / 1 more skill is as alike/.test(alike(file)[2]));
      },
      { message: () => `the edit is not followed: ${JSON.stringify(files.map(alike))}`, timeoutMs: 15000 },
    );
  });
});
