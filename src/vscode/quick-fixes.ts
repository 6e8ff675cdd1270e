// Quick fixes on SKILL.md diagnostics. The fixes themselves are core text transforms
// (core/skill-fixes); this provider only maps them onto WorkspaceEdits.

import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { fixesForDiagnostic, type SkillFix } from '../core/skill-file/fixes';
import { DIAGNOSTIC_SOURCE, toVscodeRange } from './convert';
import { isSkillFile } from './diagnostics';

export class SkillQuickFixes implements vscode.CodeActionProvider {
  static readonly metadata: vscode.CodeActionProviderMetadata = { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] };

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range | vscode.Selection, context: vscode.CodeActionContext): vscode.CodeAction[] {
    if (!isSkillFile(document.uri)) {
      return [];
    }
    const text = document.getText();
    return context.diagnostics
      .filter((diagnostic) => diagnostic.source === DIAGNOSTIC_SOURCE && typeof diagnostic.code === 'string')
      .flatMap((diagnostic) => {
        const range = { start: { line: diagnostic.range.start.line, column: diagnostic.range.start.character }, end: { line: diagnostic.range.end.line, column: diagnostic.range.end.character } };
        return fixesForDiagnostic(text, document.uri.fsPath, { code: diagnostic.code as string, range })
          .filter((fix) => !fix.renameFolder || !fs.existsSync(fix.renameFolder.to))
          .map((fix) => toCodeAction(document, fix, diagnostic));
      });
  }
}

function toCodeAction(document: vscode.TextDocument, fix: SkillFix, diagnostic: vscode.Diagnostic): vscode.CodeAction {
  const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
  action.diagnostics = [diagnostic];
  action.isPreferred = fix.preferred === true;
  const edit = new vscode.WorkspaceEdit();
  for (const textEdit of fix.edits) {
    edit.replace(document.uri, toVscodeRange(textEdit.range), textEdit.newText);
  }
  if (fix.renameFolder) {
    // Renaming the folder moves the SKILL.md with it; open editors follow the rename.
    edit.renameFile(vscode.Uri.file(fix.renameFolder.from), vscode.Uri.file(fix.renameFolder.to), { overwrite: false });
  }
  action.edit = edit;
  return action;
}

export function registerQuickFixes(): vscode.Disposable {
  return vscode.languages.registerCodeActionsProvider({ scheme: 'file', pattern: '**/[sS][kK][iI][lL][lL].[mM][dD]' }, new SkillQuickFixes(), SkillQuickFixes.metadata);
}
