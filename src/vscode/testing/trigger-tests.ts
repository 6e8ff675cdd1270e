// The "Agent Skills" test controller: each skill's evals/triggers.json as tests in the Testing view
// (source → skill → query), kept current by the registry and the skill watcher, and run against a
// chat model with exactly the first turn @skills would send.

import * as path from 'node:path';
import * as vscode from 'vscode';
import { NO_MODEL_MESSAGE } from '../../core/chat/prompt';
import { untrustedSkillCount } from '../../core/chat/tool-texts';
import { triggerTestPrompt } from '../../core/evals/request';
import { describeTaken, queriesTakenBy, routingReport, type RoutedQuery, type RoutingReport } from '../../core/evals/routing';
import { plannedRequests, runTriggerJobs, type TriggerJob } from '../../core/evals/run';
import { outputLines, queryOutputBlock } from '../../core/evals/run-output';
import type { QueryCounts, RoutingRunInfo } from '../../core/evals/routing-page';
import { readStoredRouting, storedRouting } from '../../core/evals/routing-store';
import { TRIGGER_TESTS_PATH, type TriggerQuery } from '../../core/evals/trigger-file';
import { describePrecisionRecall, precisionRecall, type QueryVerdict } from '../../core/evals/verdict';
import type { SkillRecord } from '../../core/model/types';
import { currentCatalog } from '../../core/use/current-catalog';
import { sourceNamer } from '../../core/discovery/source-names';
import { toVscodeRange } from '../shared/convert';
import { readTriggerTestSettings, type TriggerTestSettings } from '../shared/settings';
import { Disposable } from '../shared/disposable';
import type { SkillsHost } from '../skills/types';
import { chooseTriggerModel, chatTriggerModel } from './trigger-model';
import type { TriggerTestFiles, TriggerTestsOfSkill } from './trigger-test-files';
import { errorDetail, errorMessage } from '../../core/util/errors';
import { plural } from '../../core/util/text';

export const TEST_CONTROLLER_ID = 'agentSkills.triggerTests';
/** Where the workspace keeps the last run's routing, so the report survives a reload as the Testing view's results do. */
const ROUTING_STATE_KEY = 'agentSkills.lastRouting';

interface QueryEntry {
  kind: 'query';
  record: SkillRecord;
  query: TriggerQuery;
  runs?: number;
  threshold?: number;
}

interface SkillEntry {
  kind: 'skill';
  record: SkillRecord;
  /** Workspace skill of an untrusted workspace: listed, never read or run. */
  untrusted: boolean;
}

type Entry = QueryEntry | SkillEntry | { kind: 'source' };

/** One query's outcome in the last run, for the extension's tests. */
export interface TriggerTestResult {
  skill: string;
  query: string;
  verdict: QueryVerdict;
}

interface Job extends TriggerJob {
  item: vscode.TestItem;
  record: SkillRecord;
}

export class TriggerTestController extends Disposable {
  readonly controller = this.register(vscode.tests.createTestController(TEST_CONTROLLER_ID, 'Agent Skills'));
  private readonly entries = new WeakMap<vscode.TestItem, Entry>();
  /** "precision … · recall …" of a skill's last run, kept across rebuilds (by skill item id). */
  private readonly scores = new Map<string, string>();
  /** What the last run decided, per query item id. */
  readonly lastResults = new Map<string, TriggerTestResult>();
  /** Which skill each query of the last run loaded, on which model and when; undefined until a run reached the model. */
  lastRoutingRun?: RoutingRunInfo;
  private readonly routingEmitter = this.register(new vscode.EventEmitter<RoutingRunInfo>());
  /** Fires when a run that reached the model has ended, with its routing. */
  readonly onDidReportRouting = this.routingEmitter.event;

  /** Which skill each query of the last run loaded; undefined until a run reached the model. */
  get lastRouting(): RoutingReport | undefined {
    return this.lastRoutingRun?.report;
  }

  constructor(
    private readonly host: SkillsHost,
    private readonly files: TriggerTestFiles,
    private readonly workspaceState: vscode.Memento,
  ) {
    super();
    this.lastRoutingRun = readStoredRouting(workspaceState.get(ROUTING_STATE_KEY));
    this.controller.createRunProfile('Run trigger tests', vscode.TestRunProfileKind.Run, (request, token) => this.run(request, token), true);
    this.controller.refreshHandler = () => files.refresh();
    this.register(files.onDidChange(() => this.buildItems()));
    this.buildItems();
  }

