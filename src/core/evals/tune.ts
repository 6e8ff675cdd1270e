// Description tuning (Skills: Improve Description…, `agent-skills tune`): the skill's trigger
// queries are split into train and test; the model proposes descriptions from the train failures
// only, each candidate is measured on both halves, and the pick is by test score, so a description
// that merely memorised the train queries does not win.

import type { PromptMessage } from '../chat/conversation';
import { MAX_TUNE_ROUNDS } from '../defaults';
import { setFieldValueEdit, applyEdits, type TextEdit } from '../skill-file/fixes';
import { validateSkillText } from '../skill-file/load';
import { InputProblem } from '../util/errors';
import type { DraftSkill } from './draft';
import type { TriggerQuery } from './trigger-file';
import type { QueryVerdict } from './verdict';

export { MAX_TUNE_ROUNDS };
export const DEFAULT_TUNE_ROUNDS = 3;
export const DEFAULT_TUNE_SEED = 1;
/** Share of each kind of query (should / should not trigger) that goes to train. */
export const TRAIN_SHARE = 0.6;

export interface TuneSplit {
  train: TriggerQuery[];
  test: TriggerQuery[];
}

/** Why a skill's queries cannot be tuned on, or undefined: each half needs both kinds of query. */
export function tuneRefusal(name: string, queries: readonly TriggerQuery[]): string | undefined {
  const should = queries.filter((query) => query.shouldTrigger).length;
  const shouldNot = queries.length - should;
  if (should < 2 || shouldNot < 2) {
    return `${name} needs at least 2 queries that should trigger and 2 that should not in its trigger tests (it has ${should} and ${shouldNot}), so both the train and the test half hold each kind.`;
  }
  return undefined;
}

/**
 * About 60/40 within each kind of query, so both halves hold both kinds; the order is a shuffle
 * seeded by `seed`, so the same file and seed always give the same split.
 */
export function splitQueries(queries: readonly TriggerQuery[], seed: number): TuneSplit {
  const random = seededRandom(seed);
  const split: TuneSplit = { train: [], test: [] };
  for (const kind of [true, false]) {
    const group = shuffle(
      queries.filter((query) => query.shouldTrigger === kind),
      random,
    );
    // Rounding 60 % leaves at least one of each kind on each side when the kind has two queries or
    // more (1 of 2, 2 of 3, and 0.6 n + 0.5 < n from there on); a lone query goes to train.
    const trainCount = Math.round(group.length * TRAIN_SHARE);
    split.train.push(...group.slice(0, trainCount));
    split.test.push(...group.slice(trainCount));
  }
  // Back in file order, which is how people read them.
  const order = (query: TriggerQuery): number => queries.indexOf(query);
  split.train.sort((a, b) => order(a) - order(b));
  split.test.sort((a, b) => order(a) - order(b));
  return split;
}

/** Mulberry32: small, fast and good enough to shuffle a few dozen queries reproducibly. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const result = [...items];
  for (let index = result.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [result[index], result[other]] = [result[other], result[index]];
  }
  return result;
}

export interface QueryResult {
  query: TriggerQuery;
  verdict: QueryVerdict;
}

export interface HalfScore {
  passed: number;
  /** Queries with a verdict (errored ones are left out). */
  judged: number;
}

export interface TuneRound {
  /** 0 is the current description. */
  round: number;
  description: string;
  train: HalfScore;
  test: HalfScore;
}

export interface TuneResult {
  split: TuneSplit;
  rounds: TuneRound[];
  /** Proposals refused before measuring (not a description, or the validator's reason), by round. */
  rejected: { round: number; description: string; reason: string }[];
  /**
   * The pick: of the proposals that beat the current description on the test half, the best test
   * score, ties to the shorter description, then the earlier round; the current one when none beats it.
   */
  best: TuneRound;
}

export interface TuneProgress {
  round: number;
  rounds: number;
  message: string;
}

export interface TuneOptions {
  skill: DraftSkill;
  otherSkills: readonly DraftSkill[];
  queries: readonly TriggerQuery[];
  rounds: number;
  seed: number;
  /** Every query's verdict with `description` in the catalog; undefined when cancelled. */
  measure(description: string, queries: readonly TriggerQuery[]): Promise<QueryResult[] | undefined>;
  /** The model's answer to a proposal request; undefined when cancelled. */
  propose(messages: PromptMessage[]): Promise<string | undefined>;
  /** Why a proposed description cannot be written to SKILL.md, or undefined when it can. */
  check(description: string): string | undefined;
  onProgress?(progress: TuneProgress): void;
}

/** Requests a tuning sends at most: every query measured each round, plus one proposal a round. */
export function plannedTuneRequests(queries: number, runs: number, rounds: number): number {
  return (rounds + 1) * queries * runs + rounds;
}

