import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateProduct, harnessAvailable, openChat, scriptedModel, waitForViewText } from '../../util';

describe('Restricted Mode (untrusted multi-root workspace)', () => {
  it('opens the workspace untrusted', () => {
    assert.equal(vscode.workspace.isTrusted, false);
  });

  it('opens every fixture folder of the suite', () => {
    assert.deepEqual(
      (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.name),
      ['basic', 'second-folder'],
    );
  });

  it('still activates the extension', async () => {
    assert.equal((await activateProduct()).isActive, true);
  });

  it('tells the user the window is in Restricted Mode', async function () {
    if (!harnessAvailable()) {
      this.skip();
    }
    // The workbench shows its Restricted Mode indicators a moment after the window opens.
    await waitForViewText('window', /Restricted Mode/);
  });

  it('keeps the scripted model and chat working, as VS Code does for users', async function () {
    if (!harnessAvailable()) {
      this.skip();
    }
    (await scriptedModel()).queueAnswers({ text: 'answer in Restricted Mode' });
    const turn = await openChat('@relay are you there?', { newSession: true });
    assert.equal(turn.modelRequests.length, 1);
    assert.match(turn.chatText, /answer in Restricted Mode/);
  });
});