  /** Resolves once the items follow the latest registry snapshot and files. */
  async settled(): Promise<void> {
    await this.files.settled();
  }

  /** Source → skill → query, from the current files. Items keep their ids, so results stay on them. */
  private buildItems(): void {
    const sources = new Map<string, vscode.TestItem>();
    const sourceName = sourceNamer(this.host.snapshot);
    for (const skill of this.files.skills) {
      const label = skill.record.root.label;
      let source = sources.get(label);
      if (!source) {
        source = this.controller.createTestItem(`source:${label}`, sourceName(skill.record.root));
        this.entries.set(source, { kind: 'source' });
        sources.set(label, source);
      }
      source.children.add(this.skillItem(skill));
    }
    this.controller.items.replace([...sources.values()]);
  }

  private skillItem({ record, parsed }: TriggerTestsOfSkill): vscode.TestItem {
    const id = `skill:${record.dir}`;
    const uri = vscode.Uri.file(path.join(record.dir, TRIGGER_TESTS_PATH));
    const item = this.controller.createTestItem(id, record.name, uri);
    if (!parsed) {
      item.description = 'Restricted Mode: not run';
      this.entries.set(item, { kind: 'skill', record, untrusted: true });
      return item;
    }
    item.range = new vscode.Range(0, 0, 0, 0);
    item.description = this.scores.get(id);
    const firstError = parsed.diagnostics.find((diagnostic) => diagnostic.severity === 'error');
    if (firstError) {
      const { line, column } = firstError.range.start;
      item.error = `${path.join(record.name, TRIGGER_TESTS_PATH)}:${line + 1}:${column + 1}: ${firstError.message}`;
    }
    this.entries.set(item, { kind: 'skill', record, untrusted: false });
    for (const query of parsed.tests?.queries ?? []) {
      const child = this.controller.createTestItem(`${id}|${query.query}`, query.query, uri);
      child.description = query.shouldTrigger ? 'should trigger' : 'should not trigger';
      child.range = toVscodeRange(query.range);
      this.entries.set(child, { kind: 'query', record, query, runs: parsed.tests?.runs, threshold: parsed.tests?.threshold });
      item.children.add(child);
    }
    return item;
  }

  /** The run profile's handler. */
  async run(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    const run = this.controller.createTestRun(request);
    try {
      await this.runRequest(request, run, token);
    } catch (error) {
      this.host.log.error(`Trigger test run failed: ${errorDetail(error)}`);
      appendLines(run, outputLines(`The run failed: ${errorMessage(error)}`));
    } finally {
      run.end();
    }
  }

  private async runRequest(request: vscode.TestRunRequest, run: vscode.TestRun, token: vscode.CancellationToken): Promise<void> {
    const { queries, restricted } = this.selected(request);
    for (const item of restricted) {
      run.skipped(item);
      appendLines(run, outputLines(`${item.label}: not run, the workspace is in Restricted Mode (its skills never reach a model until you trust it).`), item);
    }
    if (queries.length === 0) {
      return;
    }
    const settings = readTriggerTestSettings();
    const jobs: Job[] = queries.map(({ item, entry }) => ({
      item,
      record: entry.record,
      skill: entry.record.name,
      query: entry.query,
      runs: entry.runs ?? settings.runs,
      threshold: entry.threshold ?? settings.threshold,
    }));
    const decided = new Map<Job, QueryVerdict>();
    const decide = (job: Job, verdict: QueryVerdict, duration?: number): void => {
      decided.set(job, verdict);
      this.report(run, job, verdict, duration);
    };
    const reached = await this.runJobs(jobs, settings, decide, run, token);
    if (reached) {
      const counts: QueryCounts = { passed: 0, failed: 0, errored: 0, skipped: 0 };
      jobs.forEach((job) => counts[decided.get(job)?.kind ?? 'skipped']++);
      this.reportRouting(reached.routed, reached.model, counts, run);
    }
    this.reportSkills(jobs, decided, run);
  }

