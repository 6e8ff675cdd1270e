// `agent-skills audit [--json | --sarif] PATH…`: what a skill folder could do to its user, before
// it is trusted. PATH is a skill folder or any folder holding skills (searched, as `add` does).
// Exit 1 when any finding is high.

import * as path from 'node:path';
import { auditSkillFolder, auditSummary, auditVerdict, type AuditReport, type AuditVerdict } from '../core/audit/audit-folder';
import type { AuditFinding } from '../core/audit/rules';
import { toSarif } from '../core/audit/sarif';
import type { SkillRoot } from '../core/model/types';
import { findSkillFolders } from '../core/sources/checkout';
import { isFolder } from '../core/util/files';
import { parseArguments } from './args';
import { AUDIT_USAGE } from './usage/audit';
import { VERSION } from './help';
import { projectFromArguments, rootsFromArguments } from './inputs';
import { displayPath, ExitCode, InputError, plural, UsageError, type CliIo } from './io';

export interface AuditedSkillJson {
  path: string;
  verdict: AuditVerdict;
  findings: { severity: AuditFinding['severity']; code: AuditFinding['code']; message: string; file: string; line?: number; column?: number }[];
}

export async function auditCommand(args: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseArguments('audit', args, AUDIT_USAGE.options);
  const { options, operands } = parsed;
  if (options.has('json') && options.has('sarif')) {
    throw new UsageError('audit: --json and --sarif are two output formats; choose one.');
  }
  const reports: AuditReport[] = [];
  // Without PATH, the project's skill locations that exist, as validate checks them.
  const roots = operands.length > 0 ? await rootsFromArguments(operands, io) : await existingRoots((await projectFromArguments(parsed, io, true)).roots);
  if (operands.length === 0 && roots.length === 0) {
    io.stderr('No skills in this project; give a PATH to audit skills elsewhere.\n');
  }
  for (const root of roots) {
    const folders = await findSkillFolders(root.path);
    if (folders.length === 0) {
      throw new InputError(`${root.label}: holds no skill (no folder with a SKILL.md).`);
    }
    for (const folder of folders) {
      reports.push(await auditSkillFolder(folder));
    }
  }
  const uriOf = (report: AuditReport, found: AuditFinding): string => displayPath(path.join(report.folder, ...found.file.split('/')), io);
  if (options.has('sarif')) {
    const findings = reports.flatMap((report) => report.findings.map((finding) => ({ finding, uri: uriOf(report, finding) })));
    io.stdout(`${JSON.stringify(toSarif({ findings, toolVersion: VERSION }), null, 2)}\n`);
  } else if (options.has('json')) {
    const skills: AuditedSkillJson[] = reports.map((report) => ({
      path: displayPath(report.folder, io),
      verdict: auditVerdict(report.findings),
      findings: report.findings.map((found) => ({
        severity: found.severity,
        code: found.code,
        message: found.message,
        file: uriOf(report, found),
        line: oneBased(found.position?.line),
        column: oneBased(found.position?.column),
      })),
    }));
    io.stdout(`${JSON.stringify({ skills })}\n`);
  } else {
    for (const report of reports) {
      io.stdout(`${displayPath(report.folder, io)}: ${auditSummary(report.findings)}\n`);
      for (const found of report.findings) {
        const where = found.position ? `:${found.position.line + 1}:${found.position.column + 1}` : '';
        io.stdout(`  ${uriOf(report, found)}${where}: ${found.severity}: ${found.message} [${found.code}]\n`);
      }
    }
    io.stdout(`${plural(reports.length, 'skill')} audited: ${auditSummary(reports.flatMap((report) => report.findings))}\n`);
  }
  return reports.some((report) => auditVerdict(report.findings) === 'high') ? ExitCode.failure : ExitCode.ok;
}

function oneBased(value: number | undefined): number | undefined {
  return value === undefined ? undefined : value + 1;
}

async function existingRoots(roots: readonly SkillRoot[]): Promise<SkillRoot[]> {
  const present = await Promise.all(roots.map((root) => isFolder(root.path)));
  return roots.filter((_, index) => present[index]);
}
