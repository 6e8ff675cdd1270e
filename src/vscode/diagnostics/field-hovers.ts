// Hovers on the frontmatter fields VS Code's own skills support reads differently: they say what
// Agent Skills does with them, next to VS Code's own hint.

import * as vscode from 'vscode';
import { fieldNoteAt } from '../../core/skill-file/field-notes';
import { SKILL_FILE_SELECTOR } from '../shared/skill-files';

class FieldHovers implements vscode.HoverProvider {
  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const lines = Array.from({ length: Math.min(document.lineCount, position.line + 1) }, (_, index) => document.lineAt(index).text);
    const found = fieldNoteAt(lines, position.line, position.character);
    if (!found) {
      return undefined;
    }
    const text = new vscode.MarkdownString(found.note);
    text.isTrusted = false;
    return new vscode.Hover(text, new vscode.Range(position.line, found.start, position.line, found.end));
  }
}

export function registerFieldHovers(): vscode.Disposable {
  return vscode.languages.registerHoverProvider(SKILL_FILE_SELECTOR, new FieldHovers());
}
