// The @skills conversation across turns. VS Code keeps only what a participant returned, so each
// turn stores the skills it loaded (and what the model was given) in its result metadata; the next
// turn rebuilds the model's messages from that history, keeping skill instructions in context
// without loading them again. Plain data in and out: the editor glue maps it to chat API types.

import type { InvocationMode } from '../use/activation';
import { TOOL_NAMES } from './tool-names';
import { CHARS_PER_TOKEN } from '../util/text';

/** A message part in editor-neutral form (text, a tool call by the model, a tool result). */
export type PromptPart = { kind: 'text'; text: string } | { kind: 'toolCall'; callId: string; name: string; input: object } | { kind: 'toolResult'; callId: string; text: string };

export interface PromptMessage {
  role: 'user' | 'assistant';
  parts: PromptPart[];
}

/** One skill loaded during a turn, as stored in that turn's result metadata (JSON). */
export interface SkillActivationRecord {
  name: string;
  /** The SKILL.md path, to cite it. */
  file: string;
  arguments?: string;
  /** `model`: loaded by a tool call. `user`: started with /use. */
  invokedBy: InvocationMode;
  /**
   * What the model was given: the tool result (activation text, or a forked skill's report), or
   * for /use the activation text; for a forked /use, its result (also the response text).
   */
  text: string;
  /** The skill ran in isolation (`context: fork`); `text` is its result, not its instructions. */
  forked?: boolean;
}

/** The metadata every @skills turn returns. */
export interface SkillsTurnMetadata {
  command?: string;
  activatedSkills: SkillActivationRecord[];
  /** Model round trips in the tool-calling loop. */
  toolRounds: number;
  /** Skills offered as follow-ups. */
  suggestedSkills: string[];
  /** The Restricted Mode notice was shown in this turn (it is shown once per conversation). */
  restrictedNoticeShown?: boolean;
}

/** A history entry in editor-neutral form: what the user asked, or what @skills answered. */
export type ConversationTurn = { kind: 'request'; prompt: string; command?: string } | { kind: 'response'; text: string; command?: string; metadata?: unknown };

/** Share of the model's input window that skills carried over from earlier turns may fill. */
const CARRIED_SHARE = 0.3;
/** When the window is unknown. */
const DEFAULT_CARRIED_CHARS = 120_000;

export function carriedBudgetChars(maxInputTokens?: number): number {
  const tokens = maxInputTokens ?? 0;
  return tokens > 0 ? Math.floor(tokens * CHARS_PER_TOKEN * CARRIED_SHARE) : DEFAULT_CARRIED_CHARS;
}

export function emptyTurnMetadata(command?: string): SkillsTurnMetadata {
  return { ...(command ? { command } : {}), activatedSkills: [], toolRounds: 0, suggestedSkills: [] };
}

function isActivationRecord(value: unknown): value is SkillActivationRecord {
  // Only JSON comes back from a saved chat: anything but an object with these fields is not a record.
  const record = value as Partial<SkillActivationRecord> | null | undefined;
  return (
    typeof record?.name === 'string' &&
    typeof record.file === 'string' &&
    typeof record.text === 'string' &&
    (record.invokedBy === 'model' || record.invokedBy === 'user') &&
    (record.arguments === undefined || typeof record.arguments === 'string')
  );
}

/** Reads a turn's metadata defensively: saved chats may come from older versions or other code. */
export function readTurnMetadata(value: unknown): SkillsTurnMetadata {
  const metadata = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const activated = Array.isArray(metadata.activatedSkills) ? metadata.activatedSkills.filter(isActivationRecord) : [];
  const suggested = Array.isArray(metadata.suggestedSkills) ? metadata.suggestedSkills.filter((name): name is string => typeof name === 'string') : [];
  return {
    ...(typeof metadata.command === 'string' ? { command: metadata.command } : {}),
    activatedSkills: activated,
    toolRounds: typeof metadata.toolRounds === 'number' ? metadata.toolRounds : 0,
    suggestedSkills: suggested,
    ...(metadata.restrictedNoticeShown === true ? { restrictedNoticeShown: true } : {}),
  };
}

function sameArguments(a: string | undefined, b: string | undefined): boolean {
  return (a ?? '').trim() === (b ?? '').trim();
}

/** The user message that hands the model a skill the user started with /use. */
export function userInvocationText(activation: Pick<SkillActivationRecord, 'name' | 'arguments' | 'text'>): string {
  const args = activation.arguments?.trim();
  return [`I am starting the skill "${activation.name}"${args ? ` with the arguments: ${args}` : ''}. Follow its instructions:`, '', activation.text].join('\n');
}

/** A forked skill's result as its tool result (or, after /use, as the user's message). */
export function forkResultText(name: string, result: string): string {
  return `Skill "${name}" ran in isolation (context: fork) and reported:\n\n${result.trim() || '(no output)'}`;
}

