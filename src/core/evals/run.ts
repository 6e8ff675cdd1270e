// Running trigger tests: each query is sent `runs` times as the first turn of an @skills request;
// a run triggered when the model asked to activate the skill under test. The model and the tools
// are given by the caller (the editor's chat models, or a scripted one in tests and the bench).

import { mapWithConcurrency } from '../util/async';
import { TOOL_NAMES } from '../chat/tool-names';
import type { PromptMessage } from '../chat/conversation';
import { describeModelError, isCancellation, oneLineMessage } from '../chat/prompt';
import { parseActivateInput } from '../chat/tool-texts';
import type { TriggerQuery } from './trigger-file';
import { queryVerdict, type QueryVerdict, type RunOutcome } from './verdict';

/** Model round trips per run: enough for a search, then an activation. */
export const MAX_TRIGGER_ROUNDS = 2;

export interface ModelToolCall {
  callId: string;
  name: string;
  input: object;
}

export interface ModelAnswer {
  text: string;
  calls: ModelToolCall[];
}

/** Structurally a `vscode.CancellationToken`. */
export interface CancellationFlag {
  readonly isCancellationRequested: boolean;
}

export interface TriggerModel {
  /** Sends one request; rejects with the model's error (a cancellation error once cancelled). */
  send(messages: readonly PromptMessage[]): Promise<ModelAnswer>;
  /**
   * The result of a tool call other than activation (a search, a file read). Activation is never
   * run: a test only watches whether the model asks for it, and changes nothing.
   */
  answerTool(call: ModelToolCall): Promise<string>;
}

export type RunResult = RunOutcome | { kind: 'cancelled' };

/** One run: the first-turn messages, then at most one more round after tools other than activation. */
export async function runTriggerOnce(skill: string, prompt: readonly PromptMessage[], model: TriggerModel, token: CancellationFlag): Promise<RunResult> {
  const messages = [...prompt];
  const loaded: string[] = [];
  let text = '';
  for (let round = 0; round < MAX_TRIGGER_ROUNDS; round++) {
    if (token.isCancellationRequested) {
      return { kind: 'cancelled' };
    }
    let answer: ModelAnswer;
    try {
      answer = await model.send(messages);
    } catch (error) {
      return token.isCancellationRequested || isCancellation(error) ? { kind: 'cancelled' } : { kind: 'errored', message: describeModelError(error) };
    }
    if (token.isCancellationRequested) {
      // A cancelled request may still end without an error, with whatever it had streamed.
      return { kind: 'cancelled' };
    }
    text += answer.text;
    for (const call of answer.calls.filter((candidate) => candidate.name === TOOL_NAMES.activate)) {
      const parsed = parseActivateInput(call.input);
      if (parsed.ok) {
        loaded.push(parsed.input.name);
      }
    }
    const others = answer.calls.filter((call) => call.name !== TOOL_NAMES.activate);
    if (loaded.length > 0 || others.length === 0 || round === MAX_TRIGGER_ROUNDS - 1) {
      break;
    }
    messages.push({ role: 'assistant', parts: [...(answer.text ? [{ kind: 'text' as const, text: answer.text }] : []), ...answer.calls.map((call) => ({ kind: 'toolCall' as const, ...call }))] });
    const results = await Promise.all(answer.calls.map(async (call) => ({ kind: 'toolResult' as const, callId: call.callId, text: await model.answerTool(call) })));
    messages.push({ role: 'user', parts: results });
  }
  return { kind: 'completed', triggered: loaded.includes(skill), loaded, firstLine: oneLineMessage(text) };
}

export interface TriggerJob {
  /** The skill under test. */
  skill: string;
  query: TriggerQuery;
  runs: number;
  threshold: number;
}

export interface TriggerRunOptions<Job extends TriggerJob> {
  /** The first-turn messages for a query. */
  prompt(query: string): readonly PromptMessage[];
  model: TriggerModel;
  concurrency: number;
  token: CancellationFlag;
  /** A job's first run is about to be sent. */
  onStarted?(job: Job): void;
  /** One run finished (for the run's log). */
  onRun?(job: Job, run: number, result: RunResult): void;
  /** Every run of a job finished, none cancelled. */
  onDone?(job: Job, verdict: QueryVerdict, outcomes: RunOutcome[]): void;
}

export interface TriggerRunSummary<Job extends TriggerJob> {
  verdicts: Map<Job, QueryVerdict>;
  /** Jobs with a run cancelled or never sent. */
  cancelled: Job[];
}

/**
 * Every run of every job through one pool of `concurrency` requests at a time, in query order, so
 * the first queries finish first and the view fills in as the run goes.
 */
export async function runTriggerJobs<Job extends TriggerJob>(jobs: readonly Job[], options: TriggerRunOptions<Job>): Promise<TriggerRunSummary<Job>> {
  const pending = new Map(jobs.map((job) => [job, { left: job.runs, outcomes: [] as RunOutcome[], cancelled: false, started: false }]));
  const runs = jobs.flatMap((job) => Array.from({ length: job.runs }, (_, run) => ({ job, run })));
  const verdicts = new Map<Job, QueryVerdict>();
  const model = answeringEachToolCallOnce(options.model);
  await mapWithConcurrency(runs, Math.max(1, options.concurrency), async ({ job, run }) => {
    const state = pending.get(job)!;
    let result: RunResult;
    if (options.token.isCancellationRequested) {
      result = { kind: 'cancelled' };
    } else {
      if (!state.started) {
        state.started = true;
        options.onStarted?.(job);
      }
      result = await runTriggerOnce(job.skill, options.prompt(job.query.query), model, options.token);
      options.onRun?.(job, run, result);
    }
    if (result.kind === 'cancelled') {
      state.cancelled = true;
    } else {
      state.outcomes[run] = result;
    }
    if (--state.left === 0 && !state.cancelled) {
      const verdict = queryVerdict(job.skill, job.query.shouldTrigger, state.outcomes, job.threshold);
      verdicts.set(job, verdict);
      options.onDone?.(job, verdict, state.outcomes);
    }
  });
  return { verdicts, cancelled: jobs.filter((job) => pending.get(job)!.cancelled) };
}

/**
 * The model with each distinct tool call (name and input) answered once per run of the tests: the
 * runs of a query mostly ask the same search, and the skills do not change in between, so the tool
 * runs (and logs) once instead of once per run.
 */
function answeringEachToolCallOnce(model: TriggerModel): TriggerModel {
  const answers = new Map<string, Promise<string>>();
  return {
    send: (messages) => model.send(messages),
    answerTool(call) {
      const key = JSON.stringify([call.name, call.input]);
      let answer = answers.get(key);
      if (!answer) {
        answer = model.answerTool(call);
        answers.set(key, answer);
      }
      return answer;
    },
  };
}

/** Requests a run would send at most (one per run; a search adds one more round). */
export function plannedRequests(jobs: readonly TriggerJob[]): number {
  return jobs.reduce((sum, job) => sum + job.runs, 0);
}
