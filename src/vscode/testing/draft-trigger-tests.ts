// Skills: Draft Trigger Tests…: asks a chat model for should / should-not queries for a skill and
// opens the proposed evals/triggers.json for review. An existing file is replaced only when the
// user says so. Without a model, a skill that has no file gets an empty one to fill in by hand.

import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { describeModelError } from '../../core/chat/prompt';
import { draftFromAnswer, draftPrompt } from '../../core/evals/draft';
import { draftRefusal } from '../../core/evals/draft-refusal';
import { TRIGGER_TESTS_PATH } from '../../core/evals/trigger-file';
import type { SkillRecord } from '../../core/model/types';
import { isUsableStatus } from '../../core/model/status';
import { toChatMessages } from '../shared/language-model';
import { readTriggerTestSettings } from '../shared/settings';
import type { SkillsHost } from '../skills/types';
import { chooseTriggerModel } from './trigger-model';
import { errorMessage } from '../../core/util/errors';

/** `started`: no model could draft, so an empty file was made to fill in by hand. */
export type DraftOutcome = 'written' | 'started' | 'kept' | 'cancelled' | 'failed';

export async function draftTriggerTests(host: SkillsHost, workspaceState: vscode.Memento, record: SkillRecord | undefined): Promise<DraftOutcome> {
  const usable = host.snapshot.skills.filter((candidate) => isUsableStatus(candidate.status) && candidate.metadata);
  const draftable = usable.filter((candidate) => draftRefusal(candidate) === undefined);
  if (!record && draftable.length === 0) {
    void vscode.window.showInformationMessage(
      'No skill can take trigger tests yet: they are for skills in your workspace or home folder that the model is offered (not built-in ones, not ones marked disable-model-invocation).',
    );
    return 'cancelled';
  }
  const skill = record ?? (await pickSkill(draftable));
  if (!skill) {
    return 'cancelled';
  }
  const refusal = draftRefusal(skill);
  if (refusal !== undefined || !skill.metadata) {
    void vscode.window.showWarningMessage(`No trigger tests to draft: ${refusal}`);
    return 'cancelled';
  }
  const file = vscode.Uri.file(path.join(skill.dir, TRIGGER_TESTS_PATH));
  const exists = await vscode.workspace.fs.stat(file).then(
    () => true,
    () => false,
  );
  if (exists) {
    // A quick pick, not a modal dialog: answered from the keyboard, and Escape keeps the file.
    const replace = { label: 'Replace it with a new draft', detail: 'The current file is overwritten with what the model proposes.' };
    const open = { label: 'Open the existing file' };
    const picked = await vscode.window.showQuickPick([open, replace], { title: `${skill.name} already has ${TRIGGER_TESTS_PATH}`, ignoreFocusOut: true });
    if (picked === open) {
      await vscode.window.showTextDocument(file);
    }
    if (picked !== replace) {
      return 'kept';
    }
  }

  const choice = await chooseTriggerModel(readTriggerTestSettings().model, workspaceState);
  if (choice.kind === 'none') {
    const why = choice.message ?? 'No language model is available to draft trigger tests.';
    return exists ? failWith(why) : startEmpty(host, skill, file, why);
  }
  if (choice.kind !== 'model') {
    return 'cancelled';
  }
  const others = usable.filter((candidate) => candidate !== skill).map((candidate) => ({ name: candidate.name, description: candidate.metadata!.description }));
  const messages = toChatMessages(draftPrompt({ name: skill.name, description: skill.metadata.description }, others));
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Drafting trigger tests for ${skill.name}…`, cancellable: true },
    async (_progress, token) => {
      try {
        const response = await choice.model.sendRequest(messages, { justification: 'Drafting trigger tests asks the model for example queries.' }, token);
        let text = '';
        for await (const chunk of response.text) {
          text += chunk;
        }
        return token.isCancellationRequested ? undefined : draftFromAnswer(text, file.fsPath);
      } catch (error) {
        return token.isCancellationRequested ? undefined : { ok: false as const, message: describeModelError(error) };
      }
    },
  );
  if (!result) {
    return 'cancelled';
  }
  if (!result.ok) {
    host.log.warn(`Draft Trigger Tests for ${skill.name}: ${result.message}`);
    void vscode.window.showErrorMessage(`Could not draft trigger tests for ${skill.name}: ${result.message}`);
    return 'failed';
  }
  await vscode.workspace.fs.writeFile(file, Buffer.from(result.text, 'utf8'));
  host.log.info(`Drafted ${result.queries.length} trigger tests for ${skill.name} in ${file.fsPath}.`);
  await vscode.window.showTextDocument(file);
  void vscode.window.showInformationMessage(`Drafted ${result.queries.length} trigger tests for ${skill.name}. Review them, then run them from the Testing view.`);
  return 'written';
}

async function pickSkill(usable: readonly SkillRecord[]): Promise<SkillRecord | undefined> {
  const picked = await vscode.window.showQuickPick(
    usable.map((record) => ({ label: record.name, description: record.root.label, detail: record.metadata?.description, record })),
    { title: 'Draft Trigger Tests', placeHolder: 'The skill to draft trigger tests for', matchOnDescription: true },
  );
  return picked?.record;
}

function failWith(message: string): DraftOutcome {
  void vscode.window.showErrorMessage(message);
  return 'failed';
}

/** An empty file (the file's own check then says what to add), created only where none exists. */
async function startEmpty(host: SkillsHost, skill: SkillRecord, file: vscode.Uri, why: string): Promise<DraftOutcome> {
  try {
    await fsp.mkdir(path.dirname(file.fsPath), { recursive: true });
    await fsp.writeFile(file.fsPath, '[]\n', { flag: 'wx' });
  } catch (error) {
    return failWith(`${why} Could not create ${file.fsPath} to fill in by hand: ${errorMessage(error)}`);
  }
  host.log.info(`Started an empty ${TRIGGER_TESTS_PATH} for ${skill.name} (${why})`);
  await vscode.window.showTextDocument(file);
  void vscode.window.showInformationMessage(
    `${why} Started an empty ${TRIGGER_TESTS_PATH} for ${skill.name}: add { "query": "…", "should_trigger": true } entries (requests that should load it) and near misses with false, then run them from the Testing view.`,
  );
  return 'started';
}
