import * as assert from 'node:assert/strict';
import {
  CANCELLED_MESSAGE,
  chooseForkModel,
  describeModelError,
  describeRefusal,
  findModel,
  staleSkillNote,
  forkMessages,
  isCancellation,
  NO_MODEL_MESSAGE,
  oneLineMessage,
  renderInstructions,
  SKILLS_DISABLED_MESSAGE,
  requestPrompt,
} from '../../../../src/core/chat/prompt';
import { fakeRecord } from '../../../fixtures/trees/tree';

describe('renderInstructions', () => {
  const catalogText = '<available_skills>\npdf: PDFs.\n</available_skills>';

  it('explains the three tools and carries the catalog verbatim', () => {
    const text = renderInstructions({ catalogText, loadedNames: [] });
    for (const tool of ['skills_activate', 'skills_find', 'skills_readResource']) {
      assert.ok(text.includes(tool), tool);
    }
    assert.ok(text.includes(`\n${catalogText}`));
    assert.doesNotMatch(text, /Already loaded|not trusted/);
  });

  it('names the skills already loaded, once each, and those that fell out of context', () => {
    const text = renderInstructions({ catalogText, loadedNames: ['pdf', 'docx', 'pdf'], droppedNames: ['old', 'pdf'] });
    assert.match(text, /Already loaded in this conversation \(their instructions are above; do not load them again\): pdf, docx\./);
    assert.match(text, /no longer in context \(load again if needed\): old\./);
  });

  it('says that workspace skills are withheld, without naming them', () => {
    assert.match(renderInstructions({ catalogText, loadedNames: [], untrustedCount: 2 }), /2 skills of this workspace are not available because the workspace is not trusted\. Do not ask for them\./);
  });
});

describe('forkMessages', () => {
  it('gives the isolated run only the skill and the task', () => {
    const messages = forkMessages('<skill name="audit" dir="/a">\nAudit.\n</skill>', ' check src ');
    assert.equal(messages.length, 2);
    assert.ok(messages.every((message) => message.role === 'user'));
    assert.match(messages[0].parts[0].kind === 'text' ? messages[0].parts[0].text : '', /in isolation[\s\S]*<skill name="audit"/);
    assert.deepEqual(messages[1].parts, [{ kind: 'text', text: 'Task: check src' }]);
    assert.deepEqual(forkMessages('x', '  ')[1].parts, [{ kind: 'text', text: "Task: Carry out the skill's instructions." }]);
  });
});

describe('chooseForkModel', () => {
  const user = { id: 'user-model', family: 'gpt-x', name: 'User Model' };
  const small = { id: 'small-1', family: 'small', name: 'Small' };
  const available = [user, small];

  it('uses the user model when the skill names none, or names it', () => {
    assert.deepEqual(chooseForkModel('audit', undefined, available, user), { model: user });
    assert.deepEqual(chooseForkModel('audit', 'GPT-X', available, user), { model: user });
  });

  it('picks the named model by family or id', () => {
    assert.deepEqual(chooseForkModel('audit', 'small', available, user), { model: small });
    assert.deepEqual(chooseForkModel('audit', 'small-1', available, user), { model: small });
  });

  it('falls back to the user model with a note when the named one is missing', () => {
    assert.deepEqual(chooseForkModel('audit', 'huge', available, user), {
      model: user,
      note: 'Skill "audit" asks for the model "huge", which is not available; it ran on User Model instead.',
    });
  });
});

