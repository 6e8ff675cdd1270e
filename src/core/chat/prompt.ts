// What @skills tells the model (the instructions with the catalog, the isolated request of a
// forked skill), which model a forked skill runs on, and the one-line messages the user sees when
// something goes wrong.

import { TOOL_NAMES, type ToolNames } from './tool-names';
import type { PromptMessage } from './conversation';
import { untrustedNote } from './tool-texts';
import { firstError } from '../model/status';
import { singleLine } from '../util/text';
import type { SkillRecord } from '../model/types';

export interface InstructionsInput {
  /** The `<available_skills>` block, exactly as Show Catalog shows it. */
  catalogText: string;
  /** Skills whose instructions are already in the conversation. */
  loadedNames: readonly string[];
  /** Skills loaded earlier whose instructions no longer fit in the conversation. */
  droppedNames?: readonly string[];
  /** Workspace skills withheld because the workspace is not trusted. */
  untrustedCount?: number;
}

/** How the model uses skills through the three tools; @skills and the MCP server both say it. */
export function skillUsageLines(tools: ToolNames = TOOL_NAMES): string[] {
  return [
    `- When a skill below covers the request, call ${tools.activate} with its exact name (and the user's arguments, if any) before you start, then follow the instructions it returns.`,
    `- When no listed skill clearly fits, or skills are listed by name only, call ${tools.find} with a few words describing the task.`,
    `- Read a skill's files with ${tools.readResource} only when its instructions point to them.`,
  ];
}

/** The first message of every @skills request (the chat API has no system role). */
export function renderInstructions(input: InstructionsInput): string {
  const lines = [
    "You are @skills in VS Code. You complete the user's request with the help of Agent Skills: folders of instructions, and sometimes files, written for particular tasks.",
    '',
    ...skillUsageLines(),
    '- When no skill applies, answer directly and say that no skill was used.',
    '',
    input.catalogText,
  ];
  const loaded = [...new Set(input.loadedNames)];
  if (loaded.length > 0) {
    lines.push('', `Already loaded in this conversation (their instructions are above; do not load them again): ${loaded.join(', ')}.`);
  }
  const dropped = [...new Set(input.droppedNames ?? [])].filter((name) => !loaded.includes(name));
  if (dropped.length > 0) {
    lines.push('', `Loaded earlier but no longer in context (load again if needed): ${dropped.join(', ')}.`);
  }
  if (input.untrustedCount) {
    lines.push('', `${untrustedNote(input.untrustedCount)} Do not ask for them.`);
  }
  return lines.join('\n');
}

/**
 * The messages of an @skills request: the instructions, the earlier turns, then what the user
 * asks now. Trigger tests send the same with no earlier turns, so they test what users get.
 */
export function requestPrompt(instructions: InstructionsInput, history: readonly PromptMessage[], userText: string): PromptMessage[] {
  return [userMessage(renderInstructions(instructions)), ...history, userMessage(userText)];
}

function userMessage(text: string): PromptMessage {
  return { role: 'user', parts: [{ kind: 'text', text }] };
}

/** The isolated request of a `context: fork` skill: its instructions and the task, no conversation. */
export function forkMessages(activationText: string, task: string): PromptMessage[] {
  const instructions = [
    'You carry out one Agent Skill in isolation: you see its instructions and the task, not the conversation it came from.',
    'Follow the instructions, then reply with the result, concisely, for the person who asked.',
    '',
    activationText,
  ].join('\n');
  return [
    { role: 'user', parts: [{ kind: 'text', text: instructions }] },
    { role: 'user', parts: [{ kind: 'text', text: `Task: ${task.trim() || "Carry out the skill's instructions."}` }] },
  ];
}

export interface ModelDescription {
  id: string;
  family: string;
  name: string;
}

export interface ModelChoice<Model> {
  model: Model;
  /** Said in the chat when the requested model could not be used. */
  note?: string;
}

/**
 * The model a forked skill runs on: the one its `model` field names (by id or family) when
 * available, else the user's model, with a note saying so.
 */
