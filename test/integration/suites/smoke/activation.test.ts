import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { activateProduct, harnessAvailable, productExtensionId, screenshot, waitFor, waitForViewText } from '../../util';

describe('the extension in a real VS Code', () => {
  it('runs in the pinned VS Code server', function () {
    if (!harnessAvailable()) {
      this.skip();
    }
    assert.match(vscode.version, /^1\.139\./);
  });

  it('activates', async () => {
    const extension = await activateProduct();
    assert.equal(extension.id, productExtensionId);
    assert.equal(extension.isActive, true);
  });

  it('registers its log channel, shown in the Output panel', async () => {
    await activateProduct();
    // VS Code adds a "show" command for each extension log channel: <extension id>.<name>.log.
    const showLog = await waitFor(async () => (await vscode.commands.getCommands(true)).find((command) => command.startsWith(`workbench.action.output.show.${productExtensionId}.`)), {
      message: 'no Output channel of the extension was registered',
    });
    await vscode.commands.executeCommand(showLog);
    if (harnessAvailable()) {
      await waitForViewText('panel', 'Agent Skills');
    }
  });

  it('opens a throw-away copy of the fixture workspace, trusted', () => {
    const folders = vscode.workspace.workspaceFolders ?? [];
    assert.deepEqual(
      folders.map((folder) => folder.name),
      ['basic'],
    );
    assert.ok(!folders[0].uri.fsPath.includes(path.join('test', 'workspaces')), folders[0].uri.fsPath);
    assert.ok(fs.existsSync(path.join(folders[0].uri.fsPath, '.agent', 'skills', 'greeting', 'SKILL.md')));
    assert.equal(vscode.workspace.isTrusted, true);
  });

  it('gives the extension host a home folder made from the suite fixture', () => {
    assert.ok(fs.existsSync(path.join(os.homedir(), '.agent', 'skills', 'home-notes', 'SKILL.md')), os.homedir());
  });

  it('shows the workbench, readable and photographed by the harness', async function () {
    if (!harnessAvailable()) {
      this.skip();
    }
    await waitForViewText('window', /basic/i);
    const file = await screenshot('workbench');
    assert.ok(file && fs.statSync(file).size > 1000, `no screenshot at ${file}`);
  });

  it('shows the workspace skill in the Skills view', async function () {
    if (!harnessAvailable()) {
      this.skip();
    }
    await activateProduct();
    await waitForViewText('skills', 'greeting');
    await screenshot('skills-view');
  });
});
