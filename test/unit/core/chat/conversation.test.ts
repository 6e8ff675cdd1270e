import * as assert from 'node:assert/strict';
import {
  alreadyLoadedText,
  carriedBudgetChars,
  conversationMessages,
  emptyTurnMetadata,
  findLoadedActivation,
  forkResultText,
  readTurnMetadata,
  userInvocationText,
  type ConversationTurn,
  type SkillActivationRecord,
} from '../../../../src/core/chat/conversation';

const big = { maxCarriedChars: 1_000_000 };

function activation(name: string, overrides: Partial<SkillActivationRecord> = {}): SkillActivationRecord {
  return { name, file: `/skills/${name}/SKILL.md`, invokedBy: 'model', text: `<skill name="${name}" dir="/skills/${name}">\nDo ${name}.\n</skill>`, ...overrides };
}

function response(text: string, activatedSkills: SkillActivationRecord[] = [], extra: Record<string, unknown> = {}): ConversationTurn {
  return { kind: 'response', text, metadata: { ...emptyTurnMetadata(), activatedSkills, ...extra } };
}

describe('readTurnMetadata', () => {
  it('reads what a turn stored and ignores anything malformed', () => {
    const stored = { activatedSkills: [activation('pdf'), { name: 'broken' }, 'nonsense'], toolRounds: 2, suggestedSkills: ['a', 3], restrictedNoticeShown: true };
    const metadata = readTurnMetadata(JSON.parse(JSON.stringify(stored)));
    assert.deepEqual(
      metadata.activatedSkills.map((skill) => skill.name),
      ['pdf'],
    );
    assert.equal(metadata.toolRounds, 2);
    assert.deepEqual(metadata.suggestedSkills, ['a']);
    assert.equal(metadata.restrictedNoticeShown, true);
  });

  it('reads anything else as a turn that loaded nothing', () => {
    for (const value of [undefined, null, 'text', 42, { activatedSkills: 'pdf' }]) {
      assert.deepEqual(readTurnMetadata(value), emptyTurnMetadata());
    }
  });
});

describe('conversationMessages', () => {
  it('replays each turn: the request, the skill the model loaded (call and result), the answer', () => {
    const pdf = activation('pdf', { arguments: 'a.pdf' });
    const turns: ConversationTurn[] = [{ kind: 'request', prompt: 'make a pdf' }, response('Done with pdf.', [pdf]), { kind: 'request', prompt: 'thanks' }, response('You are welcome.')];
    const conversation = conversationMessages(turns, big);
    assert.deepEqual(conversation.messages, [
      { role: 'user', parts: [{ kind: 'text', text: 'make a pdf' }] },
      { role: 'assistant', parts: [{ kind: 'toolCall', callId: 'skills-turn0-0', name: 'skills_activate', input: { name: 'pdf', arguments: 'a.pdf' } }] },
      { role: 'user', parts: [{ kind: 'toolResult', callId: 'skills-turn0-0', text: pdf.text }] },
      { role: 'assistant', parts: [{ kind: 'text', text: 'Done with pdf.' }] },
      { role: 'user', parts: [{ kind: 'text', text: 'thanks' }] },
      { role: 'assistant', parts: [{ kind: 'text', text: 'You are welcome.' }] },
    ]);
    assert.deepEqual(conversation.loaded, [pdf]);
    assert.deepEqual(conversation.dropped, []);
  });

  it('keeps only the latest load of a skill with the same arguments', () => {
    const first = activation('pdf', { text: 'old text' });
    const second = activation('pdf', { text: 'new text' });
    const conversation = conversationMessages([{ kind: 'request', prompt: 'one' }, response('a', [first]), { kind: 'request', prompt: 'two' }, response('b', [second])], big);
    const results = conversation.messages.flatMap((message) => message.parts).filter((part) => part.kind === 'toolResult');
    assert.deepEqual(
      results.map((part) => part.kind === 'toolResult' && part.text),
      ['new text'],
    );
    assert.deepEqual(conversation.loaded, [second]);
  });

  it('keeps loads of a skill with different arguments, each under its own call id', () => {
    const conversation = conversationMessages([{ kind: 'request', prompt: 'one' }, response('a', [activation('pdf', { arguments: 'x' }), activation('pdf', { arguments: 'y' })])], big);
    const calls = conversation.messages.flatMap((message) => message.parts).filter((part) => part.kind === 'toolCall');
    assert.deepEqual(
      calls.map((part) => part.kind === 'toolCall' && part.callId),
      ['skills-turn0-0', 'skills-turn0-1'],
    );
    assert.equal(conversation.loaded.length, 2);
  });

  it('drops the oldest skill texts past the budget and reports them', () => {
    const old = activation('old', { text: 'x'.repeat(600) });
    const recent = activation('recent', { text: 'y'.repeat(600) });
    const conversation = conversationMessages([{ kind: 'request', prompt: 'one' }, response('a', [old]), { kind: 'request', prompt: 'two' }, response('b', [recent])], { maxCarriedChars: 1000 });
    assert.deepEqual(
      conversation.loaded.map((skill) => skill.name),
      ['recent'],
    );
    assert.deepEqual(conversation.dropped, ['old']);
    assert.ok(!conversation.messages.some((message) => message.parts.some((part) => part.kind === 'toolCall' && (part.input as { name: string }).name === 'old')));
  });

  it('replays /use as the user message that started the skill', () => {
    const started = activation('release-notes', { invokedBy: 'user', arguments: 'v2' });
    const conversation = conversationMessages([{ kind: 'request', prompt: 'release-notes v2', command: 'use' }, response('Notes written.', [started])], big);
    assert.deepEqual(
      conversation.messages.map((message) => [message.role, message.parts.map((part) => (part.kind === 'text' ? part.text : part.kind))]),
      [
        ['user', ['/use release-notes v2']],
        ['user', [userInvocationText(started)]],
        ['assistant', ['Notes written.']],
      ],
    );
    assert.match(userInvocationText(started), /^I am starting the skill "release-notes" with the arguments: v2\. Follow its instructions:\n\n<skill/);
  });

  it('replays a forked run as its report, and never counts it as loaded', () => {
    const forkedByModel = activation('audit', { forked: true, text: 'Skill "audit" ran in isolation (context: fork) and reported:\n\nAll good.' });
    const forkedByUser = activation('audit', { forked: true, invokedBy: 'user', text: 'All good.' });
    const conversation = conversationMessages(
      [{ kind: 'request', prompt: 'audit it' }, response('Audited.', [forkedByModel]), { kind: 'request', prompt: 'audit', command: 'use' }, response('All good.', [forkedByUser])],
      big,
    );
    assert.deepEqual(conversation.loaded, []);
    const results = conversation.messages.flatMap((message) => message.parts).filter((part) => part.kind === 'toolResult');
    assert.equal(results.length, 1);
    // The /use fork's report is the response text; it is not repeated as a user message.
    assert.deepEqual(
      conversation.messages.slice(-2).map((message) => message.role),
      ['user', 'assistant'],
    );
  });

  it('keeps a request that got no response, and a response without a request', () => {
    const conversation = conversationMessages([response('orphan'), { kind: 'request', prompt: 'cancelled one' }, { kind: 'request', prompt: 'next' }, response('answer')], big);
    assert.deepEqual(
      conversation.messages.map((message) => message.role),
      ['assistant', 'user', 'user', 'assistant'],
    );
  });

  it('remembers that the Restricted Mode notice was shown', () => {
    assert.equal(conversationMessages([{ kind: 'request', prompt: 'x' }, response('a', [], { restrictedNoticeShown: true })], big).restrictedNoticeShown, true);
    assert.equal(conversationMessages([{ kind: 'request', prompt: 'x' }, response('a')], big).restrictedNoticeShown, false);
  });
});

