import * as assert from 'node:assert/strict';
import { harnessAvailable, openChat, scriptedModel, screenshot } from '../../util';

describe('the chat view', () => {
  beforeEach(async () => (await scriptedModel()).reset());

  it('sends a typed query through a participant to the scripted model and shows the streamed answer', async function () {
    if (!harnessAvailable()) {
      this.skip();
    }
    (await scriptedModel()).queueAnswers({ text: ['Relayed ', 'from the script'] });
    const turn = await openChat('@relay hello from the smoke test', { newSession: true });
    assert.equal(turn.result?.errorDetails, undefined);
    assert.deepEqual(
      turn.modelRequests.map((request) => request.messages.at(-1)?.text),
      ['hello from the smoke test'],
    );
    assert.match(turn.chatText, /hello from the smoke test/);
    assert.match(turn.chatText, /Relayed from the script/);
    await screenshot('chat');
  });

  it('shows a model failure to the user', async function () {
    if (!harnessAvailable()) {
      this.skip();
    }
    (await scriptedModel()).queueAnswers({ error: 'the scripted model refuses' });
    const turn = await openChat('@relay please fail', { newSession: true });
    assert.match(turn.result?.errorDetails?.message ?? '', /the scripted model refuses/);
    assert.match(turn.chatText, /the scripted model refuses/);
  });
});
