// `agent-skills eval --endpoint URL --model ID [--api openai|anthropic] [--runs N] [--concurrency N]
// [--junit FILE] [--json] [--baseline GIT-REF] ROOT…`: the skills' trigger tests outside the editor,
// each query sent as the first turn of @skills (the whole catalog, the same tools) to a chat
// endpoint, with the routing of the set, JUnit XML for CI, and a comparison with the descriptions
// at a git ref so a change that makes a skill trigger worse fails.
//
// Exit codes: 0 every threshold holds; 1 a query failed, a trigger file has errors, or the
// baseline shows a regression; 3 some queries reached no verdict (every request errored) and none
// failed.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { SKILL_TOOL_DEFINITIONS } from '../core/chat/tool-definitions';
import { SkillRegistry, type RegistrySnapshot } from '../core/discovery/registry';
import { staticSnapshot } from '../core/discovery/static-snapshot';
import { API_KEY_VARIABLES, ENDPOINT_APIS, endpointTriggerModel, type EndpointApi, type RetryNotice } from '../core/evals/endpoint';
import { junitXml } from '../core/evals/junit';
import { answerToolFromSnapshot } from '../core/evals/measure';
import { triggerTestPrompt } from '../core/evals/request';
import { describeTaken, queriesTakenBy, routingReport, type RoutingReport } from '../core/evals/routing';
import { runTriggerJobs, type TriggerJob } from '../core/evals/run';
import { DEFAULT_CONCURRENCY, DEFAULT_RUNS, DEFAULT_THRESHOLD, MAX_RUNS } from '../core/defaults';
import { loadTriggerTestsBlocking } from '../core/evals/trigger-file';
import { describePrecisionRecall, precisionRecall, type QueryVerdict, type RunOutcome } from '../core/evals/verdict';
import type { SkillRecord } from '../core/model/types';
import { DEFAULT_CATALOG_BUDGET_CHARS, modelVisibleSkills, renderCatalog } from '../core/use/catalog';
import { parseArguments, positiveInteger, type ParsedArguments } from './args';
import { EVAL_USAGE } from './usage/eval';
import { readAtGitRef } from './git-ref';
import { rootsFromArguments } from './inputs';
import { displayPath, ExitCode, InputError, plural, PROGRAM, UsageError, type CliIo } from './io';
import { reportProblems } from './list-command';
import { formatDiagnostic } from './validate-command';
import { validateSkillText } from '../core/skill-file/load';
import { withoutCredentials } from '../core/util/redact';

/** Exit code when no verdict could be reached for some queries (their requests all errored). */
export const NO_VERDICT_EXIT = 3;

interface EvalJob extends TriggerJob {
  file: string;
}

interface JobResult {
  job: EvalJob;
  verdict: QueryVerdict;
  outcomes: RunOutcome[];
  seconds: number;
}

interface Evaluation {
  results: JobResult[];
  routing: RoutingReport;
  retries: RetryNotice[];
}

export interface EndpointSettings {
  api: EndpointApi;
  endpoint: string;
  model: string;
  apiKey?: string;
  concurrency: number;
}