describe('model error messages', () => {
  function languageModelError(code: string, message: string): Error {
    return Object.assign(new Error(message), { name: `${code}`, code });
  }

  it('explains each kind of language model error in one line', () => {
    assert.equal(describeModelError(languageModelError('NoPermissions', 'consent denied')), 'The model cannot be used: permission was not granted (consent denied).');
    assert.match(describeModelError(languageModelError('Blocked', 'rate limited')), /^The model refused the request \(blocked: rate limited\)\./);
    assert.match(describeModelError(languageModelError('NotFound', '')), /^The selected model is not available\. Pick another model/);
    assert.equal(describeModelError(new Error('overloaded\n    at frame (file.js:1:1)')), 'The model failed: overloaded');
    assert.equal(describeModelError('plain string'), 'The model failed: plain string');
  });

  it('recognises cancellation', () => {
    const cancelled = Object.assign(new Error('Canceled'), { name: 'Canceled' });
    assert.equal(isCancellation(cancelled), true);
    assert.equal(describeModelError(cancelled), CANCELLED_MESSAGE);
    assert.equal(CANCELLED_MESSAGE, 'Cancelled.');
    assert.equal(isCancellation(new Error('other')), false);
  });

  it('says what to do when no model is available or skills are turned off', () => {
    assert.match(NO_MODEL_MESSAGE, /^No language model is available\. Pick or enable a model/);
    assert.match(SKILLS_DISABLED_MESSAGE, /^Skills are turned off \(setting agentSkills\.enabled\)\. Turn them on/);
  });

  it('keeps messages to one short line', () => {
    assert.equal(oneLineMessage('\n\n  first line  \nsecond'), 'first line');
    assert.equal(oneLineMessage('x'.repeat(400)).length, 300);
  });
});

describe('describeRefusal', () => {
  it('does not repeat the name when the reason already starts with it', () => {
    assert.equal(
      describeRefusal('commit-messages', 'Skill "commit-messages" is not allowed in this workspace (setting agentSkills.allowlist). Allowed skills: pdf.'),
      'Skill "commit-messages" is not allowed in this workspace (setting agentSkills.allowlist). Allowed skills: pdf.',
    );
  });

  it('gives the first sentences of the explanation the model got', () => {
    assert.equal(describeRefusal('pdff', 'No skill named "pdff". Did you mean: pdf? Available skills: pdf, docx, slides.'), 'Skill "pdff" was not loaded: No skill named "pdff". Did you mean: pdf?');
  });
});

describe('findModel', () => {
  const models = [
    { id: 'gpt-x', family: 'gpt', name: 'GPT X' },
    { id: 'gpt-y', family: 'gpt', name: 'GPT Y' },
    { id: 'claude', family: 'claude-family', name: 'Claude' },
  ];

  it('prefers an id, then the first of a family, case and spaces aside', () => {
    assert.equal(findModel(' GPT-Y ', models)?.name, 'GPT Y');
    assert.equal(findModel('gpt', models)?.name, 'GPT X');
    assert.equal(findModel('claude-family', models)?.name, 'Claude');
    assert.equal(findModel('other', models), undefined);
    assert.equal(findModel('  ', models), undefined);
  });
});

describe('requestPrompt', () => {
  it("sends the instructions, the earlier turns, then the user's text", () => {
    const history = [{ role: 'assistant' as const, parts: [{ kind: 'text' as const, text: 'earlier answer' }] }];
    const instructions = { catalogText: '<available_skills>\n</available_skills>', loadedNames: ['pdf'] };
    assert.deepEqual(requestPrompt(instructions, history, 'next'), [
      { role: 'user', parts: [{ kind: 'text', text: renderInstructions(instructions) }] },
      ...history,
      { role: 'user', parts: [{ kind: 'text', text: 'next' }] },
    ]);
  });
});

describe('staleSkillNote', () => {
  it('says that the last valid version of a broken skill was used, and why', () => {
    const error = {
      code: 'yaml-syntax',
      severity: 'error' as const,
      message: 'Invalid YAML in the frontmatter.\nFix it.',
      file: '/s/pdf/SKILL.md',
      range: { start: { line: 2, column: 0 }, end: { line: 2, column: 4 } },
    };
    assert.equal(
      staleSkillNote(fakeRecord('pdf', 'x', { stale: true, status: 'available', diagnostics: [error] })),
      '_The SKILL.md of pdf has an error now (line 3: Invalid YAML in the frontmatter. Fix it.); its last valid version was used. Fix the file to use your latest edit._',
    );
  });
});

