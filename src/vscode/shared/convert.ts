// Conversions between the core's diagnostics, severities and ranges and VS Code's types, in one
// place so the Problems panel, quick fixes and chat read them alike.

import * as vscode from 'vscode';
import type { Range, Severity, SkillDiagnostic } from '../../core/model/types';

/** The `source` of every diagnostic this extension publishes, but the audit's. */
export const DIAGNOSTIC_SOURCE = 'Agent Skills';
/** The `source` of audit diagnostics, so the Problems panel can show or filter them apart from validation. */
export const AUDIT_DIAGNOSTIC_SOURCE = 'agent-skills audit';

const TO_VSCODE_SEVERITY: Record<Severity, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

/** A VS Code severity as the core counts it; hints count as information, as the status bar leaves both out. */
export function fromVscodeSeverity(severity: vscode.DiagnosticSeverity): Severity {
  return severity === vscode.DiagnosticSeverity.Error ? 'error' : severity === vscode.DiagnosticSeverity.Warning ? 'warning' : 'info';
}

export function toVscodeRange(range: Range): vscode.Range {
  return new vscode.Range(range.start.line, range.start.column, range.end.line, range.end.column);
}

export function toVscodeDiagnostic(diagnostic: SkillDiagnostic): vscode.Diagnostic {
  const converted = new vscode.Diagnostic(toVscodeRange(diagnostic.range), diagnostic.message, TO_VSCODE_SEVERITY[diagnostic.severity]);
  converted.code = diagnostic.code;
  converted.source = DIAGNOSTIC_SOURCE;
  return converted;
}
