// The audit of skills about to be installed, as Markdown: every finding whole, with where it is, so
// none has to be read from a line cut to fit a pick list.

import { escapeMarkdown } from '../util/text';
import { auditSummary } from './audit-folder';
import type { AuditFinding } from './rules';

/** `SKILL.md:4:7`, or the file alone for a finding about the whole file. */
export function findingLocation(finding: AuditFinding): string {
  return finding.position ? `${finding.file}:${finding.position.line + 1}:${finding.position.column + 1}` : finding.file;
}

/** Per skill, its verdict and each finding as a list item: severity, where, what. */
export function renderAuditMarkdown(source: string, skills: readonly { name: string; findings: readonly AuditFinding[] }[]): string {
  const lines = [
    `# Audit of ${escapeMarkdown(source)}`,
    '',
    'Every skill was audited before anything is installed. The checks are heuristics: read what they found, and the files, before you trust a skill.',
  ];
  for (const { name, findings } of skills) {
    lines.push('', `## ${escapeMarkdown(name)}: ${auditSummary(findings)}`);
    if (findings.length > 0) {
      lines.push('', ...findings.map((finding) => `- **${finding.severity}** \`${findingLocation(finding)}\`: ${escapeMarkdown(finding.message)}`));
    }
  }
  return `${lines.join('\n')}\n`;
}