describe('renderInstructions in full', () => {
  it('is the role, the tool rules, the catalog, then what is loaded, what fell out of context and what is withheld', () => {
    const usage = [
      "- When a skill below covers the request, call skills_activate with its exact name (and the user's arguments, if any) before you start, then follow the instructions it returns.",
      '- When no listed skill clearly fits, or skills are listed by name only, call skills_find with a few words describing the task.',
      "- Read a skill's files with skills_readResource only when its instructions point to them.",
    ];
    const head = [
      "You are @skills in VS Code. You complete the user's request with the help of Agent Skills: folders of instructions, and sometimes files, written for particular tasks.",
      '',
      ...usage,
      '- When no skill applies, answer directly and say that no skill was used.',
      '',
      'CATALOG',
    ];
    assert.equal(renderInstructions({ catalogText: 'CATALOG', loadedNames: [] }), head.join('\n'));
    assert.equal(
      renderInstructions({ catalogText: 'CATALOG', loadedNames: ['pdf'], droppedNames: ['old', 'older'], untrustedCount: 1 }),
      [
        ...head,
        '',
        'Already loaded in this conversation (their instructions are above; do not load them again): pdf.',
        '',
        'Loaded earlier but no longer in context (load again if needed): old, older.',
        '',
        '1 skill of this workspace is not available because the workspace is not trusted. Do not ask for them.',
      ].join('\n'),
    );
  });
});

describe('forkMessages in full', () => {
  it('frames the skill for its isolated run', () => {
    const first = forkMessages('SKILL', 'task')[0].parts[0];
    assert.equal(
      first.kind === 'text' && first.text,
      'You carry out one Agent Skill in isolation: you see its instructions and the task, not the conversation it came from.\nFollow the instructions, then reply with the result, concisely, for the person who asked.\n\nSKILL',
    );
  });
});

describe('fork model hints', () => {
  const user = { id: 'user-model', family: 'gpt-x', name: 'User Model' };

  it('ignores a blank hint, and names a missing model as the skill wrote it, trimmed', () => {
    assert.deepEqual(chooseForkModel('audit', '  ', [user], user), { model: user });
    assert.deepEqual(chooseForkModel('audit', ' Huge ', [user], user), { model: user, note: 'Skill "audit" asks for the model "Huge", which is not available; it ran on User Model instead.' });
  });

  it('finds no model for a blank hint, even one without a family', () => {
    assert.equal(findModel(' ', [{ id: 'x', family: '' }]), undefined);
  });
});

describe('model error messages in full', () => {
  const failure = (fields: Record<string, unknown>) => Object.assign(new Error(typeof fields.message === 'string' ? fields.message : ''), fields);

  it('says each kind of failure with or without a detail', () => {
    assert.equal(describeModelError(failure({ code: 'NoPermissions', message: '' })), 'The model cannot be used: permission was not granted.');
    assert.equal(describeModelError(failure({ code: 'Blocked', message: '' })), 'The model refused the request (blocked). Try again later or pick another model.');
    assert.equal(describeModelError(failure({ code: 'NotFound', message: 'gone' })), 'The selected model is not available (gone). Pick another model in the chat view.');
    assert.equal(describeModelError(new Error('')), 'The model failed without saying why.');
    assert.equal(describeModelError(undefined), 'The model failed: undefined');
    assert.equal(describeModelError(null), 'The model failed: null');
    assert.equal(describeModelError({ message: 42, toString: () => 'quota exceeded' }), 'The model failed: quota exceeded');
  });

  it('recognises cancellation by either error name, or by its message alone', () => {
    assert.equal(isCancellation(failure({ name: 'Canceled', message: 'stopped' })), true);
    assert.equal(isCancellation(failure({ name: 'CancellationError', message: 'stopped' })), true);
    assert.equal(isCancellation(failure({ name: 'Error', message: 'Canceled' })), true);
    assert.equal(isCancellation(failure({ name: 'Error', message: 'stopped' })), false);
  });

  it('skips blank lines and keeps a line of exactly the limit whole', () => {
    assert.equal(oneLineMessage('   \nsecond'), 'second');
    assert.equal(oneLineMessage('y'.repeat(300)), 'y'.repeat(300));
    assert.equal(oneLineMessage('z'.repeat(301)), `${'z'.repeat(299)}…`);
  });
});

describe('staleSkillNote without an error', () => {
  it('says the last valid version was used, without a line', () => {
    assert.equal(
      staleSkillNote(fakeRecord('pdf', 'x', { stale: true, diagnostics: [] })),
      '_The SKILL.md of pdf has an error now; its last valid version was used. Fix the file to use your latest edit._',
    );
  });
});

describe('describeRefusal spacing', () => {
  it('joins the first two sentences with one space', () => {
    assert.equal(describeRefusal('pdf', 'One.  Two.\n\nThree.'), 'Skill "pdf" was not loaded: One. Two.');
  });
});