describe('findLoadedActivation', () => {
  const loaded = [activation('pdf', { arguments: ' a.pdf ' }), activation('plain'), activation('audit', { forked: true })];

  it('finds a skill loaded with the same arguments', () => {
    assert.equal(findLoadedActivation(loaded, 'pdf', 'a.pdf')?.name, 'pdf');
    assert.equal(findLoadedActivation(loaded, 'plain', undefined)?.name, 'plain');
    assert.equal(findLoadedActivation(loaded, 'plain', '  ')?.name, 'plain');
  });

  it('loads again with other arguments, and always runs forked skills anew', () => {
    assert.equal(findLoadedActivation(loaded, 'pdf', 'b.pdf'), undefined);
    assert.equal(findLoadedActivation(loaded, 'audit', undefined), undefined);
  });
});

describe('carriedBudgetChars', () => {
  it('is a share of the model window, with a fallback when it is unknown', () => {
    assert.equal(carriedBudgetChars(100_000), 120_000);
    assert.equal(carriedBudgetChars(8_000), 9_600);
    assert.equal(carriedBudgetChars(undefined), 120_000);
    assert.equal(carriedBudgetChars(0), 120_000);
  });
});

describe('turn metadata fields', () => {
  it('stores the command of a turn when there is one', () => {
    assert.deepEqual(emptyTurnMetadata('use'), { command: 'use', activatedSkills: [], toolRounds: 0, suggestedSkills: [] });
    assert.equal(readTurnMetadata({ command: 'list' }).command, 'list');
    assert.equal('command' in readTurnMetadata({ command: 3 }), false);
  });

  it('keeps only activations with a name, file, text, who invoked them and string arguments', () => {
    const good = activation('pdf');
    const bad: unknown[] = [null, { ...good, name: 1 }, { ...good, file: undefined }, { ...good, text: [] }, { ...good, invokedBy: 'someone' }, { ...good, arguments: 5 }];
    assert.deepEqual(readTurnMetadata({ activatedSkills: [...bad, good, { ...good, invokedBy: 'user', arguments: 'x' }] }).activatedSkills, [good, { ...good, invokedBy: 'user', arguments: 'x' }]);
  });
});

