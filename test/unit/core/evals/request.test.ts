import * as assert from 'node:assert/strict';
import { renderInstructions, requestPrompt } from '../../../../src/core/chat/prompt';
import { triggerTestPrompt } from '../../../../src/core/evals/request';

describe('triggerTestPrompt', () => {
  const catalogText = '<available_skills>\n<skill name="pdf">Fills PDF forms.</skill>\n</available_skills>';

  it("is @skills's first turn: the instructions with the whole catalog, then the query alone", () => {
    assert.deepEqual(triggerTestPrompt(catalogText, 0, 'fill in the tax form'), [
      { role: 'user', parts: [{ kind: 'text', text: renderInstructions({ catalogText, loadedNames: [] }) }] },
      { role: 'user', parts: [{ kind: 'text', text: 'fill in the tax form' }] },
    ]);
  });

  it('equals what @skills sends for a new conversation, Restricted Mode note included', () => {
    const instructions = { catalogText, loadedNames: [], droppedNames: [], untrustedCount: 2 };
    assert.deepEqual(triggerTestPrompt(catalogText, 2, 'fill in the tax form'), requestPrompt(instructions, [], 'fill in the tax form'));
    const [instructionsPart] = triggerTestPrompt(catalogText, 2, 'x')[0].parts;
    assert.match(instructionsPart.kind === 'text' ? instructionsPart.text : '', /2 skills of this workspace are not available/);
  });
});
