// Skills: Improve Description…: tunes a skill's description against its trigger tests on a chat
// model (core's loop), shows the scores per round and the change as a Markdown preview, and applies
// the pick as one undoable edit of SKILL.md only when the user chooses to.

import * as vscode from 'vscode';
import { describeModelError } from '../../core/chat/prompt';
import { draftRefusal } from '../../core/evals/draft-refusal';
import { measureDescription } from '../../core/evals/measure';
import { loadTriggerTests, type TriggerQuery } from '../../core/evals/trigger-file';
import { descriptionEdit, DEFAULT_TUNE_SEED, MAX_TUNE_ROUNDS, plannedTuneRequests, rateOf, tuneDescription, tuneRefusal, type TuneResult } from '../../core/evals/tune';
import { isImprovement, renderTuneReport } from '../../core/evals/tune-report';
import { formatPercent } from '../../core/evals/verdict';
import { isUsableStatus } from '../../core/model/status';
import type { SkillRecord } from '../../core/model/types';
import { validateSkillText } from '../../core/skill-file/load';
import { currentBudgetChars } from '../../core/use/current-catalog';
import { errorMessage } from '../../core/util/errors';
import { toChatMessages } from '../shared/language-model';
import { toVscodeRange } from '../shared/convert';
import { Disposable } from '../shared/disposable';
import type { ReportPreviews } from '../shared/report-preview';
import { readTriggerTestSettings } from '../shared/settings';
import type { SkillsHost } from '../skills/types';
import { COMMANDS } from '../shared/manifest';
import type { TriggerTestFiles } from './trigger-test-files';
import { confirmRequests } from './trigger-tests';
import { chatTriggerModel, chooseTriggerModel } from './trigger-model';

export type ImproveOutcome = 'applied' | 'kept' | 'unchanged' | 'cancelled' | 'failed';

const SCHEME = 'agent-skills-tune';
export const TUNE_REPORT_URI = vscode.Uri.from({ scheme: SCHEME, path: '/Improve Description.md' });

/** The last tuning's report, as a read-only Markdown document. */
export class TuneReportDocument extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly changeEmitter = this.register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.changeEmitter.event;
  private text = '';

  constructor(private readonly previews: ReportPreviews) {
    super();
    this.register(vscode.workspace.registerTextDocumentContentProvider(SCHEME, this));
  }

  provideTextDocumentContent(): string {
    return this.text;
  }

  async show(text: string): Promise<void> {
    this.text = text;
    await this.previews.show(TUNE_REPORT_URI, text, () => this.changeEmitter.fire(TUNE_REPORT_URI));
  }
}