export function alreadyLoadedText(name: string): string {
  return `Skill "${name}" is already loaded in this conversation: its instructions are in an earlier ${TOOL_NAMES.activate} result. Follow them; call ${TOOL_NAMES.activate} again only with different arguments.`;
}

/** A skill loaded earlier with the same arguments, which need not be loaded again. Forked runs are tasks, never reused. */
export function findLoadedActivation(loaded: readonly SkillActivationRecord[], name: string, args: string | undefined): SkillActivationRecord | undefined {
  return loaded.find((activation) => !activation.forked && activation.name === name && sameArguments(activation.arguments, args));
}

export interface ConversationOptions {
  /** Characters of earlier skill texts to keep (see carriedBudgetChars). */
  maxCarriedChars: number;
}

export interface Conversation {
  messages: PromptMessage[];
  /** Skills whose instructions are in `messages`, newest last; the model is told not to load them again. */
  loaded: SkillActivationRecord[];
  /** Skills loaded earlier whose text did not fit and was left out. */
  dropped: string[];
  /** True when an earlier turn already showed the Restricted Mode notice. */
  restrictedNoticeShown: boolean;
}

interface Exchange {
  request?: { prompt: string; command?: string };
  response?: { text: string; metadata: SkillsTurnMetadata };
}

function pairTurns(turns: readonly ConversationTurn[]): Exchange[] {
  const exchanges: Exchange[] = [];
  for (const turn of turns) {
    if (turn.kind === 'request') {
      exchanges.push({ request: { prompt: turn.prompt, command: turn.command } });
    } else {
      const last = exchanges.at(-1);
      const response = { text: turn.text, metadata: readTurnMetadata(turn.metadata) };
      if (last && !last.response) {
        last.response = response;
      } else {
        exchanges.push({ response });
      }
    }
  }
  return exchanges;
}

/**
 * Chooses which earlier skill texts stay in context, newest first within the budget: for each
 * skill only its latest load (with the same arguments), and every forked result.
 */
function chooseKept(exchanges: readonly Exchange[], maxChars: number): { kept: Set<SkillActivationRecord>; dropped: string[] } {
  const all = exchanges.flatMap((exchange) => exchange.response?.metadata.activatedSkills ?? []);
  const kept = new Set<SkillActivationRecord>();
  const superseded = new Set<string>();
  const dropped: string[] = [];
  let used = 0;
  for (const activation of [...all].reverse()) {
    const key = `${activation.name}\u0000${(activation.arguments ?? '').trim()}`;
    if (!activation.forked && superseded.has(key)) {
      continue;
    }
    if (used + activation.text.length > maxChars) {
      if (!activation.forked && !dropped.includes(activation.name)) {
        dropped.push(activation.name);
      }
      continue;
    }
    used += activation.text.length;
    kept.add(activation);
    superseded.add(key);
  }
  return { kept, dropped: dropped.filter((name) => ![...kept].some((activation) => activation.name === name && !activation.forked)) };
}

function requestText(request: { prompt: string; command?: string }): string {
  return request.command ? `/${request.command} ${request.prompt}`.trim() : request.prompt;
}

/**
 * The model's messages for the earlier turns: each request, the skills its response loaded (as
 * the tool call and result the model saw, or the /use message), then the response text. Call ids
 * are renumbered so they stay unique across turns.
 */
export function conversationMessages(turns: readonly ConversationTurn[], options: ConversationOptions): Conversation {
  const exchanges = pairTurns(turns);
  const { kept, dropped } = chooseKept(exchanges, options.maxCarriedChars);
  const messages: PromptMessage[] = [];
  const loaded: SkillActivationRecord[] = [];
  exchanges.forEach((exchange, turnIndex) => {
    if (exchange.request) {
      messages.push({ role: 'user', parts: [{ kind: 'text', text: requestText(exchange.request) }] });
    }
    const response = exchange.response;
    if (!response) {
      return;
    }
    response.metadata.activatedSkills.forEach((activation, index) => {
      if (!kept.has(activation)) {
        return;
      }
      if (!activation.forked) {
        loaded.push(activation);
      }
      if (activation.invokedBy === 'user') {
        // A forked /use answered in the response text itself, which follows.
        if (!activation.forked) {
          messages.push({ role: 'user', parts: [{ kind: 'text', text: userInvocationText(activation) }] });
        }
        return;
      }
      const callId = `skills-turn${turnIndex}-${index}`;
      const input = activation.arguments ? { name: activation.name, arguments: activation.arguments } : { name: activation.name };
      messages.push({ role: 'assistant', parts: [{ kind: 'toolCall', callId, name: TOOL_NAMES.activate, input }] });
      messages.push({ role: 'user', parts: [{ kind: 'toolResult', callId, text: activation.text }] });
    });
    if (response.text.trim() !== '') {
      messages.push({ role: 'assistant', parts: [{ kind: 'text', text: response.text }] });
    }
  });
  const restrictedNoticeShown = exchanges.some((exchange) => exchange.response?.metadata.restrictedNoticeShown === true);
  return { messages, loaded, dropped, restrictedNoticeShown };
}
