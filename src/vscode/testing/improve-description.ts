// Skills: Improve Description…: tunes a skill's description against its trigger tests on a chat
// model (core's loop), shows the scores per round and the change as a Markdown preview, and applies
// the pick as one undoable edit of SKILL.md only when the user chooses to.

import * as vscode from 'vscode';
import { describeModelError } from '../../core/chat/prompt';
import { draftRefusal } from '../../core/evals/draft';
import { measureDescription } from '../../core/evals/measure';
import { loadTriggerTests } from '../../core/evals/trigger-file';
import { descriptionEdit, DEFAULT_TUNE_SEED, MAX_TUNE_ROUNDS, plannedTuneRequests, rateOf, tuneDescription, tuneRefusal, type TuneResult } from '../../core/evals/tune';
import { isImprovement, renderTuneReport } from '../../core/evals/tune-report';
import { formatPercent } from '../../core/evals/verdict';
import { isUsableStatus } from '../../core/model/status';
import type { SkillRecord } from '../../core/model/types';
import { validateSkillText } from '../../core/skill-file/load';
import { currentBudgetChars } from '../../core/use/current-catalog';
import { errorMessage } from '../../core/util/errors';
import { toChatMessages } from '../chat/messages';
import { toVscodeRange } from '../convert';
import { Disposable } from '../disposable';
import { readTriggerTestSettings } from '../settings';
import type { SkillsHost } from '../skills-host';
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

  constructor() {
    super();
    this.register(vscode.workspace.registerTextDocumentContentProvider(SCHEME, this));
  }

  provideTextDocumentContent(): string {
    return this.text;
  }

  async show(text: string): Promise<void> {
    this.text = text;
    this.changeEmitter.fire(TUNE_REPORT_URI);
    await vscode.workspace.openTextDocument(TUNE_REPORT_URI);
    await vscode.commands.executeCommand('markdown.showPreview', TUNE_REPORT_URI);
  }
}

export async function improveDescription(host: SkillsHost, workspaceState: vscode.Memento, report: TuneReportDocument, given: SkillRecord | undefined): Promise<ImproveOutcome> {
  const usable = host.snapshot.skills.filter((candidate) => isUsableStatus(candidate.status) && candidate.metadata);
  const record = given ?? (await pickSkill(usable.filter((candidate) => draftRefusal(candidate) === undefined)));
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
  const apply = { label: 'Apply the proposed description', detail: outcome.best.description };
  const keep = { label: 'Keep the current description', detail: description };
  const picked = await vscode.window.showQuickPick([apply, keep], {
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

async function pickSkill(candidates: readonly SkillRecord[]): Promise<SkillRecord | undefined> {
  if (candidates.length === 0) {
    void vscode.window.showInformationMessage('No skill can be tuned yet: Improve Description needs a skill of yours that the model is offered, with trigger tests.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    candidates.map((record) => ({ label: record.name, description: record.root.label, detail: record.metadata?.description, record })),
    { title: 'Improve Description', placeHolder: 'The skill whose description to improve against its trigger tests', matchOnDescription: true },
  );
  return picked?.record;
}
