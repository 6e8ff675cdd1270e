// A language model for integration tests: it answers what the tests queued, in order, and records
// every request (messages, offered tools, options) so the tests can assert what a model was given.
// Plain JavaScript so it can be copied into a VS Code extensions folder as it is.
'use strict';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- VS Code loads extensions with require()
const vscode = require('vscode');

const vendor = 'scripted';
/** The model the chat view selects by default: most tests talk to it. */
const mainModel = { id: 'scripted-model', name: 'Scripted Model', family: 'scripted' };
/**
 * A second model of the same vendor, for features that pick a model themselves (a forked skill's
 * `model` field). It is selectable but never the default, so the chat view keeps the main model.
 */
const miniModel = { id: 'scripted-mini-model', name: 'Scripted Mini', family: 'scripted-mini' };

/** Roles as numbers in the API; names make recorded requests readable in assertion messages. */
const roleNames = { 1: 'user', 2: 'assistant', 3: 'system' };

function activate(context) {
  const queuedAnswers = [];
  const recordedRequests = [];
  const requestListeners = new Set();
  let defaultAnswer;
  let limits = { maxInputTokens: 128000, maxOutputTokens: 16000 };
  const modelsChanged = new vscode.EventEmitter();

  const provider = {
    onDidChangeLanguageModelChatInformation: modelsChanged.event,
    provideLanguageModelChatInformation() {
      return [mainModel, miniModel].map((model) => ({
        ...model,
        version: '1',
        detail: 'tests only',
        maxInputTokens: limits.maxInputTokens,
        maxOutputTokens: limits.maxOutputTokens,
        capabilities: { toolCalling: true, imageInput: false },
        // Read by the chat view's model picker; harmless where unknown.
        isUserSelectable: true,
        isDefault: model === mainModel,
      }));
    },
    async provideLanguageModelChatResponse(model, messages, options, progress, token) {
      const request = recordRequest(model, messages, options);
      const scripted = queuedAnswers.length > 0 ? queuedAnswers.shift() : defaultAnswer;
      const answer = typeof scripted === 'function' ? await scripted(request) : (scripted ?? echoAnswer(request));
      request.answer = answer;
      if (answer.delayMs) {
        await delayUnlessCancelled(answer.delayMs, token);
      }
      if (token.isCancellationRequested) {
        request.cancelled = true;
        return;
      }
      if (answer.error !== undefined) {
        throw toError(answer.error);
      }
      const chunks = answer.text === undefined ? [] : Array.isArray(answer.text) ? answer.text : [answer.text];
      for (const chunk of chunks) {
        progress.report(new vscode.LanguageModelTextPart(chunk));
      }
      (answer.toolCalls ?? []).forEach((call, index) => {
        const callId = call.callId ?? `call-${request.index}-${index}`;
        progress.report(new vscode.LanguageModelToolCallPart(callId, call.name, call.input ?? {}));
      });
    },
    async provideTokenCount(_model, text) {
      const plain = typeof text === 'string' ? text : flattenMessage(text).text;
      // Roughly four characters a token, like common tokenizers on English text.
      return Math.ceil(plain.length / 4);
    },
  };

  function recordRequest(model, messages, options) {
    const request = {
      index: recordedRequests.length,
      modelId: model.id,
      family: model.family,
      messages: messages.map(flattenMessage),
      tools: (options.tools ?? []).map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema })),
      toolMode: options.toolMode === vscode.LanguageModelChatToolMode.Required ? 'required' : 'auto',
      modelOptions: options.modelOptions ?? {},
      requestInitiator: options.requestInitiator,
      cancelled: false,
      answer: undefined,
    };
    recordedRequests.push(request);
    for (const listener of [...requestListeners]) {
      listener();
    }
    return request;
  }

  context.subscriptions.push(modelsChanged, vscode.lm.registerLanguageModelChatProvider(vendor, provider), vscode.chat.createChatParticipant('agentskills-test.relay', relayToModel));

  return {
    vendor,
    modelId: mainModel.id,
    family: mainModel.family,
    models: [mainModel, miniModel].map((model) => ({ ...model })),
    queueAnswers(...answers) {
      queuedAnswers.push(...answers);
    },
    setDefaultAnswer(answer) {
      defaultAnswer = answer;
    },
    answerByRules(ruleSet) {
      defaultAnswer = ruleResponder(ruleSet);
    },
    pendingAnswers() {
      return queuedAnswers.length;
    },
    requests() {
      return [...recordedRequests];
    },
    waitForRequests(count, timeoutMs = 20000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (recordedRequests.length >= count) {
            finish();
            resolve([...recordedRequests]);
          }
        };
        const timer = setTimeout(() => {
          finish();
          reject(new Error(`The scripted model received ${recordedRequests.length} request(s) in ${timeoutMs} ms, expected ${count}.`));
        }, timeoutMs);
        const finish = () => {
          clearTimeout(timer);
          requestListeners.delete(check);
        };
        requestListeners.add(check);
        check();
      });
    },
    setModelLimits(newLimits) {
      limits = { ...limits, ...newLimits };
      modelsChanged.fire();
    },
    reset() {
      queuedAnswers.length = 0;
      recordedRequests.length = 0;
      defaultAnswer = undefined;
    },
  };
}

/** How many model round trips the relay makes before it gives up on a model that keeps calling tools. */
const relayMaxRounds = 6;

/**
 * `@relay`: a stand-in for any other chat agent (the built-in one needs a service that is not there
 * offline). It sends the prompt to the user's selected model with every registered tool, runs the
 * tools the model calls, and streams the model's text.
 */
