// Conversions between the core's diagnostics, severities and ranges and VS Code's types, in one
// place so the Problems panel, quick fixes and chat read them alike.

import * as vscode from 'vscode';
import type { Range, Severity, SkillDiagnostic } from '../core/model/types';

/** The `source` of every diagnostic this extension publishes. */
export const DIAGNOSTIC_SOURCE = 'Agent Skills';

const TO_VSCODE_SEVERITY: Record<Severity, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

export function toVscodeRange(range: Range): vscode.Range {
  return new vscode.Range(range.start.line, range.start.column, range.end.line, range.end.column);
}

export function toVscodeDiagnostic(diagnostic: SkillDiagnostic): vscode.Diagnostic {
  const converted = new vscode.Diagnostic(toVscodeRange(diagnostic.range), diagnostic.message, TO_VSCODE_SEVERITY[diagnostic.severity]);
  converted.code = diagnostic.code;
  converted.source = DIAGNOSTIC_SOURCE;
  return converted;
}