export async function evalCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { options, operands } = parseArguments('eval', args, EVAL_USAGE.options);
  const settings = readEndpointSettings('eval', options, io);
  const runs = positiveInteger('eval', 'runs', options.get('runs'));
  if (runs !== undefined && runs > MAX_RUNS) {
    throw new UsageError(`eval: --runs is at most ${MAX_RUNS}.`);
  }
  if (operands.length === 0) {
    throw new UsageError('eval: give at least one ROOT (a folder of skill folders whose skills have evals/triggers.json).');
  }
  const baselineRef = options.get('baseline');

  const registry = new SkillRegistry();
  try {
    await registry.setRoots(await rootsFromArguments(operands, io));
    const snapshot = registry.snapshot;
    reportProblems(snapshot.problems, io);
    const { jobs, fileErrors } = await collectJobs(snapshot, runs, io);
    if (jobs.length === 0) {
      throw new InputError(
        `no trigger tests to run in ${operands.join(', ')}: add evals/triggers.json to a skill (a list of { "query", "should_trigger" }), or draft one with Skills: Draft Trigger Tests… in VS Code.`,
      );
    }
    const requests = jobs.reduce((sum, job) => sum + job.runs, 0);
    io.stderr(
      `${PROGRAM}: ${plural(jobs.length, 'query', 'queries')} of ${plural(new Set(jobs.map((job) => job.skill)).size, 'skill')}, ${plural(requests, 'run')} on ${settings.model} (${settings.api} at ${settings.endpoint}).\n`,
    );
    const current = await evaluate(snapshot, jobs, settings, io);
    const baseline = typeof baselineRef === 'string' ? await evaluateBaseline(snapshot, jobs, baselineRef, settings, io) : undefined;
    const comparison = baseline ? compareWithBaseline(current, baseline.evaluation) : undefined;

    const junit = options.get('junit');
    if (typeof junit === 'string') {
      const file = path.resolve(io.cwd, junit);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(
        file,
        junitXml(
          `agent-skills eval (${settings.model})`,
          current.results.map(({ job, verdict, seconds }) => ({ skill: job.skill, query: job.query.query, verdict, seconds })),
        ),
      );
    }
    if (options.has('json')) {
      io.stdout(`${JSON.stringify(resultJson(current, settings, comparison && typeof baselineRef === 'string' ? { ref: baselineRef, skills: comparison } : undefined))}\n`);
    } else {
      printReport(current, comparison, typeof baselineRef === 'string' ? baselineRef : undefined, io);
    }
    const failed = current.results.some((result) => result.verdict.kind === 'failed') || fileErrors || (comparison ?? []).some((skill) => skill.regressed);
    if (failed) {
      return ExitCode.failure;
    }
    return current.results.some((result) => result.verdict.kind === 'errored') ? NO_VERDICT_EXIT : ExitCode.ok;
  } finally {
    registry.dispose();
  }
}

/** The endpoint options shared by eval and tune: --endpoint, --model, --api, --concurrency, and the key from the environment. */
export function readEndpointSettings(command: string, options: ParsedArguments['options'], io: CliIo): EndpointSettings {
  const endpoint = options.get('endpoint');
  const model = options.get('model');
  if (typeof endpoint !== 'string' || typeof model !== 'string') {
    throw new UsageError(`${command}: give --endpoint URL (the base URL, e.g. http://localhost:11434/v1) and --model ID.`);
  }
  if (!/^https?:\/\//i.test(endpoint)) {
    throw new UsageError(`${command}: --endpoint must be an http:// or https:// URL, not "${withoutCredentials(endpoint)}".`);
  }
  if (withoutCredentials(endpoint) !== endpoint) {
    throw new UsageError(`${command}: --endpoint must not hold a user name or password (the key comes from ${Object.values(API_KEY_VARIABLES).join(' or ')}): ${withoutCredentials(endpoint)}.`);
  }
  const api = (options.get('api') ?? 'openai') as string;
  if (!(ENDPOINT_APIS as readonly string[]).includes(api)) {
    throw new UsageError(`${command}: --api is ${ENDPOINT_APIS.join(' or ')}, not "${api}".`);
  }
  return {
    api: api as EndpointApi,
    endpoint,
    model,
    apiKey: io.env?.[API_KEY_VARIABLES[api as EndpointApi]] || undefined,
    concurrency: positiveInteger(command, 'concurrency', options.get('concurrency')) ?? DEFAULT_CONCURRENCY,
  };
}

/** A job per query of every skill the model may invoke; trigger-file errors go to stderr. */
async function collectJobs(snapshot: RegistrySnapshot, runs: number | undefined, io: CliIo): Promise<{ jobs: EvalJob[]; fileErrors: boolean }> {
  const jobs: EvalJob[] = [];
  let fileErrors = false;
  const visible = new Set(modelVisibleSkills(snapshot.skills));
  for (const record of snapshot.skills) {
    if (!visible.has(record) && record.status !== 'shadowed') {
      continue;
    }
    const parsed = loadTriggerTestsBlocking(record.dir);
    if (!parsed) {
      continue;
    }
    for (const diagnostic of parsed.diagnostics) {
      io.stderr(`${formatDiagnostic(diagnostic, io)}\n`);
      fileErrors ||= diagnostic.severity === 'error';
    }
    if (!visible.has(record)) {
      io.stderr(`${PROGRAM}: ${displayPath(parsed.file, io)}: not run, ${record.name} is shadowed by ${record.shadowedBy ?? 'another skill'}.\n`);
      continue;
    }
    for (const query of parsed.tests?.queries ?? []) {
      jobs.push({ skill: record.name, file: parsed.file, query, runs: runs ?? parsed.tests?.runs ?? DEFAULT_RUNS, threshold: parsed.tests?.threshold ?? DEFAULT_THRESHOLD });
    }
  }
  return { jobs, fileErrors };
}

