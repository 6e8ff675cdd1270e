// The audit's findings over a skill folder as diagnostics of their own source, so the Problems
// panel can show or filter them apart from the extension's validation.

import * as path from 'node:path';
import * as vscode from 'vscode';
import { auditSkillFolder } from '../../core/audit/audit-folder';
import type { AuditFinding, AuditSeverity } from '../../core/audit/rules';
import { AUDIT_DIAGNOSTIC_SOURCE } from '../shared/convert';

const AUDIT_SEVERITY: Record<AuditSeverity, vscode.DiagnosticSeverity> = {
  high: vscode.DiagnosticSeverity.Error,
  medium: vscode.DiagnosticSeverity.Warning,
  low: vscode.DiagnosticSeverity.Information,
  info: vscode.DiagnosticSeverity.Hint,
};

/** Audits the skill folder; its findings as diagnostics, by absolute file. */
export async function auditSkillDiagnostics(folder: string): Promise<Map<string, vscode.Diagnostic[]>> {
  const byFile = new Map<string, vscode.Diagnostic[]>();
  for (const finding of (await auditSkillFolder(folder)).findings) {
    const file = path.join(folder, ...finding.file.split('/'));
    byFile.set(file, [...(byFile.get(file) ?? []), auditDiagnostic(finding)]);
  }
  return byFile;
}

function auditDiagnostic(finding: AuditFinding): vscode.Diagnostic {
  const { line = 0, column = 0 } = finding.position ?? {};
  // An invisible character is one character; other findings are about their whole line.
  const end = finding.code === 'invisible-character' ? column + 1 : Number.MAX_SAFE_INTEGER;
  const diagnostic = new vscode.Diagnostic(new vscode.Range(line, column, line, end), `${finding.severity}: ${finding.message}`, AUDIT_SEVERITY[finding.severity]);
  diagnostic.source = AUDIT_DIAGNOSTIC_SOURCE;
  diagnostic.code = finding.code;
  return diagnostic;
}
