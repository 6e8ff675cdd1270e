// Forked skills (`context: fork`), cancellation and model failures in @skills.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { describeRequests, toolResults, useChatView } from '../../chat-helpers';
import { openChat, scriptedModel } from '../../util';

const stackFrame = /\n\s+at \S+ \(/;

describe('@skills forked skills', () => {
  useChatView();

  it('/use runs a forked skill in its own request, without the conversation, and shows the result', async () => {
    const control = await scriptedModel();
    control.queueAnswers({ text: 'Earlier turn.' });
    await openChat('@skills hello there', { newSession: true });
    control.queueAnswers({ text: 'No secrets found in src.' });
    const turn = await openChat('@skills /use audit-fork src');
    assert.equal(turn.result?.errorDetails, undefined, turn.result?.errorDetails?.message);
    assert.equal(turn.modelRequests.length, 1, describeRequests(turn.modelRequests));
    const [isolated] = turn.modelRequests;
    assert.equal(isolated.modelId, control.modelId, 'audit-fork asks for the family of the user model');
    assert.deepEqual(
      isolated.messages.map((message) => message.role),
      ['user', 'user'],
    );
    assert.match(isolated.messages[0].text, /in isolation[\s\S]*AUDIT-BODY: scan the folder src for secrets/);
    assert.equal(isolated.messages[1].text, 'Task: src');
    assert.doesNotMatch(isolated.messages.map((message) => message.text).join('\n'), /hello there|Earlier turn|<available_skills>/);
    assert.deepEqual(
      isolated.tools.map((tool) => tool.name),
      ['skills_readResource'],
    );
    assert.match(turn.chatText, /audit-fork \(isolated run\):\s+No secrets found in src\./);
  });

  it('reports a forked run the model started back to the model', async () => {
    const control = await scriptedModel();
    control.queueAnswers({ toolCalls: [{ name: 'skills_activate', input: { name: 'audit-fork', arguments: 'lib' } }] }, { text: 'Nothing found in lib.' }, { text: 'The audit of lib is clean.' });
    const turn = await openChat('@skills audit lib for secrets', { newSession: true });
    assert.equal(turn.modelRequests.length, 3, describeRequests(turn.modelRequests));
    const [, isolated, main] = turn.modelRequests;
    assert.equal(isolated.messages.length, 2);
    assert.match(isolated.messages[1].text, /^Task: lib$/);
    assert.match(toolResults(main).at(-1) ?? '', /^Skill "audit-fork" ran in isolation \(context: fork\) and reported:\n\nNothing found in lib\./);
    assert.match(turn.chatText, /The audit of lib is clean\./);
  });

  it('runs a forked skill on the model family its `model` field names, while the chat keeps the user model', async () => {
    const control = await scriptedModel();
    const mini = control.models.find((model) => model.family === 'scripted-mini');
    assert.ok(mini, 'the scripted model extension registers no scripted-mini model');
    control.queueAnswers({ text: 'Earlier turn.' });
    const earlier = await openChat('@skills hello there', { newSession: true });
    // The chat view's default model stays the main one although a second model is registered.
    assert.deepEqual(
      earlier.modelRequests.map((request) => request.modelId),
      [control.modelId],
    );
    control.queueAnswers({ text: 'Three TODO comments in src.' });
    const turn = await openChat('@skills /use fork-mini src');
    assert.equal(turn.result?.errorDetails, undefined, turn.result?.errorDetails?.message);
    assert.equal(turn.modelRequests.length, 1, describeRequests(turn.modelRequests));
    const [isolated] = turn.modelRequests;
    assert.deepEqual([isolated.modelId, isolated.family], [mini.id, 'scripted-mini']);
    assert.deepEqual(
      isolated.messages.map((message) => message.role),
      ['user', 'user'],
    );
    assert.match(isolated.messages[0].text, /MINI-BODY: count the TODO comments in src/);
    assert.equal(isolated.messages[1].text, 'Task: src');
    assert.doesNotMatch(isolated.messages.map((message) => message.text).join('\n'), /hello there|Earlier turn|<available_skills>/);
    assert.match(turn.chatText, /fork-mini \(isolated run\):\s+Three TODO comments in src\./);
    assert.doesNotMatch(turn.chatText, /which is not available/);
  });

  it('runs on the user model, with a note, when the skill asks for a model that is not there', async () => {
    const control = await scriptedModel();
    control.queueAnswers({ text: 'Five bullet points.' });
    const turn = await openChat('@skills /use fork-fallback app.log', { newSession: true });
    assert.equal(turn.modelRequests.length, 1);
    assert.equal(turn.modelRequests[0].modelId, control.modelId);
    assert.match(turn.chatText, /Skill "fork-fallback" asks for the model "no-such-model", which is not available; it ran on Scripted Model instead\./);
    assert.match(turn.chatText, /Five bullet points\./);
  });
});

describe('@skills failures', () => {
  useChatView();

  it('shows a model error in one line, without a stack trace', async () => {
    (await scriptedModel()).queueAnswers({ error: 'the scripted model is overloaded' });
    const turn = await openChat('@skills summarise the changelog', { newSession: true });
    const message = turn.result?.errorDetails?.message ?? '';
    assert.match(message, /^The model failed: [^\n]*the scripted model is overloaded/);
    assert.doesNotMatch(message, /\n/);
    assert.doesNotMatch(turn.chatText, stackFrame);
  });

  it('explains a blocked model request', async () => {
    (await scriptedModel()).queueAnswers({ error: { message: 'rate limited', code: 'Blocked' } });
    const turn = await openChat('@skills summarise the changelog', { newSession: true });
    assert.equal(turn.result?.errorDetails?.message, 'The model refused the request (blocked: rate limited). Try again later or pick another model.');
  });

  it('stops when the request is cancelled, before any tool runs', async () => {
    const control = await scriptedModel();
    control.queueAnswers({ delayMs: 15000, toolCalls: [{ name: 'skills_activate', input: { name: 'plain-notes' } }] });
    const pending = openChat('@skills take slow notes', { newSession: true, timeoutMs: 40000 });
    await control.waitForRequests(1);
    await vscode.commands.executeCommand('workbench.action.chat.cancel');
    const turn = await pending;
    const requests = control.requests();
    assert.equal(requests.length, 1, describeRequests(requests));
    assert.equal(requests[0].cancelled, true);
    assert.doesNotMatch(turn.chatText, stackFrame);
  });
});
