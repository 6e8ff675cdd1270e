// What the demo model answers, decided from the conversation alone (no state between requests,
// no 'vscode' import, so unit tests can drive it with the core's real catalog and tool texts).

import { draftQueries, readDraftRequest } from './draft';

export const findToolName = 'skills_find';
export const activateToolName = 'skills_activate';
export const demoModelLabel = 'Demo model (scripted)';

/** A chat message reduced to what the demo model reads. */
export interface ConversationMessage {
  readonly role: 'user' | 'assistant' | 'system';
  readonly texts: readonly string[];
  readonly calls: readonly { readonly callId: string; readonly name: string }[];
  readonly results: readonly { readonly callId: string; readonly text: string }[];
}

export type DemoAnswer = { readonly text: string } | { readonly toolCall: { readonly name: string; readonly input: Record<string, string> } };

interface LoadedSkill {
  readonly name: string;
  readonly body: string;
}

const maxStepsShown = 6;
const maxQueryLength = 300;
const skillNamePattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * One step of a tool-calling conversation: search the skills, load the best match, then reply with
 * what it says to do. The tool results already in the conversation tell how far it got.
 */
export function nextAnswer(conversation: readonly ConversationMessage[], offeredTools: readonly string[]): DemoAnswer {
  const promptIndex = findLastIndex(conversation, (message) => message.role === 'user' && message.results.length === 0 && message.texts.join('').trim() !== '');
  // Skills: Draft Trigger Tests… asks for a JSON array of queries, with no tools.
  const draftRequest = promptIndex >= 0 ? readDraftRequest(conversation[promptIndex].texts.join('\n')) : undefined;
  if (draftRequest) {
    return { text: JSON.stringify(draftQueries(draftRequest), undefined, 2) };
  }
  const prompt = promptIndex >= 0 ? userRequest(conversation[promptIndex].texts.join('\n')) : '';
  const sincePrompt = conversation.slice(promptIndex + 1);
  const toolOfCall = new Map(sincePrompt.flatMap((message) => message.calls).map((call) => [call.callId, call.name]));
  const results = sincePrompt.flatMap((message) => message.results).map((result) => ({ tool: toolOfCall.get(result.callId), text: result.text }));

  // A skill already in front of the model is followed at once. Given by `/use`, it comes inside the
  // request, whose remaining words are then the participant's, not the user's: not quoted back.
  const loadedByTool = lastSkillElement(results.map((result) => result.text));
  // An isolated run of a `context: fork` skill has no answer yet: its skill comes in a message of its own, before the task.
  const isolated = !conversation.some((message) => message.role === 'assistant');
  const givenInRequest = lastSkillElement(conversation.slice(isolated ? 0 : Math.max(promptIndex, 0)).flatMap((message) => message.texts));
  if (loadedByTool) {
    return { text: followSkill(loadedByTool, prompt) };
  }
  if (givenInRequest) {
    return { text: followSkill(givenInRequest, '') };
  }
  const activation = results.filter((result) => result.tool === activateToolName).at(-1);
  const forked = activation && /^Skill "([^"]+)" ran in isolation/.exec(activation.text);
  if (forked) {
    // Its run already streamed its answer into the chat; repeating it would say everything twice.
    return { text: `**${demoModelLabel}**: the skill **${forked[1]}** ran in isolation; its answer is above.` };
  }
  if (activation) {
    return { text: `**${demoModelLabel}**: loading the skill failed:\n\n> ${activation.text.trim().replace(/\n/g, '\n> ')}` };
  }
  const search = results.filter((result) => result.tool === findToolName).at(-1);
  if (search) {
    const name = bestMatch(search.text, catalogNames(conversation));
    if (name && offeredTools.includes(activateToolName)) {
      return { toolCall: { name: activateToolName, input: { name } } };
    }
    return { text: `**${demoModelLabel}**: no skill matches “${prompt}”. Try \`@skills /list\` to see them all.` };
  }
  if (offeredTools.includes(findToolName) && prompt !== '') {
    return { toolCall: { name: findToolName, input: { query: prompt } } };
  }
  return {
    text: `**${demoModelLabel}**: a scripted stand-in for a chat model. Ask \`@skills\` for a task (for example “write a commit message for the tags change”) and it picks the matching skill with the skill tools and shows what that skill says to do.`,
  };
}

