// Which files are SKILL.md files, for the editor features on them (diagnostics, quick fixes,
// hovers, lenses); a module of its own so that those features need not import one another.

import * as path from 'node:path';
import * as vscode from 'vscode';

/** SKILL.md files on disk, in any case. */
export const SKILL_FILE_SELECTOR: vscode.DocumentFilter = { scheme: 'file', pattern: '**/[sS][kK][iI][lL][lL].[mM][dD]' };

export function isSkillFile(uri: vscode.Uri): boolean {
  return uri.scheme === 'file' && path.basename(uri.fsPath).toLowerCase() === 'skill.md';
}