export function chooseForkModel<Model extends ModelDescription>(skillName: string, hint: string | undefined, available: readonly Model[], userModel: Model): ModelChoice<Model> {
  const wanted = hint?.trim();
  if (!wanted) {
    return { model: userModel };
  }
  const found = findModel(wanted, [userModel, ...available]);
  if (found) {
    return { model: found };
  }
  return { model: userModel, note: `Skill "${skillName}" asks for the model "${wanted}", which is not available; it ran on ${userModel.name} instead.` };
}

/** The first of `available` whose id is `hint`, else the first of its family (case aside); the first one wins a tie. */
export function findModel<Model extends Pick<ModelDescription, 'id' | 'family'>>(hint: string, available: readonly Model[]): Model | undefined {
  const wanted = hint.trim().toLowerCase();
  if (!wanted) {
    return undefined;
  }
  return available.find((model) => model.id.toLowerCase() === wanted) ?? available.find((model) => model.family.toLowerCase() === wanted);
}

const MAX_MESSAGE_CHARS = 300;

/** One line, at most a few hundred characters: chat messages never carry stack traces. */
export function oneLineMessage(text: string): string {
  const line =
    text
      .split(/\r?\n/)
      .find((candidate) => candidate.trim() !== '')
      ?.trim() ?? '';
  return line.length > MAX_MESSAGE_CHARS ? `${line.slice(0, MAX_MESSAGE_CHARS - 1)}…` : line;
}

/** The name and code are only compared with known strings, so they are passed on as they are. */
function errorFields(error: unknown): { name?: unknown; code?: unknown; message: string } {
  if (typeof error === 'object' && error !== null) {
    const fields = error as { name?: unknown; code?: unknown; message?: unknown };
    return { name: fields.name, code: fields.code, message: typeof fields.message === 'string' ? fields.message : String(error) };
  }
  return { message: String(error) };
}

export const CANCELLED_MESSAGE = 'Cancelled.';

export function isCancellation(error: unknown): boolean {
  const { name, message } = errorFields(error);
  return name === 'Canceled' || name === 'CancellationError' || message === 'Canceled';
}

/** What to tell the user when a model request fails (a `LanguageModelError` or anything else). */
export function describeModelError(error: unknown): string {
  if (isCancellation(error)) {
    return CANCELLED_MESSAGE;
  }
  const { code, message } = errorFields(error);
  const detail = oneLineMessage(message);
  switch (code) {
    case 'NoPermissions':
      return `The model cannot be used: permission was not granted${detail ? ` (${detail})` : ''}.`;
    case 'Blocked':
      return `The model refused the request (blocked${detail ? `: ${detail}` : ''}). Try again later or pick another model.`;
    case 'NotFound':
      return `The selected model is not available${detail ? ` (${detail})` : ''}. Pick another model in the chat view.`;
    default:
      return detail ? `The model failed: ${detail}` : 'The model failed without saying why.';
  }
}

export const NO_MODEL_MESSAGE = 'No language model is available. Pick or enable a model in the chat view, then ask again.';

export const SKILLS_DISABLED_MESSAGE = 'Skills are turned off (setting agentSkills.enabled). Turn them on to use @skills.';

/** Said in the chat when `/use` ran a skill whose SKILL.md is broken now: its last valid version was used. */
export function staleSkillNote(record: SkillRecord): string {
  const error = firstError(record);
  const reason = error ? ` (line ${error.range.start.line + 1}: ${singleLine(error.message)})` : '';
  return `_The SKILL.md of ${record.name} has an error now${reason}; its last valid version was used. Fix the file to use your latest edit._`;
}

/** The line the chat shows when a skill was not loaded; the model gets the full explanation. */
export function describeRefusal(name: string, toolResultText: string): string {
  const firstSentences = toolResultText
    .split(/(?<=[.?!])\s+/)
    .slice(0, 2)
    .join(' ');
  // A reason that already names the skill ("Skill "x" is not allowed…") is not prefixed with its name again.
  return oneLineMessage(firstSentences.startsWith(`Skill "${name}" `) ? firstSentences : `Skill "${name}" was not loaded: ${firstSentences}`);
}