/** Every job's runs against the endpoint, with the tools answered from `snapshot`. */
async function evaluate(snapshot: RegistrySnapshot, jobs: readonly EvalJob[], settings: EndpointSettings, io: CliIo): Promise<Evaluation> {
  const catalog = renderCatalog(snapshot.skills, { maxChars: DEFAULT_CATALOG_BUDGET_CHARS });
  const retries: RetryNotice[] = [];
  const model = endpointTriggerModel({
    ...settings,
    tools: SKILL_TOOL_DEFINITIONS,
    answerTool: (call) => answerToolFromSnapshot(snapshot, catalog, call),
    onRetry: (notice) => {
      retries.push(notice);
      io.stderr(`${PROGRAM}: ${notice.detail}; retrying in ${(notice.delayMs / 1000).toFixed(1)} s.\n`);
    },
  });
  const started = new Map<EvalJob, number>();
  const results: JobResult[] = [];
  await runTriggerJobs(jobs, {
    prompt: (query) => triggerTestPrompt(catalog.text, 0, query),
    model,
    concurrency: settings.concurrency,
    token: { isCancellationRequested: false },
    onStarted: (job) => started.set(job, Date.now()),
    onDone: (job, verdict, outcomes) => results.push({ job, verdict, outcomes, seconds: (Date.now() - (started.get(job) ?? Date.now())) / 1000 }),
  });
  // In the order of the files, whatever order the runs finished in.
  results.sort((a, b) => jobs.indexOf(a.job) - jobs.indexOf(b.job));
  return {
    results,
    routing: routingReport(results.map(({ job, outcomes }) => ({ skill: job.skill, query: job.query.query, shouldTrigger: job.query.shouldTrigger, outcomes }))),
    retries,
  };
}

/**
 * The same queries with every skill's description as it was at `ref`: skills that did not exist
 * there (or did not parse) are left out of that catalog, and their queries are not compared.
 */
async function evaluateBaseline(snapshot: RegistrySnapshot, jobs: readonly EvalJob[], ref: string, settings: EndpointSettings, io: CliIo): Promise<{ evaluation: Evaluation }> {
  const records: SkillRecord[] = [];
  for (const record of snapshot.skills) {
    const text = await readAtGitRef(record.file, ref);
    const metadata = text === undefined ? undefined : validateSkillText(text, record.file).metadata;
    if (metadata) {
      records.push({ ...record, metadata });
    }
  }
  const known = new Set(modelVisibleSkills(records).map((record) => record.name));
  const baselineJobs = jobs.filter((job) => known.has(job.skill));
  io.stderr(
    `${PROGRAM}: baseline ${ref}: ${plural(baselineJobs.length, 'query', 'queries')} of ${plural(new Set(baselineJobs.map((job) => job.skill)).size, 'skill')} with the descriptions at ${ref}.\n`,
  );
  return { evaluation: await evaluate(staticSnapshot(records), baselineJobs, settings, io) };
}

export interface BaselineComparison {
  skill: string;
  /** Queries passed / with a verdict, at the baseline and now, over the queries both judged. */
  before: { passed: number; judged: number };
  after: { passed: number; judged: number };
  regressed: boolean;
}

function compareWithBaseline(current: Evaluation, baseline: Evaluation): BaselineComparison[] {
  const before = new Map(baseline.results.map((result) => [`${result.job.skill}\u0000${result.job.query.query}`, result.verdict]));
  const bySkill = new Map<string, BaselineComparison>();
  for (const { job, verdict } of current.results) {
    const then = before.get(`${job.skill}\u0000${job.query.query}`);
    if (!then || then.kind === 'errored' || verdict.kind === 'errored') {
      continue;
    }
    const entry = bySkill.get(job.skill) ?? { skill: job.skill, before: { passed: 0, judged: 0 }, after: { passed: 0, judged: 0 }, regressed: false };
    bySkill.set(job.skill, entry);
    entry.before.judged++;
    entry.after.judged++;
    entry.before.passed += then.kind === 'passed' ? 1 : 0;
    entry.after.passed += verdict.kind === 'passed' ? 1 : 0;
    entry.regressed = entry.after.passed < entry.before.passed;
  }
  return [...bySkill.values()];
}

