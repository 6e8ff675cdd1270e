// "Demo model (scripted)": a chat model for `npm start`, so `@skills` answers without an account.
// It does no real work and says so. For a free-form request it behaves like a model that uses
// skills well: it searches the skills (skills_find), loads the best match (skills_activate) and
// replies with a short summary of what that skill says to do.
// Plain JavaScript with no dependencies, so it can be copied into an extensions folder as it is.
'use strict';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- VS Code loads extensions with require()
const vscode = require('vscode');

const vendor = 'agent-skills-demo';
const findTool = 'skills_find';
const activateTool = 'skills_activate';
const label = 'Demo model (scripted)';
const maxStepsShown = 6;
const skillNamePattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

function activate(context) {
  const provider = {
    provideLanguageModelChatInformation() {
      return [
        {
          id: 'demo-model',
          name: label,
          family: 'demo',
          version: '1',
          detail: 'no account needed; summarises skills instead of doing the work',
          tooltip: 'A scripted model for the Agent Skills demo. Pick a real model to get real answers.',
          maxInputTokens: 128000,
          maxOutputTokens: 4000,
          capabilities: { toolCalling: true, imageInput: false },
          isUserSelectable: true,
          isDefault: true,
        },
      ];
    },
    async provideLanguageModelChatResponse(_model, messages, options, progress) {
      const next = nextStep(messages.map(readMessage), options.tools ?? []);
      if (next.toolCall) {
        progress.report(new vscode.LanguageModelToolCallPart(`demo-${Date.now()}`, next.toolCall.name, next.toolCall.input));
      } else {
        progress.report(new vscode.LanguageModelTextPart(next.text));
      }
    },
    async provideTokenCount(_model, text) {
      const plain = typeof text === 'string' ? text : readMessage(text).texts.join('\n');
      return Math.ceil(plain.length / 4);
    },
  };
  context.subscriptions.push(vscode.lm.registerLanguageModelChatProvider(vendor, provider));
  // VS Code asks providers for their models lazily; asking once puts this one in the chat view's picker.
  void vscode.lm.selectChatModels({ vendor });
}

/**
 * One step of a tool-calling conversation. The conversation's own tool results tell how far this
 * request got, so the model keeps no state between calls.
 */
function nextStep(conversation, tools) {
  const promptIndex = findLastIndex(conversation, (message) => message.role === 'user' && message.results.length === 0 && message.texts.join('').trim() !== '');
  const prompt = promptIndex >= 0 ? userRequest(conversation[promptIndex].texts.join('\n')) : '';
  const sincePrompt = conversation.slice(promptIndex + 1);
  const toolNameOfCall = new Map(sincePrompt.flatMap((message) => message.calls).map((call) => [call.callId, call.name]));
  const results = sincePrompt.flatMap((message) => message.results).map((result) => ({ tool: toolNameOfCall.get(result.callId), text: result.text }));
  const offered = new Set(tools.map((tool) => tool.name));

  // A skill already in front of the model (loaded by the tool, or by `/use`) is followed at once.
  const loadedSkill = [...results.map((result) => result.text), ...conversation.slice(Math.max(promptIndex, 0)).flatMap((message) => message.texts)]
    .map(skillElement)
    .findLast((skill) => skill !== undefined);
  if (loadedSkill) {
    return { text: followSkill(loadedSkill, prompt) };
  }
  const activation = results.findLast((result) => result.tool === activateTool);
  if (activation) {
    return { text: `**${label}**: loading the skill failed:\n\n> ${activation.text.trim().replace(/\n/g, '\n> ')}` };
  }
  const search = results.findLast((result) => result.tool === findTool);
  if (search) {
    const name = bestMatch(search.text, knownSkillNames(conversation));
    if (name && offered.has(activateTool)) {
      return { toolCall: { name: activateTool, input: { name } } };
    }
    return { text: `**${label}**: no skill matches “${prompt}”. Try \`@skills /list\` to see them all.` };
  }
  if (offered.has(findTool) && prompt !== '') {
    return { toolCall: { name: findTool, input: { query: prompt } } };
  }
  return {
    text: `**${label}**: I am a scripted stand-in for a chat model. Ask \`@skills\` for a task (for example “write a commit message for the tags change”) and I will pick the matching skill with the skill tools and summarise what it says to do.`,
  };
}