export async function improveDescription(
  host: SkillsHost,
  workspaceState: vscode.Memento,
  report: TuneReportDocument,
  triggerTests: TriggerTestFiles,
  given: SkillRecord | undefined,
): Promise<ImproveOutcome> {
  const usable = host.snapshot.skills.filter((candidate) => isUsableStatus(candidate.status) && candidate.metadata);
  const record =
    given ??
    (await pickSkill(
      usable.filter((candidate) => draftRefusal(candidate) === undefined),
      triggerTests,
    ));
  if (!record) {
    return 'cancelled';
  }
  const refusal = draftRefusal(record);
  if (refusal !== undefined || !record.metadata) {
    void vscode.window.showWarningMessage(`Cannot improve the description: ${refusal}`);
    return 'failed';
  }
  if (record.root.kind === 'workspace' && !vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage(`Improve Description runs ${record.name}'s trigger tests and edits its SKILL.md: trust this workspace first (Restricted Mode).`);
    return 'failed';
  }
  const tests = await loadTriggerTests(record.dir);
  if (!tests?.tests) {
    void vscode.window.showWarningMessage(`${record.name} has no usable trigger tests (evals/triggers.json): draft some with Skills: Draft Trigger Tests… first.`);
    return 'failed';
  }
  const queries = tests.tests.queries;
  const notEnough = tuneRefusal(record.name, queries);
  if (notEnough) {
    void vscode.window.showWarningMessage(`Cannot improve the description: ${notEnough}`);
    return 'failed';
  }

  const settings = readTriggerTestSettings();
  const choice = await chooseTriggerModel(settings.model, workspaceState);
  if (choice.kind !== 'model') {
    if (choice.kind === 'none') {
      void vscode.window.showErrorMessage(choice.message ?? 'No language model is available to improve the description.');
    }
    return choice.kind === 'none' ? 'failed' : 'cancelled';
  }
  const model = choice.model;
  const runs = tests.tests.runs ?? settings.runs;
  const requests = plannedTuneRequests(queries.length, runs, MAX_TUNE_ROUNDS);
  if (
    requests > settings.confirmAbove &&
    !(await confirmRequests(requests, settings.confirmAbove, {
      label: `Improve the description of ${record.name}`,
      detail: `Sends up to ${requests} requests to ${model.name}: ${queries.length} queries, ${runs} runs each, for the current description and up to ${MAX_TUNE_ROUNDS} proposals.`,
    }))
  ) {
    return 'cancelled';
  }

  const originalText = (await vscode.workspace.openTextDocument(record.file)).getText();
  const description = record.metadata.description;
  const skills = host.snapshot.skills;
  const outcome = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Improving the description of ${record.name}`, cancellable: true },
    async (progress, token): Promise<TuneResult | { error: string } | undefined> => {
      const trigger = chatTriggerModel(model, token);
      try {
        return await tuneDescription({
          skill: { name: record.name, description },
          otherSkills: usable.filter((other) => other !== record && !other.metadata!.disableModelInvocation).map((other) => ({ name: other.name, description: other.metadata!.description })),
          queries,
          rounds: MAX_TUNE_ROUNDS,
          seed: DEFAULT_TUNE_SEED,
          measure: (candidate, measured) =>
            measureDescription(skills, record.name, candidate, measured, (messages) => trigger.send(messages), {
              budgetChars: currentBudgetChars(host.settings, model.maxInputTokens),
              runs,
              threshold: tests.tests!.threshold ?? settings.threshold,
              concurrency: settings.concurrency,
              token,
            }),
          propose: async (messages) => {
            const response = await model.sendRequest(toChatMessages(messages), { justification: 'Improve Description asks the model for a better skill description.' }, token);
            let text = '';
            for await (const chunk of response.text) {
              text += chunk;
            }
            return token.isCancellationRequested ? undefined : text;
          },
          check: (candidate) => {
            const edit = descriptionEdit(originalText, record.file, candidate);
            return edit.ok ? undefined : edit.reason;
          },
          onProgress: ({ round, rounds, message }) => progress.report({ message: `${message}…`, increment: round === 0 ? 0 : 100 / rounds }),
        });
      } catch (error) {
        return token.isCancellationRequested ? undefined : { error: describeModelError(error) || errorMessage(error) };
      }
    },
  );
  if (!outcome) {
    return 'cancelled';
  }
  if ('error' in outcome) {
    host.log.warn(`Improve Description for ${record.name}: ${outcome.error}`);
    void vscode.window.showErrorMessage(`Could not improve the description of ${record.name}: ${outcome.error}`);
    return 'failed';
  }
  await report.show(renderTuneReport(record.name, outcome, { model: model.name, runs, seed: DEFAULT_TUNE_SEED }));
  const before = outcome.rounds[0];
  host.log.info(
    `Improve Description for ${record.name}: ${outcome.rounds.length - 1} proposals measured; test score ${formatPercent(rateOf(before.test))} → ${formatPercent(rateOf(outcome.best.test))}.`,
  );
  if (!isImprovement(outcome)) {
    void vscode.window.showInformationMessage(`No proposal did better than ${record.name}'s current description on the test queries; it stays as it is.`);
    return 'unchanged';
  }
  // Keep comes first, so it is the focused choice: Enter alone never rewrites SKILL.md.
  const keep = { label: 'Keep the current description', detail: description };
  const apply = { label: 'Apply the proposed description', detail: outcome.best.description };
  const picked = await vscode.window.showQuickPick([keep, apply], {
    title: `${record.name}: test score ${formatPercent(rateOf(before.test))} → ${formatPercent(rateOf(outcome.best.test))} (scores per round in the preview)`,
    ignoreFocusOut: true,
  });
  if (picked !== apply) {
    return 'kept';
  }
  return applyDescription(record, description, outcome.best.description);
}