/** The user's own words: what a participant wraps around them comes in XML-like blocks. */
export function userRequest(text: string): string {
  const words = text
    .replace(/<([a-z_]+)[^>]*>[\s\S]*?<\/\1>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return words.length > maxQueryLength ? words.slice(-maxQueryLength) : words;
}

/** Names the `<available_skills>` catalog lists: `name: description` lines and the names-only line. */
export function catalogNames(conversation: readonly ConversationMessage[]): Set<string> {
  const names = new Set<string>();
  for (const text of conversation.flatMap((message) => message.texts)) {
    for (const block of text.match(/<available_skills>[\s\S]*?<\/available_skills>/g) ?? []) {
      for (const line of block.split('\n').slice(1, -1)) {
        const described = /^([a-z0-9-]+): /.exec(line.trim());
        if (described) {
          names.add(described[1]);
          continue;
        }
        // The names-only line of skills past the budget: `…: a, b, c …and 3 more (…)`.
        const listed = line
          .slice(line.indexOf(':') + 1)
          .split('…')[0]
          .split(',')
          .map((word) => word.trim());
        if (listed.every((word) => skillNamePattern.test(word))) {
          listed.forEach((word) => names.add(word));
        }
      }
    }
  }
  return names;
}

/** The first skill a search result names: a catalog name when the catalog is known, else the first listed name. */
export function bestMatch(searchResult: string, knownNames: ReadonlySet<string>): string | undefined {
  let best: { name: string; position: number } | undefined;
  for (const name of knownNames) {
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

function lastSkillElement(texts: readonly string[]): LoadedSkill | undefined {
  return texts
    .map(skillElement)
    .filter((skill): skill is LoadedSkill => skill !== undefined)
    .at(-1);
}

/** `<skill name="…" dir="…">body</skill>`, as the activation tool returns a skill. */
function skillElement(text: string): LoadedSkill | undefined {
  const match = /<skill name="([^"]*)"[^>]*>([\s\S]*?)(?:<\/skill>|$)/.exec(text);
  return match ? { name: match[1], body: match[2] } : undefined;
}

/**
 * A reply that follows the loaded skill as far as a script can: its numbered steps when it has
 * them, else its opening instructions and what its sections cover.
 */
export function followSkill(skill: LoadedSkill, prompt: string): string {
  const body = skill.body.replace(/\nResource files[\s\S]*$/, '').replace(/```[\s\S]*?```/g, '');
  const title = /^#\s+(.+)$/m.exec(body)?.[1] ?? skill.name;
  const request = prompt === '' ? '' : ` for “${prompt}”`;
  const steps = numberedSteps(body).slice(0, maxStepsShown);
  const heading = `Following **${skill.name}** (${title})${request}`;
  let plan: string[];
  if (steps.length > 0) {
    plan = [`${heading}, I would:`, '', ...steps.map((step, index) => `${index + 1}. ${step}`)];
  } else {
    const paragraphs = body
      .split(/\n\s*\n/)
      .map((paragraph) => paragraph.replace(/\s*\n\s*/g, ' ').trim())
      // A paragraph ending in a colon introduces what follows (or an empty $ARGUMENTS): alone it reads cut off.
      .filter((paragraph) => paragraph !== '' && !paragraph.startsWith('#') && !/^[-*]\s/.test(paragraph) && !paragraph.endsWith(':'))
      .slice(0, 2);
    const sections = [...body.matchAll(/^##\s+(.+)$/gm)].map((match) => match[1].trim());
    plan = [`${heading}:`, '', paragraphs.map((paragraph) => `> ${paragraph}`).join('\n>\n'), ...(sections.length > 0 ? ['', `It also covers: ${sections.join(', ')}.`] : [])];
  }
  return [...plan, '', `_${demoModelLabel}: it shows what the skill says instead of doing the work._`].join('\n');
}

/** Top-level numbered list items, each with its wrapped continuation lines joined. */
function numberedSteps(body: string): string[] {
  const steps: string[] = [];
  let current: string | undefined;
  for (const line of body.split('\n')) {
    const item = /^\d+\.\s+(\S.*)$/.exec(line);
    if (item) {
      current = item[1].trim();
      steps.push(current);
    } else if (current !== undefined && /^\s+\S/.test(line) && !/^\s+([-*]|\d+\.)\s/.test(line)) {
      current = `${current} ${line.trim()}`;
      steps[steps.length - 1] = current;
    } else {
      current = undefined;
    }
  }
  return steps;
}

function findLastIndex<T>(items: readonly T[], predicate: (item: T) => boolean): number {
  for (let index = items.length - 1; index >= 0; index--) {
    if (predicate(items[index])) {
      return index;
    }
  }
  return -1;
}