async function relayToModel(request, _context, stream, token) {
  const tools = vscode.lm.tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }));
  const messages = [vscode.LanguageModelChatMessage.User(request.prompt)];
  for (let round = 0; round < relayMaxRounds; round++) {
    const response = await request.model.sendRequest(messages, { tools }, token);
    const calls = [];
    for await (const part of response.stream) {
      if (part instanceof vscode.LanguageModelTextPart) {
        stream.markdown(part.value);
      } else if (part instanceof vscode.LanguageModelToolCallPart) {
        calls.push(part);
      }
    }
    if (calls.length === 0) {
      return {};
    }
    messages.push(vscode.LanguageModelChatMessage.Assistant(calls));
    for (const call of calls) {
      stream.progress(`Running ${call.name}`);
      let content;
      try {
        content = (await vscode.lm.invokeTool(call.name, { input: call.input, toolInvocationToken: request.toolInvocationToken }, token)).content;
      } catch (error) {
        // Like chat agents do, a failing tool becomes an answer the model can react to.
        content = [new vscode.LanguageModelTextPart(`Error: ${error instanceof Error ? error.message : String(error)}`)];
      }
      messages.push(vscode.LanguageModelChatMessage.User([new vscode.LanguageModelToolResultPart(call.callId, content)]));
    }
  }
  stream.markdown(`Stopped after ${relayMaxRounds} rounds of tool calls.`);
  return {};
}

/**
 * A responder that decides like a model reading the catalog, by rule: the first rule with a keyword
 * in the user's query acts (activates its skill, searches first, fails, or answers in text);
 * otherwise the model answers without tools. `probability` flips a coin seeded by the rule set's
 * `seed`, the query and how often the query was asked, so a flaky case repeats exactly.
 */
function ruleResponder(ruleSet) {
  const asked = new Map();
  return (request) => {
    const query = userQuery(request);
    const lowered = query.toLowerCase();
    const rule = (ruleSet.rules ?? []).find((candidate) => candidate.keywords.some((keyword) => lowered.includes(keyword.toLowerCase())));
    const delay = ruleSet.delayMs ? { delayMs: ruleSet.delayMs } : {};
    const otherwise = { text: ruleSet.otherwise ?? `No skill fits "${query}"; answering directly.`, ...delay };
    if (!rule) {
      return otherwise;
    }
    if (rule.error) {
      return { error: rule.error, ...delay };
    }
    const afterSearch = lastMessageIsToolResult(request);
    if (!afterSearch) {
      const count = (asked.get(query) ?? 0) + 1;
      asked.set(query, count);
      if (rule.probability !== undefined && seededCoin(`${ruleSet.seed ?? 0}|${query}|${count}`) >= rule.probability) {
        return otherwise;
      }
      if (rule.findFirst) {
        return { toolCalls: [{ name: 'skills_find', input: { query } }], ...delay };
      }
    }
    return rule.activate ? { toolCalls: [{ name: 'skills_activate', input: { name: rule.activate } }], ...delay } : { text: rule.text ?? otherwise.text, ...delay };
  };
}

/** The user's own words: the last user message made of text (tool results come back as user messages too). */
function userQuery(request) {
  const message = [...request.messages].reverse().find((candidate) => candidate.role === 'user' && candidate.parts.every((part) => part.kind === 'text'));
  return message ? message.text : '';
}

function lastMessageIsToolResult(request) {
  const last = request.messages[request.messages.length - 1];
  return !!last && last.parts.some((part) => part.kind === 'toolResult');
}

/** A number in [0, 1) from a string: FNV-1a, then one round of a 32-bit mix. */
function seededCoin(key) {
  let hash = 0x811c9dc5;
  for (let index = 0; index < key.length; index++) {
    hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193);
  }
  hash = Math.imul(hash ^ (hash >>> 16), 0x45d9f3b);
  hash ^= hash >>> 16;
  return (hash >>> 0) / 4294967296;
}

function echoAnswer(request) {
  const lastUserMessage = [...request.messages].reverse().find((message) => message.role === 'user');
  const said = lastUserMessage ? lastUserMessage.text.slice(0, 200) : '';
  return { text: `Scripted model received: ${said}` };
}

function flattenMessage(message) {
  const parts = message.content.map(flattenPart);
  const text = parts.map((part) => (part.kind === 'text' || part.kind === 'toolResult' ? part.text : '')).join('');
  return { role: roleNames[message.role] ?? `role-${message.role}`, name: message.name, parts, text };
}

/** Parts cross the extension-host boundary as revived objects, so they are told apart by shape. */
function flattenPart(part) {
  if (part && typeof part.value === 'string') {
    return { kind: 'text', text: part.value };
  }
  if (part && typeof part.callId === 'string' && Array.isArray(part.content)) {
    return { kind: 'toolResult', callId: part.callId, text: part.content.map(partText).join('') };
  }
  if (part && typeof part.callId === 'string' && typeof part.name === 'string') {
    return { kind: 'toolCall', callId: part.callId, name: part.name, input: part.input };
  }
  return { kind: 'other', description: describe(part) };
}

function partText(part) {
  if (part && typeof part.value === 'string') {
    return part.value;
  }
  if (part && part.data instanceof Uint8Array) {
    return Buffer.from(part.data).toString('utf8');
  }
  return describe(part);
}

function describe(value) {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function toError(error) {
  const { message, code } = typeof error === 'string' ? { message: error, code: undefined } : error;
  if (code && typeof vscode.LanguageModelError[code] === 'function') {
    return vscode.LanguageModelError[code](message);
  }
  return new Error(message);
}

function delayUnlessCancelled(milliseconds, token) {
  return new Promise((resolve) => {
    const timer = setTimeout(done, milliseconds);
    const subscription = token.onCancellationRequested(done);
    function done() {
      clearTimeout(timer);
      subscription.dispose();
      resolve();
    }
  });
}

module.exports = { activate };