  /**
   * Sends the jobs' runs and decides each job it finishes; a job left undecided was skipped.
   * Returns where each query's runs went, when the run reached a model.
   */
  private async runJobs(
    jobs: readonly Job[],
    settings: TriggerTestSettings,
    decide: (job: Job, verdict: QueryVerdict, duration?: number) => void,
    run: vscode.TestRun,
    token: vscode.CancellationToken,
  ): Promise<{ routed: RoutedQuery[]; model: string } | undefined> {
    const skipAll = (reason: string): void => {
      appendLines(run, outputLines(reason));
      jobs.forEach((job) => run.skipped(job.item));
    };

    const choice = await chooseTriggerModel(settings.model, this.workspaceState);
    if (choice.kind === 'none') {
      jobs.forEach((job) => decide(job, { kind: 'errored', message: choice.message ?? NO_MODEL_MESSAGE }));
      return undefined;
    }
    if (choice.kind === 'dismissed') {
      skipAll('No model was picked; nothing was sent.');
      return undefined;
    }
    const model = choice.model;
    const requests = plannedRequests(jobs);
    if (
      requests > settings.confirmAbove &&
      !(await confirmRequests(requests, settings.confirmAbove, {
        label: `Run ${jobs.length} trigger tests`,
        detail: `Sends at least ${requests} requests to ${model.name}: each query as many times as agentSkills.triggerTests.runs (or the file's "runs") says.`,
      }))
    ) {
      skipAll('The run was not confirmed; nothing was sent.');
      return undefined;
    }

    const catalog = currentCatalog(this.host, model.maxInputTokens);
    const untrusted = untrustedSkillCount(this.host.snapshot);
    jobs.forEach((job) => run.enqueued(job.item));
    appendLines(run, outputLines(`Trigger tests on ${model.name} (${model.id}): ${jobs.length} queries, ${requests} runs, ${settings.concurrency} at a time.`));
    this.host.log.info(`Trigger tests: ${jobs.length} queries on ${model.name}.`);

    const startedAt = new Map<Job, number>();
    const routed: RoutedQuery[] = [];
    const runnable = jobs.filter((job) => {
      if (!job.record.metadata?.disableModelInvocation) {
        return true;
      }
      decide(job, { kind: 'errored', message: `${job.skill} is hidden from the model (disable-model-invocation: true), so no query can trigger it.` });
      return false;
    });
    const summary = await runTriggerJobs(runnable, {
      prompt: (query) => triggerTestPrompt(catalog.text, untrusted, query),
      model: chatTriggerModel(model, token),
      concurrency: settings.concurrency,
      token,
      onStarted: (job) => {
        startedAt.set(job, Date.now());
        run.started(job.item);
      },
      onDone: (job, verdict, outcomes) => {
        appendLines(run, queryOutputBlock(job.skill, job.query.query, job.query.shouldTrigger, verdict, outcomes), job.item);
        routed.push({ skill: job.skill, query: job.query.query, shouldTrigger: job.query.shouldTrigger, outcomes });
        decide(job, verdict, Date.now() - (startedAt.get(job) ?? Date.now()));
      },
    });
    for (const job of summary.cancelled) {
      run.skipped(job.item);
    }
    if (summary.cancelled.length > 0) {
      appendLines(run, outputLines(`Cancelled: ${summary.cancelled.length} queries not finished.`));
    }
    return { routed, model: model.name };
  }

  /**
   * Keeps the run's routing, with its queries counted as the Testing view shows them (also in the
   * workspace's state, for after a reload), and notes on each skill that took queries meant for
   * another which ones.
   */
  private reportRouting(routed: readonly RoutedQuery[], model: string, queries: QueryCounts, run: vscode.TestRun): void {
    const routing = routingReport(routed);
    const info = { model, endedAt: Date.now(), queries };
    this.lastRoutingRun = { report: routing, ...info };
    void this.workspaceState
      .update(ROUTING_STATE_KEY, storedRouting(info, routed))
      .then(undefined, (error: unknown) => this.host.log.warn(`Could not keep the routing of the run: ${errorMessage(error)}`));
    this.routingEmitter.fire(this.lastRoutingRun);
    for (const item of this.skillItems()) {
      for (const cell of queriesTakenBy(routing, item.label)) {
        appendLines(run, outputLines(`${item.label} ${describeTaken(cell)}.`), item);
      }
    }
  }

  /** A query's verdict: its state in the run (a failure's message at its entry) and in `lastResults`. */
  private report(run: vscode.TestRun, job: Job, verdict: QueryVerdict, duration?: number): void {
    this.lastResults.set(job.item.id, { skill: job.skill, query: job.query.query, verdict });
    if (verdict.kind === 'passed') {
      run.passed(job.item, duration);
    } else if (verdict.kind === 'failed') {
      const message = new vscode.TestMessage(verdict.message);
      message.location = job.item.uri && job.item.range ? new vscode.Location(job.item.uri, job.item.range) : undefined;
      run.failed(job.item, message, duration);
    } else {
      run.errored(job.item, new vscode.TestMessage(verdict.message), duration);
    }
  }

