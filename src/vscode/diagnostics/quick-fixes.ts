// Quick fixes on SKILL.md diagnostics. The fixes themselves are core text transforms
// (core/skill-fixes); this provider only maps them onto WorkspaceEdits.

import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { fixesForDiagnostic, type SkillFix } from '../../core/skill-file/fixes';
import { REPORTED_BY_VSCODE_SKILLS } from '../../core/skill-file/diagnostic-codes';
import { validateSkillText } from '../../core/skill-file/load';
import { DIAGNOSTIC_SOURCE, toVscodeRange } from '../shared/convert';
import { validatedByVsCode } from './diagnostics';
import { isSkillFile, SKILL_FILE_SELECTOR } from '../shared/skill-files';

export class SkillQuickFixes implements vscode.CodeActionProvider {
  static readonly metadata: vscode.CodeActionProviderMetadata = { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] };

  provideCodeActions(document: vscode.TextDocument, range: vscode.Range | vscode.Selection, context: vscode.CodeActionContext): vscode.CodeAction[] {
    if (!isSkillFile(document.uri)) {
      return [];
    }
    const text = document.getText();
    const ours: FixTarget[] = context.diagnostics
      .filter((diagnostic) => diagnostic.source === DIAGNOSTIC_SOURCE && typeof diagnostic.code === 'string')
      .map((diagnostic) => ({ code: diagnostic.code as string, range: diagnostic.range, diagnostic }));
    return [...ours, ...this.leftToVsCode(document, text, range, context)].flatMap((target) => {
      const coreRange = { start: { line: target.range.start.line, column: target.range.start.character }, end: { line: target.range.end.line, column: target.range.end.character } };
      return fixesForDiagnostic(text, document.uri.fsPath, { code: target.code, range: coreRange })
        .filter((fix) => !fix.renameFolder || !fs.existsSync(fix.renameFolder.to))
        .map((fix) => toCodeAction(document, fix, target.diagnostic));
    });
  }

  /**
   * Findings left to VS Code's own skills checks while the file is shown still get these fixes,
   * attached to VS Code's diagnostic at the same place.
   */
  private leftToVsCode(document: vscode.TextDocument, text: string, range: vscode.Range, context: vscode.CodeActionContext): FixTarget[] {
    if (!validatedByVsCode(document.uri)) {
      return [];
    }
    return validateSkillText(text, document.uri.fsPath)
      .diagnostics.filter((finding) => REPORTED_BY_VSCODE_SKILLS.has(finding.code) && toVscodeRange(finding.range).intersection(range) !== undefined)
      .map((finding) => {
        const findingRange = toVscodeRange(finding.range);
        const diagnostic = context.diagnostics.find((candidate) => candidate.source !== DIAGNOSTIC_SOURCE && candidate.range.intersection(findingRange) !== undefined);
        return { code: finding.code, range: findingRange, diagnostic };
      });
  }
}

interface FixTarget {
  code: string;
  range: vscode.Range;
  /** The diagnostic the fix resolves, when there is one in view. */
  diagnostic?: vscode.Diagnostic;
}

function toCodeAction(document: vscode.TextDocument, fix: SkillFix, diagnostic: vscode.Diagnostic | undefined): vscode.CodeAction {
  const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
  if (diagnostic) {
    action.diagnostics = [diagnostic];
  }
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
  return vscode.languages.registerCodeActionsProvider(SKILL_FILE_SELECTOR, new SkillQuickFixes(), SkillQuickFixes.metadata);
}
