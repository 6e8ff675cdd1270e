// Skills: Draft Trigger Tests…: what the model is asked for a first trigger-test file, and how its
// answer becomes that file (checked with the file's own rules before anyone sees it).

import type { PromptMessage } from '../chat/conversation';
import { parseTriggerTests, type TriggerQuery } from './trigger-file';

export interface DraftSkill {
  name: string;
  description: string;
}

/** The request: the skill, the other installed skills (near misses often belong to them), the format. */
export function draftPrompt(skill: DraftSkill, otherSkills: readonly DraftSkill[]): PromptMessage[] {
  const others = otherSkills.filter((other) => other.name !== skill.name);
  const text = [
    "You write trigger tests for an Agent Skill: user requests that check whether a chat model, seeing only the skill's name and description among other skills, loads it exactly when it should.",
    '',
    `The skill: ${skill.name}`,
    `Its description: ${skill.description}`,
    '',
    others.length > 0 ? `Other installed skills:\n${others.map((other) => `- ${other.name}: ${other.description}`).join('\n')}` : 'No other skills are installed.',
    '',
    'Write 8 to 10 requests that should load the skill: varied phrasing and length, realistic detail, most of them not naming the skill or its exact keywords.',
    'Write 8 to 10 near misses that should not load it: adjacent tasks, requests sharing its keywords but needing something else, and tasks another installed skill covers.',
    '',
    'Answer with only a JSON array, no prose: [{ "query": "…", "should_trigger": true }, …]',
  ].join('\n');
  return [{ role: 'user', parts: [{ kind: 'text', text }] }];
}

export type DraftResult = { ok: true; queries: Pick<TriggerQuery, 'query' | 'shouldTrigger'>[]; text: string } | { ok: false; message: string };

/** The model's answer (a JSON array, possibly in a code fence or with prose around it) as a file's text. */
export function draftFromAnswer(answer: string, file: string): DraftResult {
  const start = answer.indexOf('[');
  const end = answer.lastIndexOf(']');
  if (start < 0 || end < start) {
    return { ok: false, message: 'The model did not answer with a JSON array of queries.' };
  }
  const parsed = parseTriggerTests(answer.slice(start, end + 1), file);
  const queries = parsed.tests?.queries.map(({ query, shouldTrigger }) => ({ query, shouldTrigger })) ?? [];
  if (queries.length === 0) {
    const problem = parsed.diagnostics.find((diagnostic) => diagnostic.severity === 'error')?.message ?? 'it held no queries';
    return { ok: false, message: `The model's answer is not usable as trigger tests: ${problem}` };
  }
  return { ok: true, queries, text: formatTriggerTests(queries) };
}

/** One entry a line, as people write the file by hand. */
export function formatTriggerTests(queries: readonly Pick<TriggerQuery, 'query' | 'shouldTrigger'>[]): string {
  const lines = queries.map(({ query, shouldTrigger }) => `  { "query": ${JSON.stringify(query)}, "should_trigger": ${shouldTrigger} }`);
  return `[\n${lines.join(',\n')}\n]\n`;
}
