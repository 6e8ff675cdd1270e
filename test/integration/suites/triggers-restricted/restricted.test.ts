// Restricted Mode: workspace skills with trigger tests are listed by name only and never run; the
// user's own skills keep working.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { productApi } from '../../chat-helpers';
import { findItem, outline, runItems, triggerTests, TRIGGER_RULES } from '../../trigger-helpers';
import { scriptedModel } from '../../util';

describe('trigger tests in Restricted Mode', () => {
  it('lists workspace skills by name, without reading their tests', async () => {
    assert.equal(vscode.workspace.isTrusted, false);
    const controller = await triggerTests();
    await productApi();
    assert.deepEqual(outline(controller), [
      'triggers',
      '  pdf-forms — Restricted Mode: not run',
      'User',
      '  daily-journal @1',
      '    log my day in the journal — should trigger @2',
      '    what is the capital of France — should not trigger @3',
    ]);
  });

  it("runs the user's tests and skips the workspace's without sending anything for them", async () => {
    const model = await scriptedModel();
    model.reset();
    model.answerByRules(TRIGGER_RULES);
    const controller = await triggerTests();
    const results = await runItems(controller, [findItem(controller, 'pdf-forms'), findItem(controller, 'daily-journal')]);
    assert.deepEqual(
      [...results.values()].map((result) => [result.skill, result.query, result.verdict.kind]),
      [
        ['daily-journal', 'log my day in the journal', 'passed'],
        ['daily-journal', 'what is the capital of France', 'passed'],
      ],
    );
    const requests = model.requests();
    assert.equal(requests.length, 6);
    for (const request of requests) {
      assert.doesNotMatch(request.messages[0].text, /pdf-forms|Fills in PDF forms/);
      assert.match(request.messages[0].text, /3 skills of this workspace are not available because the workspace is not trusted/);
    }
  });
});