/** One WorkspaceEdit of the description's value, saved; undo in the editor brings the old one back. */
async function applyDescription(record: SkillRecord, measured: string, proposed: string): Promise<ImproveOutcome> {
  const document = await vscode.workspace.openTextDocument(record.file);
  const text = document.getText();
  if (validateSkillText(text, record.file).metadata?.description !== measured) {
    void vscode.window.showWarningMessage(`${record.name}'s description changed while the tuning ran: nothing was applied. Run Improve Description again.`);
    return 'failed';
  }
  const edit = descriptionEdit(text, record.file, proposed);
  if (!edit.ok) {
    void vscode.window.showErrorMessage(`Could not apply the description to ${record.file}: ${edit.reason}`);
    return 'failed';
  }
  const range = toVscodeRange(edit.edit.range);
  const workspaceEdit = new vscode.WorkspaceEdit();
  workspaceEdit.replace(document.uri, range, edit.edit.newText);
  if (!(await vscode.workspace.applyEdit(workspaceEdit)) || !(await document.save())) {
    void vscode.window.showErrorMessage(`Could not write the new description to ${record.file}.`);
    return 'failed';
  }
  const start = range.start;
  const end = document.positionAt(document.offsetAt(start) + edit.edit.newText.length);
  await vscode.window.showTextDocument(document, { selection: new vscode.Range(start, end) });
  return 'applied';
}

/** The skills whose trigger tests can tune them; the pick list names the others and why they are left out. */
async function pickSkill(candidates: readonly SkillRecord[], triggerTests: TriggerTestFiles): Promise<SkillRecord | undefined> {
  await triggerTests.settled();
  const queriesOf = (record: SkillRecord): TriggerQuery[] | undefined => triggerTests.skills.find((entry) => entry.record.dir === record.dir)?.parsed?.tests?.queries;
  const untested = candidates.filter((record) => queriesOf(record) === undefined);
  const tooFew = candidates.filter((record) => {
    const queries = queriesOf(record);
    return queries !== undefined && tuneRefusal(record.name, queries) !== undefined;
  });
  const tunable = candidates.filter((record) => !untested.includes(record) && !tooFew.includes(record));
  const leftOut = [untested.length > 0 ? `Without trigger tests: ${listNames(untested)}.` : '', tooFew.length > 0 ? `Too few queries to split: ${listNames(tooFew)}.` : ''].filter(Boolean);
  if (tunable.length === 0) {
    const draft = 'Draft Trigger Tests…';
    const choice = await vscode.window.showInformationMessage(
      `No skill can be tuned yet: Improve Description needs a skill of yours that the model is offered, with at least 2 trigger-test queries of each kind. ${leftOut.join(' ')}`.trim(),
      draft,
    );
    if (choice === draft) {
      void vscode.commands.executeCommand(COMMANDS.draftTriggerTests);
    }
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    tunable.map((record) => ({ label: record.name, description: record.root.label, detail: record.metadata?.description, record })),
    // The title, unlike the placeholder, stays in view while the user types.
    { title: ['Improve Description: skills with trigger tests.', ...leftOut].join(' '), placeHolder: 'The skill whose description to improve against its trigger tests', matchOnDescription: true },
  );
  return picked?.record;
}

const NAMES_LISTED = 5;

/** "a, b and c", or "a, b, c, d, e and 3 more". */
function listNames(records: readonly SkillRecord[]): string {
  const names = records.map((record) => record.name);
  const shown = names.slice(0, NAMES_LISTED);
  const more = names.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}` : shown.join('');
}