export function scoreOf(results: readonly QueryResult[], half: readonly TriggerQuery[]): HalfScore {
  const inHalf = new Set(half);
  const judged = results.filter((result) => inHalf.has(result.query) && result.verdict.kind !== 'errored');
  return { passed: judged.filter((result) => result.verdict.kind === 'passed').length, judged: judged.length };
}

export function rateOf(score: HalfScore): number {
  return score.judged === 0 ? 0 : score.passed / score.judged;
}

/** The loop; undefined when cancelled. Throws when no query of the current description got a verdict. */
export async function tuneDescription(options: TuneOptions): Promise<TuneResult | undefined> {
  const rounds = Math.max(1, Math.min(MAX_TUNE_ROUNDS, options.rounds));
  const split = splitQueries(options.queries, options.seed);
  const measureRound = async (round: number, description: string): Promise<{ round: TuneRound; results: QueryResult[] } | undefined> => {
    options.onProgress?.({ round, rounds, message: round === 0 ? 'Measuring the current description' : `Round ${round}: measuring the proposal` });
    const results = await options.measure(description, [...split.train, ...split.test]);
    return results && { round: { round, description, train: scoreOf(results, split.train), test: scoreOf(results, split.test) }, results };
  };
  const first = await measureRound(0, options.skill.description);
  if (!first) {
    return undefined;
  }
  if (first.round.train.judged + first.round.test.judged === 0) {
    // The endpoint, its key or the model named is what failed: the user's to fix, with its words.
    const said = first.results.find((result) => result.verdict.kind === 'errored')?.verdict.message;
    throw new InputProblem(`no query reached a verdict with the current description of ${options.skill.name} (every request failed${said === undefined ? '' : `: ${said}`}).`);
  }
  const measured: TuneRound[] = [first.round];
  const rejected: TuneResult['rejected'] = [];
  let current = first;
  for (let round = 1; round <= rounds; round++) {
    const failures = current.results.filter((result) => split.train.includes(result.query) && result.verdict.kind === 'failed');
    if (failures.length === 0) {
      // Nothing left to learn from: every train query passes.
      break;
    }
    options.onProgress?.({ round, rounds, message: `Round ${round}: asking for a better description` });
    const answer = await options.propose(
      proposalPrompt(
        { name: options.skill.name, description: current.round.description },
        options.otherSkills,
        failures.map((failure) => failure.query),
        measured,
        rejected,
      ),
    );
    if (answer === undefined) {
      return undefined;
    }
    const description = descriptionFromAnswer(answer);
    if (description === undefined) {
      rejected.push({ round, description: answer.trim().slice(0, 200), reason: 'the answer held no description' });
      continue;
    }
    const problem = notADescription(options.skill.name, description) ?? options.check(description);
    if (problem !== undefined) {
      rejected.push({ round, description, reason: problem });
      continue;
    }
    const next = await measureRound(round, description);
    if (!next) {
      return undefined;
    }
    measured.push(next.round);
    // The next proposal improves on the best so far on train (the model never sees test scores).
    if (rateOf(next.round.train) >= rateOf(current.round.train)) {
      current = next;
    }
  }
  return { split, rounds: measured, rejected, best: pickBest(measured) };
}

/**
 * The current description (round 0) unless a proposal beats it on the test half: a tie is no
 * improvement, however much shorter, so the user is never offered a change that measured the same.
 */
export function pickBest(rounds: readonly TuneRound[]): TuneRound {
  const [current, ...proposals] = rounds;
  return proposals
    .filter((candidate) => rateOf(candidate.test) > rateOf(current.test))
    .reduce((best, candidate) => {
      const difference = rateOf(candidate.test) - rateOf(best.test);
      return best === current || difference > 0 || (difference === 0 && candidate.description.length < best.description.length) ? candidate : best;
    }, current);
}