  /**
   * Each skill's own result over its queries in this run, with precision and recall: passed when
   * every query passed, failed when one failed, errored when the rest could not be decided, skipped
   * when a query was cancelled or not sent. Without it the skill's row in Test Results has no state.
   */
  private reportSkills(jobs: readonly Job[], verdicts: ReadonlyMap<Job, QueryVerdict>, run: vscode.TestRun): void {
    const bySkill = new Map<vscode.TestItem, Job[]>();
    for (const job of jobs) {
      const parent = job.item.parent;
      if (parent) {
        bySkill.set(parent, [...(bySkill.get(parent) ?? []), job]);
      }
    }
    for (const [item, skillJobs] of bySkill) {
      const results = skillJobs.flatMap((job) => {
        const verdict = verdicts.get(job);
        return verdict ? [{ shouldTrigger: job.query.shouldTrigger, verdict }] : [];
      });
      if (results.length < skillJobs.length) {
        run.skipped(item);
        continue;
      }
      const scores = describePrecisionRecall(precisionRecall(results));
      this.scores.set(item.id, scores);
      // The files may have changed during the run: the item on show is the one with this id.
      const shown = this.skillItems().find((candidate) => candidate.id === item.id);
      if (shown) {
        shown.description = scores;
      }
      const failed = results.filter((result) => result.verdict.kind === 'failed').length;
      const errored = results.filter((result) => result.verdict.kind === 'errored').length;
      const summary = `${scores} over ${plural(results.length, 'query', 'queries')}`;
      appendLines(run, outputLines(`${item.label}: ${summary}.`), item);
      if (failed > 0) {
        run.failed(item, new vscode.TestMessage(`${summary}: ${failed} failed${errored > 0 ? `, ${errored} errored` : ''}.`));
      } else if (errored > 0) {
        run.errored(item, new vscode.TestMessage(`${summary}: ${errored} errored.`));
      } else {
        run.passed(item);
      }
    }
  }

  /** The item of a query by its skill's name and its text, when it is still among the tests. */
  queryItem(skill: string, query: string): vscode.TestItem | undefined {
    for (const item of this.skillItems().filter((candidate) => candidate.label === skill)) {
      const found = item.children.get(`${item.id}|${query}`);
      if (found) {
        return found;
      }
    }
    return undefined;
  }

  private skillItems(): vscode.TestItem[] {
    const items: vscode.TestItem[] = [];
    this.controller.items.forEach((source) => source.children.forEach((skill) => items.push(skill)));
    return items;
  }

  /** The query items a request covers (parents expand to their queries), and untrusted skills it names. */
  private selected(request: vscode.TestRunRequest): { queries: { item: vscode.TestItem; entry: QueryEntry }[]; restricted: vscode.TestItem[] } {
    const excluded = new Set(request.exclude ?? []);
    const queries: { item: vscode.TestItem; entry: QueryEntry }[] = [];
    const restricted: vscode.TestItem[] = [];
    const visit = (item: vscode.TestItem): void => {
      if (excluded.has(item)) {
        return;
      }
      const entry = this.entries.get(item);
      if (entry?.kind === 'query') {
        queries.push({ item, entry });
      } else if (entry?.kind === 'skill' && entry.untrusted) {
        restricted.push(item);
      } else {
        item.children.forEach(visit);
      }
    };
    if (request.include) {
      request.include.forEach(visit);
    } else {
      this.controller.items.forEach(visit);
    }
    return { queries, restricted };
  }
}

/**
 * Asks before sending more requests than agentSkills.triggerTests.confirmAbove. A quick pick rather
 * than a modal dialog: it is answered from the keyboard and cannot be hidden behind the Testing view.
 */
export async function confirmRequests(requests: number, confirmAbove: number, action: { label: string; detail: string }): Promise<boolean> {
  const cancel = { label: 'Cancel', detail: `Runs above ${confirmAbove} requests ask first (agentSkills.triggerTests.confirmAbove).` };
  const picked = await vscode.window.showQuickPick([action, cancel], { title: `Run ${requests} model requests?`, ignoreFocusOut: true });
  return picked === action;
}

/** Lines of the run's output, as the terminal of Test Results wants them; with `item`, also in that test's own output. */
function appendLines(run: vscode.TestRun, lines: readonly string[], item?: vscode.TestItem): void {
  run.appendOutput(lines.map((line) => `${line}\r\n`).join(''), undefined, item);
}
