import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { scriptedChatModel, scriptedModel } from '../../util';

async function collect(response: vscode.LanguageModelChatResponse): Promise<{ text: string; toolCalls: vscode.LanguageModelToolCallPart[] }> {
  let text = '';
  const toolCalls: vscode.LanguageModelToolCallPart[] = [];
  for await (const part of response.stream) {
    if (part instanceof vscode.LanguageModelTextPart) {
      text += part.value;
    } else if (part instanceof vscode.LanguageModelToolCallPart) {
      toolCalls.push(part);
    }
  }
  return { text, toolCalls };
}

describe('the scripted model', () => {
  beforeEach(async () => (await scriptedModel()).reset());

  it('is selectable by its vendor', async () => {
    const model = await scriptedChatModel();
    assert.equal(model.family, 'scripted');
    assert.equal(model.maxInputTokens, 128000);
  });

  it('answers with the queued text and records the request', async () => {
    const control = await scriptedModel();
    control.queueAnswers({ text: ['Hello ', 'from the script'] });
    const model = await scriptedChatModel();
    const response = await model.sendRequest([vscode.LanguageModelChatMessage.User('ping')], {}, new vscode.CancellationTokenSource().token);
    assert.equal((await collect(response)).text, 'Hello from the script');
    const [request] = control.requests();
    assert.deepEqual(
      request.messages.map((message) => [message.role, message.text]),
      [['user', 'ping']],
    );
    assert.equal(control.pendingAnswers(), 0);
  });

  it('answers with tool calls and records the tools it was offered', async () => {
    const control = await scriptedModel();
    control.queueAnswers({ toolCalls: [{ name: 'look_up', input: { topic: 'skills' }, callId: 'call-1' }] });
    const model = await scriptedChatModel();
    const tools: vscode.LanguageModelChatTool[] = [{ name: 'look_up', description: 'Looks something up', inputSchema: { type: 'object' } }];
    const response = await model.sendRequest([vscode.LanguageModelChatMessage.User('find skills')], { tools }, new vscode.CancellationTokenSource().token);
    const { toolCalls } = await collect(response);
    assert.deepEqual(
      toolCalls.map((call) => [call.callId, call.name, call.input]),
      [['call-1', 'look_up', { topic: 'skills' }]],
    );
    assert.deepEqual(
      control.requests()[0].tools.map((tool) => tool.name),
      ['look_up'],
    );
  });

  it('records tool results sent back to it', async () => {
    const control = await scriptedModel();
    const model = await scriptedChatModel();
    const messages = [
      vscode.LanguageModelChatMessage.User('find skills'),
      vscode.LanguageModelChatMessage.Assistant([new vscode.LanguageModelToolCallPart('call-1', 'look_up', { topic: 'skills' })]),
      vscode.LanguageModelChatMessage.User([new vscode.LanguageModelToolResultPart('call-1', [new vscode.LanguageModelTextPart('three skills')])]),
    ];
    await collect(await model.sendRequest(messages, {}, new vscode.CancellationTokenSource().token));
    const recorded = control.requests()[0].messages;
    assert.deepEqual(recorded[1].parts, [{ kind: 'toolCall', callId: 'call-1', name: 'look_up', input: { topic: 'skills' } }]);
    assert.deepEqual(recorded[2].parts, [{ kind: 'toolResult', callId: 'call-1', text: 'three skills' }]);
  });

  it('echoes the last user message when nothing is queued', async () => {
    const model = await scriptedChatModel();
    const response = await model.sendRequest([vscode.LanguageModelChatMessage.User('are you there?')], {}, new vscode.CancellationTokenSource().token);
    assert.equal((await collect(response)).text, 'Scripted model received: are you there?');
  });

  it('fails a request when told to', async () => {
    const control = await scriptedModel();
    control.queueAnswers({ error: 'the model is overloaded' });
    const model = await scriptedChatModel();
    await assert.rejects(async () => {
      const response = await model.sendRequest([vscode.LanguageModelChatMessage.User('hi')], {}, new vscode.CancellationTokenSource().token);
      await collect(response);
    }, /the model is overloaded/);
  });
});