describe('skill texts for the model', () => {
  it('starts a /use skill with its trimmed arguments, or none', () => {
    assert.equal(userInvocationText({ name: 'pdf', arguments: '  a.pdf ', text: 'Body.' }), 'I am starting the skill "pdf" with the arguments: a.pdf. Follow its instructions:\n\nBody.');
    assert.equal(userInvocationText({ name: 'pdf', text: 'Body.' }), 'I am starting the skill "pdf". Follow its instructions:\n\nBody.');
  });

  it('reports a forked run trimmed, and says when it reported nothing', () => {
    assert.equal(forkResultText('audit', '\n All good. \n'), 'Skill "audit" ran in isolation (context: fork) and reported:\n\nAll good.');
    assert.equal(forkResultText('audit', '  '), 'Skill "audit" ran in isolation (context: fork) and reported:\n\n(no output)');
  });

  it('tells the model where the instructions of a loaded skill already are', () => {
    assert.equal(
      alreadyLoadedText('pdf'),
      'Skill "pdf" is already loaded in this conversation: its instructions are in an earlier skills_activate result. Follow them; call skills_activate again only with different arguments.',
    );
  });
});

describe('conversationMessages budget and replay', () => {
  const turn = (prompt: string, activations: SkillActivationRecord[], text = 'ok'): ConversationTurn[] => [{ kind: 'request', prompt }, response(text, activations)];

  it('treats arguments that differ only in spaces, or absent and blank ones, as the same load', () => {
    const conversation = conversationMessages(
      [
        ...turn('one', [activation('pdf', { arguments: 'x', text: 'a' }), activation('plain', { text: 'b' })]),
        ...turn('two', [activation('pdf', { arguments: ' x ', text: 'c' }), activation('plain', { arguments: '  ', text: 'd' })]),
      ],
      big,
    );
    assert.deepEqual(
      conversation.loaded.map((skill) => skill.text),
      ['c', 'd'],
    );
  });

  it('keeps a text that fills the budget exactly', () => {
    assert.deepEqual(conversationMessages(turn('one', [activation('pdf', { text: 'x'.repeat(10) })]), { maxCarriedChars: 10 }).dropped, []);
  });

  it('reports each dropped skill once, never a forked run, and not a skill still loaded with other arguments', () => {
    const conversation = conversationMessages(
      [
        ...turn('one', [activation('old', { arguments: '1', text: 'x'.repeat(50) }), activation('old', { arguments: '2', text: 'x'.repeat(50) })]),
        ...turn('two', [activation('audit', { forked: true, text: 'z' })]),
        ...turn('three', [activation('report', { forked: true, text: 'x'.repeat(50) }), activation('pdf', { arguments: 'big', text: 'x'.repeat(50) })]),
        ...turn('four', [activation('audit', { text: 'x'.repeat(50) })]),
        ...turn('five', [activation('pdf', { arguments: 'small', text: 'y' })]),
      ],
      { maxCarriedChars: 10 },
    );
    assert.deepEqual(conversation.dropped, ['audit', 'old']);
    assert.deepEqual(
      conversation.loaded.map((skill) => skill.name),
      ['pdf'],
    );
  });

  it('replays a command without a prompt, a call without arguments, and skips blank answers', () => {
    const conversation = conversationMessages([{ kind: 'request', prompt: '', command: 'list' }, response('  '), { kind: 'request', prompt: 'go' }, response('', [activation('pdf')])], big);
    assert.deepEqual(conversation.messages, [
      { role: 'user', parts: [{ kind: 'text', text: '/list' }] },
      { role: 'user', parts: [{ kind: 'text', text: 'go' }] },
      { role: 'assistant', parts: [{ kind: 'toolCall', callId: 'skills-turn1-0', name: 'skills_activate', input: { name: 'pdf' } }] },
      { role: 'user', parts: [{ kind: 'toolResult', callId: 'skills-turn1-0', text: activation('pdf').text }] },
    ]);
  });

  it('replays a forked /use as its answer alone', () => {
    const conversation = conversationMessages(
      [{ kind: 'request', prompt: 'audit', command: 'use' }, response('All good.', [activation('audit', { forked: true, invokedBy: 'user', text: 'All good.' })])],
      big,
    );
    assert.deepEqual(
      conversation.messages.map((message) => message.role),
      ['user', 'assistant'],
    );
  });

  it('remembers the Restricted Mode notice from any earlier turn', () => {
    assert.equal(conversationMessages([...turn('x', []), { kind: 'request', prompt: 'y' }, response('b', [], { restrictedNoticeShown: true }), ...turn('z', [])], big).restrictedNoticeShown, true);
  });
});

describe('carriedBudgetChars edges', () => {
  it('falls back when the window is negative', () => {
    assert.equal(carriedBudgetChars(-8_000), 120_000);
  });
});