const MARKS: Readonly<Record<QueryVerdict['kind'], string>> = { passed: 'ok  ', failed: 'FAIL', errored: 'ERR ' };

function printReport(evaluation: Evaluation, comparison: readonly BaselineComparison[] | undefined, ref: string | undefined, io: CliIo): void {
  const bySkill = groupBySkill(evaluation.results);
  for (const [skill, results] of bySkill) {
    io.stdout(
      `${skill} (${displayPath(results[0].job.file, io)}): ${describePrecisionRecall(precisionRecall(results.map(({ job, verdict }) => ({ shouldTrigger: job.query.shouldTrigger, verdict }))))}\n`,
    );
    for (const { job, verdict } of results) {
      io.stdout(`  ${MARKS[verdict.kind]} "${job.query.query}": ${verdict.message}\n`);
    }
    for (const cell of queriesTakenBy(evaluation.routing, skill)) {
      io.stdout(`  note: ${skill} ${describeTaken(cell)}\n`);
    }
  }
  const confusions = evaluation.routing.confusions;
  if (confusions.length > 0) {
    io.stdout('Routing, worst first (should trigger → loaded):\n');
    for (const cell of confusions) {
      const row = evaluation.routing.rows.find((candidate) => candidate.expected === cell.expected);
      io.stdout(`  ${cell.expected} → ${cell.loaded}: ${plural(cell.runs, 'run')} of ${row?.runs ?? cell.runs} (${cell.queries.map((entry) => `"${entry.query}"`).join(', ')})\n`);
    }
  }
  if (comparison && ref) {
    io.stdout(`Against ${ref}:\n`);
    for (const entry of comparison) {
      const change = entry.regressed ? 'worse' : entry.after.passed > entry.before.passed ? 'better' : 'same';
      io.stdout(`  ${entry.skill}: ${entry.before.passed}/${entry.before.judged} → ${entry.after.passed}/${entry.after.judged} passed (${change})\n`);
    }
  }
  if (evaluation.retries.length > 0) {
    io.stdout(`${plural(evaluation.retries.length, 'request')} retried (rate limits or server errors); none counted as a verdict.\n`);
  }
  const count = (kind: QueryVerdict['kind']): number => evaluation.results.filter((result) => result.verdict.kind === kind).length;
  io.stdout(`${count('passed')} passed, ${count('failed')} failed, ${count('errored')} without a verdict\n`);
}

function groupBySkill(results: readonly JobResult[]): Map<string, JobResult[]> {
  const groups = new Map<string, JobResult[]>();
  for (const result of results) {
    groups.set(result.job.skill, [...(groups.get(result.job.skill) ?? []), result]);
  }
  return groups;
}

function resultJson(evaluation: Evaluation, settings: EndpointSettings, baseline: { ref: string; skills: BaselineComparison[] } | undefined): object {
  return {
    api: settings.api,
    endpoint: settings.endpoint,
    model: settings.model,
    skills: [...groupBySkill(evaluation.results)].map(([name, results]) => ({
      name,
      file: results[0].job.file,
      ...precisionRecall(results.map(({ job, verdict }) => ({ shouldTrigger: job.query.shouldTrigger, verdict }))),
      queries: results.map(({ job, verdict, outcomes }) => ({
        query: job.query.query,
        shouldTrigger: job.query.shouldTrigger,
        verdict: verdict.kind,
        ...(verdict.kind === 'errored' ? {} : { rate: verdict.rate, runs: verdict.runs }),
        message: verdict.message,
        loaded: loadedCounts(outcomes),
      })),
    })),
    routing: evaluation.routing,
    retries: evaluation.retries.length,
    ...(baseline ? { baseline } : {}),
  };
}

/** How many runs loaded each skill. */
function loadedCounts(outcomes: readonly RunOutcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const outcome of outcomes) {
    if (outcome.kind === 'completed') {
      for (const name of new Set(outcome.loaded)) {
        counts[name] = (counts[name] ?? 0) + 1;
      }
    }
  }
  return counts;
}
