// "Add trigger tests…" above a SKILL.md that has no evals/triggers.json yet: the way to the Testing
// view for a skill without tests. Shown only where Draft Trigger Tests… makes sense (draftRefusal),
// it runs that command for the skill and goes away once the file exists.

import * as path from 'node:path';
import * as vscode from 'vscode';
import { draftRefusal } from '../../core/evals/draft-refusal';
import { TRIGGER_TESTS_PATH } from '../../core/evals/trigger-file';
import { SKILL_FILE_SELECTOR } from '../shared/skill-files';
import { Disposable } from '../shared/disposable';
import { COMMANDS } from '../shared/manifest';
import type { SkillsHost } from '../skills/types';
import type { TriggerTestFiles } from './trigger-test-files';

export class AddTriggerTestsLens extends Disposable implements vscode.CodeLensProvider {
  private readonly changeEmitter = this.register(new vscode.EventEmitter<void>());
  readonly onDidChangeCodeLenses = this.changeEmitter.event;

  constructor(
    private readonly host: SkillsHost,
    private readonly files: TriggerTestFiles,
  ) {
    super();
    // The files' event: a trigger file appeared or went; the host's: a skill became draftable or stopped being so.
    this.register(files.onDidChange(() => this.changeEmitter.fire()));
    this.register(host.onDidChange(() => this.changeEmitter.fire()));
    this.register(vscode.languages.registerCodeLensProvider(SKILL_FILE_SELECTOR, this));
  }

  async provideCodeLenses(document: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    await this.files.settled();
    const record = this.host.snapshot.skills.find((candidate) => candidate.file === document.uri.fsPath);
    if (!record || draftRefusal(record) !== undefined || this.files.ofFile(path.join(record.dir, TRIGGER_TESTS_PATH))) {
      return [];
    }
    return [
      new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), {
        title: 'Add trigger tests…',
        tooltip: `Draft ${TRIGGER_TESTS_PATH} for ${record.name}: requests that should load it and near misses that should not, run from the Testing view`,
        command: COMMANDS.draftTriggerTests,
        arguments: [document.uri],
      }),
    ];
  }
}
