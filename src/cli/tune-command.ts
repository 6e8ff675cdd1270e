// `agent-skills tune NAME --endpoint URL --model ID [--api openai|anthropic] [--runs N] [--rounds N]
// [--seed N] [--concurrency N] [--write] [--project DIR] [ROOT…]`: improves a skill's description
// against its trigger tests (train/test split, proposals from the train failures only, the pick by
// test score), prints the scores per round and the change, and writes it only when asked.

import * as fs from 'node:fs';
import { SKILL_TOOL_DEFINITIONS } from '../core/chat/tool-definitions';
import { endpointTriggerModel } from '../core/evals/endpoint';
import { measureDescription } from '../core/evals/measure';
import { DEFAULT_RUNS, DEFAULT_THRESHOLD, MAX_RUNS } from '../core/defaults';
import { loadTriggerTestsBlocking } from '../core/evals/trigger-file';
import { isImprovement, renderTuneReport } from '../core/evals/tune-report';
import { DEFAULT_TUNE_SEED, descriptionEdit, MAX_TUNE_ROUNDS, plannedTuneRequests, tuneDescription, tuneRefusal } from '../core/evals/tune';
import { draftRefusal } from '../core/evals/draft-refusal';
import { DEFAULT_CATALOG_BUDGET_CHARS, modelVisibleSkills } from '../core/use/catalog';
import { parseArguments, positiveInteger } from './args';
import { TUNE_USAGE } from './usage/tune';
import { readEndpointSettings } from './eval-command';
import { discoverFromArguments } from './inputs';
import { displayPath, ExitCode, InputError, plural, PROGRAM, UsageError, type CliIo } from './io';
import { reportProblems } from './list-command';

export async function tuneCommand(args: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseArguments('tune', args, TUNE_USAGE.options);
  const { options, operands } = parsed;
  const [name, ...roots] = operands;
  if (name === undefined) {
    throw new UsageError('tune: give the NAME of the skill whose description to improve.');
  }
  const settings = readEndpointSettings('tune', options, io);
  const runs = positiveInteger('tune', 'runs', options.get('runs'));
  if (runs !== undefined && runs > MAX_RUNS) {
    throw new UsageError(`tune: --runs is at most ${MAX_RUNS}.`);
  }
  const rounds = positiveInteger('tune', 'rounds', options.get('rounds')) ?? MAX_TUNE_ROUNDS;
  if (rounds > MAX_TUNE_ROUNDS) {
    throw new UsageError(`tune: --rounds is at most ${MAX_TUNE_ROUNDS}.`);
  }
  const seedOption = options.get('seed');
  const seed = typeof seedOption === 'string' ? Number(seedOption) : DEFAULT_TUNE_SEED;
  if (!Number.isSafeInteger(seed)) {
    throw new UsageError(`tune: --seed is a whole number, not "${String(seedOption)}".`);
  }

  // With no ROOT, the current folder is the project, as for list and validate.
  const discovery = await discoverFromArguments({ ...parsed, operands: roots }, roots, io, true);
  reportProblems(discovery.problems, io);
  const record = discovery.skills.find((candidate) => candidate.name === name && modelVisibleSkills([candidate]).length === 1) ?? discovery.skills.find((candidate) => candidate.name === name);
  if (!record) {
    throw new InputError(`no skill named "${name}" in ${roots.length > 0 ? roots.join(', ') : 'this project'}.`);
  }
  const refusal = draftRefusal(record);
  if (refusal !== undefined || !record.metadata) {
    throw new InputError(`cannot tune ${name}: ${refusal}`);
  }
  const tests = loadTriggerTestsBlocking(record.dir);
  if (!tests?.tests) {
    throw new InputError(`${name} has no usable trigger tests (evals/triggers.json): draft some with Skills: Draft Trigger Tests… in VS Code, or write them by hand.`);
  }
  const queries = tests.tests.queries;
  const problem = tuneRefusal(name, queries);
  if (problem) {
    throw new InputError(`${displayPath(tests.file, io)}: ${problem}`);
  }
  const runsPerQuery = runs ?? tests.tests.runs ?? DEFAULT_RUNS;
  const threshold = tests.tests.threshold ?? DEFAULT_THRESHOLD;
  io.stderr(
    `${PROGRAM}: tuning ${name} on ${settings.model} with ${plural(queries.length, 'query', 'queries')}, ${plural(runsPerQuery, 'run')} each, up to ${plural(rounds, 'round')}: at most ${plural(plannedTuneRequests(queries.length, runsPerQuery, rounds), 'request')}.\n`,
  );

  const originalText = fs.readFileSync(record.file, 'utf8');
  const model = endpointTriggerModel({
    ...settings,
    tools: SKILL_TOOL_DEFINITIONS,
    // The measured snapshot answers tools (measureDescription); a proposal request calls none.
    answerTool: async () => '',
    onRetry: (notice) => io.stderr(`${PROGRAM}: ${notice.detail}; retrying in ${(notice.delayMs / 1000).toFixed(1)} s.\n`),
  });
  const proposer = endpointTriggerModel({ ...settings, tools: [], answerTool: async () => '' });
  const visible = modelVisibleSkills(discovery.skills);
  /** The SKILL.md text for each proposal the check let through: the pick is one of them. */
  const editedTexts = new Map<string, string>();
  // Nothing cancels the command line's requests, and its proposer always answers with text, so
  // tuning always comes back with a result.
  const result = (await tuneDescription({
    skill: { name, description: record.metadata.description },
    otherSkills: visible.filter((other) => other !== record).map((other) => ({ name: other.name, description: other.metadata!.description })),
    queries,
    rounds,
    seed,
    measure: (description, measured) =>
      measureDescription(discovery.skills, name, description, measured, (messages) => model.send(messages), {
        budgetChars: DEFAULT_CATALOG_BUDGET_CHARS,
        runs: runsPerQuery,
        threshold,
        concurrency: settings.concurrency,
        token: { isCancellationRequested: false },
      }),
    propose: async (messages) => (await proposer.send(messages)).text,
    check: (description) => {
      const edit = descriptionEdit(originalText, record.file, description);
      if (!edit.ok) {
        return edit.reason;
      }
      editedTexts.set(description, edit.text);
      return undefined;
    },
    onProgress: (progress) => io.stderr(`${PROGRAM}: ${progress.message}…\n`),
  }))!;
  io.stdout(renderTuneReport(name, result, { model: settings.model, runs: runsPerQuery, seed }));
  if (!isImprovement(result)) {
    return ExitCode.ok;
  }
  const write = options.has('write') || (io.ask !== undefined && /^y(es)?$/i.test((await io.ask(`Write the new description to ${displayPath(record.file, io)}? [y/N] `)).trim()));
  if (!write) {
    io.stderr(`${PROGRAM}: nothing written; run again with --write to apply the change.\n`);
    return ExitCode.ok;
  }
  if (fs.readFileSync(record.file, 'utf8') !== originalText) {
    throw new InputError(`${displayPath(record.file, io)} changed while tuning ran: nothing written. Run tune again.`);
  }
  // An improvement is a proposal, which the check accepted against this very text.
  fs.writeFileSync(record.file, editedTexts.get(result.best.description)!);
  io.stderr(`${PROGRAM}: wrote the new description to ${displayPath(record.file, io)}.\n`);
  return ExitCode.ok;
}