/** The user's own words: instructions the participant wraps around them are XML-like blocks. */
function userRequest(text) {
  const withoutBlocks = text.replace(/<([a-z_]+)[^>]*>[\s\S]*?<\/\1>/g, ' ').replace(/\s+/g, ' ').trim();
  return withoutBlocks.length > 300 ? withoutBlocks.slice(-300) : withoutBlocks;
}

/** Names the catalog lists: `name: description` lines, and the names-only overflow list. */
function knownSkillNames(conversation) {
  const names = new Set();
  for (const text of conversation.flatMap((message) => message.texts)) {
    for (const block of text.match(/<available_skills>[\s\S]*?<\/available_skills>/g) ?? []) {
      for (const line of block.split('\n')) {
        const described = /^([a-z0-9-]+): /.exec(line.trim());
        if (described) {
          names.add(described[1]);
        } else if (line.includes('(call')) {
          for (const listed of line.slice(line.indexOf(':') + 1).split(/[,\s]+/)) {
            if (skillNamePattern.test(listed)) {
              names.add(listed);
            }
          }
        }
      }
    }
  }
  return names;
}

/** The first skill the search result names: a catalog name if the catalog is known, else the first listed name. */
function bestMatch(searchResult, catalogNames) {
  let best;
  for (const name of catalogNames) {
    const position = searchResult.search(new RegExp(`(^|[^a-z0-9-])${name}($|[^a-z0-9-])`));
    if (position >= 0 && (best === undefined || position < best.position)) {
      best = { name, position };
    }
  }
  if (best) {
    return best.name;
  }
  for (const line of searchResult.split('\n')) {
    const listed = /^\s*(?:[-*]|\d+[.)])?\s*[*`"]*([a-z0-9]+(?:-[a-z0-9]+)*)[*`"]*\s*(?:[:(—–-]|$)/.exec(line);
    if (listed) {
      return listed[1];
    }
  }
  return undefined;
}

/** `<skill name="…" dir="…">body</skill>`, as the activation tool returns it. */
function skillElement(text) {
  const match = /<skill name="([^"]*)"[^>]*>([\s\S]*?)(?:<\/skill>|$)/.exec(text);
  return match ? { name: match[1], body: match[2] } : undefined;
}

/** A reply that follows the loaded skill as far as a script can: its title and its steps. */
function followSkill(skill, prompt) {
  const body = skill.body.replace(/\nResource files[\s\S]*$/, '');
  const title = /^#\s+(.+)$/m.exec(body)?.[1] ?? skill.name;
  const steps = body
    .split('\n')
    .filter((line) => /^(\d+\.|-)\s+\S/.test(line))
    .slice(0, maxStepsShown)
    .map((line) => line.replace(/^(\d+\.|-)\s+/, ''));
  const firstParagraph = body
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .find((paragraph) => paragraph !== '' && !paragraph.startsWith('#'));
  const plan = steps.length > 0 ? steps.map((step, index) => `${index + 1}. ${step}`).join('\n') : firstParagraph ?? '(the skill has no instructions)';
  const request = prompt === '' ? '' : ` for “${prompt}”`;
  return [
    `Using the skill **${skill.name}** (${title})${request}. Following its instructions, I would:`,
    '',
    plan,
    '',
    `_${label}: it finds and loads the right skill, then shows its steps instead of doing the work. Pick another model in the chat view for real answers._`,
  ].join('\n');
}

/** Parts arrive as revived objects from another process, so they are told apart by shape. */
function readMessage(message) {
  const texts = [];
  const calls = [];
  const results = [];
  for (const part of message.content) {
    if (part && typeof part.value === 'string') {
      texts.push(part.value);
    } else if (part && typeof part.callId === 'string' && Array.isArray(part.content)) {
      results.push({ callId: part.callId, text: part.content.map((inner) => (inner && typeof inner.value === 'string' ? inner.value : '')).join('') });
    } else if (part && typeof part.callId === 'string' && typeof part.name === 'string') {
      calls.push({ callId: part.callId, name: part.name });
    }
  }
  const role = message.role === vscode.LanguageModelChatMessageRole.Assistant ? 'assistant' : message.role === vscode.LanguageModelChatMessageRole.User ? 'user' : 'system';
  return { role, texts, calls, results };
}

function findLastIndex(items, predicate) {
  for (let index = items.length - 1; index >= 0; index--) {
    if (predicate(items[index])) {
      return index;
    }
  }
  return -1;
}

module.exports = { activate };