/** Openings of a reply to the user rather than of a description: "Sure, here is…", "I would…". */
const CHATTER_OPENING =
  /^(?:sure|certainly|of course|okay|ok|great|absolutely|happy to|sorry|unfortunately|here(?:'s| is| are)|below is|the following|as an ai|(?:an? |the )?(?:new|better|improved|updated|proposed) description)\b|^i(?:'m|'ll|'ve|'d)? /i;
/**
 * A speaker's label in front of the text: "Assistant: …", "GPT-4o: …", "Demo model (scripted): …".
 * A noun before "model" makes a label only when it names a chat model's kind, so that a
 * description opening with "Data model: …" is still one.
 */
const SPEAKER_LABEL = /^(?:assistant|ai|bot|model|gpt[\w.-]*|claude[\w.-]*|(?:(?:the|my) )?(?:demo|scripted|fake|test|chat|language|ai) (?:model|assistant|bot))(?: ?\([^)]*\))? ?:/i;
/** Markdown or HTML: emphasis, headings, list items, links, code fences, tags. */
const MARKUP = /\*\*|__|^#{1,6}\s|^(?:[-*+]|\d+[.)])\s|\[[^\]]*\]\([^)]*\)|```|<\/?[a-z][^>]*>/i;

/**
 * Why a model's answer is not a description to offer, or undefined: its chatter (a reply to the
 * user, a speaker's label), markup (a catalog shows the description as plain text), or the skill's
 * name alone (it says nothing of what the skill does).
 */
export function notADescription(skillName: string, description: string): string | undefined {
  // "**Assistant**: …" is a label in bold: the chatter is read without the emphasis.
  const plain = description.replace(/\*\*|__/g, '');
  if (CHATTER_OPENING.test(plain) || SPEAKER_LABEL.test(plain)) {
    return "it reads as the model's reply, not as a description of the skill";
  }
  if (MARKUP.test(description)) {
    return 'it holds Markdown or HTML markup; a description is plain text';
  }
  const words = (text: string): string =>
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim();
  if (words(description) === words(skillName) || words(description) === `${words(skillName)} skill`) {
    return "it is only the skill's name";
  }
  return undefined;
}

/** The request for a better description: the train failures and earlier attempts, never a test query. */
export function proposalPrompt(
  skill: DraftSkill,
  otherSkills: readonly DraftSkill[],
  trainFailures: readonly TriggerQuery[],
  earlier: readonly TuneRound[],
  rejected: TuneResult['rejected'] = [],
): PromptMessage[] {
  const missed = trainFailures.filter((query) => query.shouldTrigger);
  const wrong = trainFailures.filter((query) => !query.shouldTrigger);
  const list = (queries: readonly TriggerQuery[]): string => queries.map((query) => `- ${query.query}`).join('\n');
  const others = otherSkills.filter((other) => other.name !== skill.name);
  const text = [
    "You improve the description of an Agent Skill. A chat model sees only each skill's name and description and decides from them which skill to load for a request.",
    '',
    `The skill: ${skill.name}`,
    `Its description now: ${skill.description}`,
    '',
    others.length > 0 ? `Other installed skills:\n${others.map((other) => `- ${other.name}: ${other.description}`).join('\n')}` : 'No other skills are installed.',
    '',
    ...(missed.length > 0 ? ['Requests that should have loaded the skill but did not:', list(missed), ''] : []),
    ...(wrong.length > 0 ? ['Requests that loaded the skill but should not have:', list(wrong), ''] : []),
    ...(earlier.length > 1 || rejected.length > 0
      ? [
          'Descriptions tried so far:',
          ...earlier.map((round) => `- (${round.train.passed} of ${round.train.judged} passed) ${round.description}`),
          ...rejected.map((entry) => `- (refused: ${entry.reason}) ${entry.description}`),
          '',
        ]
      : []),
    'Write one better description: say what the skill does and when to use it, in the words users use, so it covers the missed requests and similar ones without claiming the others. Do not list the requests themselves. At most 1024 characters, no angle brackets.',
    '',
    'Answer with only the description inside <description></description>.',
  ].join('\n');
  return [{ role: 'user', parts: [{ kind: 'text', text }] }];
}

/** The text inside <description> tags, else the whole answer; unquoted and on one line. */
export function descriptionFromAnswer(answer: string): string | undefined {
  const tagged = /<description>([\s\S]*?)<\/description>/i.exec(answer)?.[1] ?? answer;
  const text = tagged
    .trim()
    .replace(/^(["'])([\s\S]*)\1$/, '$2')
    .replace(/\s+/g, ' ')
    .trim();
  return text === '' ? undefined : text;
}

export type DescriptionEdit = { ok: true; edit: TextEdit; text: string } | { ok: false; reason: string };

/**
 * The edit of SKILL.md `text` that gives it `description`, checked by the validator: the file must
 * stay free of errors and read back exactly that description (length, YAML quoting).
 */
export function descriptionEdit(text: string, file: string, description: string): DescriptionEdit {
  const edit = setFieldValueEdit(text, file, 'description', description);
  if (!edit) {
    return { ok: false, reason: `${file} has no description field to replace` };
  }
  const edited = applyEdits(text, [edit]);
  const validation = validateSkillText(edited, file);
  const error = validation.diagnostics.find((diagnostic) => diagnostic.severity === 'error');
  if (error) {
    return { ok: false, reason: error.message };
  }
  if (validation.metadata?.description !== description) {
    return { ok: false, reason: 'the file would not read back the same description' };
  }
  return { ok: true, edit, text: edited };
}
