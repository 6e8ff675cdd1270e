// Audits a skill folder before it is trusted: walks every file (symbolic links reported, not
// followed) and applies the rules of rules.ts to what it reads.

import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { MAX_SKILL_FILE_BYTES, SKILL_FILE_NAME } from '../skill-file/load';
import { frontmatterYaml } from '../skill-file/parse';
import { parseYamlCore } from '../skill-file/yaml-core';
import { walkFolder } from '../sources/folder-walk';
import { errorMessage } from '../util/errors';
import { relativeInside } from '../util/paths';
import { ARCHIVE_READ_BUDGET, archiveFindings, listArchive, type ArchiveBudget } from './archive-entries';
import { findDownloadAndRun } from './download-and-run';
import { findHiddenInstructions, findSecretsInAddresses } from './hidden-markdown';
import { findInstallScripts, pthFileHook } from './install-hooks';
import {
  allowedToolEntries,
  archiveKind,
  finding,
  findEncodedBlobs,
  findInvisibleCharacters,
  findLinksOutside,
  findModelDirectedText,
  findUnrestrictedShell,
  imageKind,
  nativeBinaryKind,
  scriptInterpreter,
  SEVERITY_ORDER,
  type AuditFinding,
  type AuditSeverity,
} from './rules';

/** Any one file past this is more than a skill needs; files past it are not read. */
export const MAX_AUDITED_FILE_BYTES = 5 * 1024 * 1024;
/** The whole folder past this is more than a skill needs. */
export const MAX_AUDITED_FOLDER_BYTES = 50 * 1024 * 1024;
const HEAD_BYTES = 4096;
const MARKDOWN = /\.(?:md|markdown|mdx)$/i;
const HTML = /\.html?$/i;

export interface AuditReport {
  folder: string;
  findings: AuditFinding[];
}

/** The worst severity found, or `clean`. */
export type AuditVerdict = AuditSeverity | 'clean';

export function auditVerdict(findings: readonly AuditFinding[]): AuditVerdict {
  return SEVERITY_ORDER.find((severity) => findings.some((found) => found.severity === severity)) ?? 'clean';
}

/** Counts by severity, worst first: "2 high, 1 info", or "clean". */
export function auditSummary(findings: readonly AuditFinding[]): string {
  const parts = SEVERITY_ORDER.map((severity) => [severity, findings.filter((found) => found.severity === severity).length] as const)
    .filter(([, count]) => count > 0)
    .map(([severity, count]) => `${count} ${severity}`);
  return parts.length === 0 ? 'clean' : parts.join(', ');
}

export async function auditSkillFolder(folder: string): Promise<AuditReport> {
  const findings: AuditFinding[] = [];
  const realFolder = await fs.realpath(folder);
  const budget: ArchiveBudget = { bytesLeft: ARCHIVE_READ_BUDGET };
  let total = 0;
  for (const entry of await walkFolder(folder)) {
    if (entry.kind === 'symlink') {
      const outside = await linkLeavesFolder(entry.absolutePath, realFolder);
      if (outside !== undefined) {
        findings.push(finding('link-outside', `A symbolic link to "${outside}", outside the skill folder: reading it reads the user's files.`, entry.relativePath));
      }
    } else if (entry.kind === 'file') {
      const { size, nlink } = await fs.stat(entry.absolutePath);
      total += size;
      if (nlink > 1) {
        findings.push(finding('hard-link', `A hard link: this file has ${nlink} names, so its content may be a file outside the skill folder, and a copy takes that content.`, entry.relativePath));
      }
      findings.push(...(await auditFile(entry.absolutePath, entry.relativePath, size, budget)));
    }
  }
  if (total > MAX_AUDITED_FOLDER_BYTES) {
    findings.push(finding('file-too-large', `The folder holds ${megabytes(total)} MiB, over the ${megabytes(MAX_AUDITED_FOLDER_BYTES)} MiB a skill needs.`, '.'));
  }
  return { folder, findings: sortFindings(findings) };
}

async function auditFile(absolutePath: string, file: string, size: number, budget: ArchiveBudget): Promise<AuditFinding[]> {
  const findings: AuditFinding[] = [];
  const head = await readHead(absolutePath, Math.min(size, HEAD_BYTES));
  const binary = nativeBinaryKind(head);
  if (binary) {
    return [finding('native-binary', `A native ${binary} executable or library: it runs with the user's rights and cannot be reviewed.`, file)];
  }
  const archive = archiveKind(file, head);
  if (archive) {
    findings.push(...archiveFindings(await listArchive(absolutePath, head, budget), archive, file));
  }
  findings.push(...pthFileHook(file));
  const interpreter = scriptInterpreter(file, head);
  if (interpreter) {
    findings.push(finding('script', `A script, run by ${interpreter}.`, file));
  }
  const isSkillFile = file.toLowerCase() === SKILL_FILE_NAME.toLowerCase();
  const cap = isSkillFile ? MAX_SKILL_FILE_BYTES : MAX_AUDITED_FILE_BYTES;
  if (size > cap) {
    findings.push(finding('file-too-large', `${megabytes(size)} MiB, over the ${megabytes(cap)} MiB cap: not read.`, file));
    return findings;
  }
  const image = imageKind(head);
  if (archive || head.includes(0) || (image !== undefined && image !== 'SVG')) {
    return findings; // Binary data: the text rules do not apply.
  }
  const text = (await fs.readFile(absolutePath)).toString('utf8');
  findings.push(...auditText(text, file));
  if (isSkillFile) {
    findings.push(...auditAllowedTools(text, file));
  }
  return findings;
}

/** The text rules over one file's content (pure: for editor buffers too). */
export function auditText(text: string, file: string): AuditFinding[] {
  const markdown = MARKDOWN.test(file);
  return [
    ...findInvisibleCharacters(text, file),
    ...findDownloadAndRun(text, file),
    ...findEncodedBlobs(text, file),
    ...findModelDirectedText(text, file),
    ...findInstallScripts(text, file),
    ...(markdown ? findLinksOutside(text, file) : []),
    ...(markdown || HTML.test(file) ? [...findHiddenInstructions(text, file, markdown), ...findSecretsInAddresses(text, file)] : []),
  ];
}

function auditAllowedTools(text: string, file: string): AuditFinding[] {
  const yaml = frontmatterYaml(text);
  if (yaml === undefined) {
    return [];
  }
  let frontmatter: unknown;
  try {
    frontmatter = parseYamlCore(yaml);
  } catch {
    return []; // Broken YAML is validation's to report.
  }
  const value = typeof frontmatter === 'object' && frontmatter !== null ? (frontmatter as Record<string, unknown>)['allowed-tools'] : undefined;
  const line = text.split('\n').findIndex((candidate) => /^allowed-tools\s*:/.test(candidate));
  return findUnrestrictedShell(allowedToolEntries(value), file, line < 0 ? undefined : { line, column: 0 });
}

/** The link's target when it resolves outside the folder (or cannot be resolved), else undefined. */
async function linkLeavesFolder(link: string, realFolder: string): Promise<string | undefined> {
  let target: string;
  try {
    target = await fs.readlink(link);
  } catch (error) {
    return `(unreadable: ${errorMessage(error)})`;
  }
  const resolved = path.resolve(path.dirname(link), target);
  const real = await fs.realpath(resolved).catch(() => resolved);
  return relativeInside(realFolder, real) === undefined ? target : undefined;
}

async function readHead(file: string, length: number): Promise<Buffer> {
  const handle = await fs.open(file, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function sortFindings(findings: AuditFinding[]): AuditFinding[] {
  const rank = (found: AuditFinding): number => SEVERITY_ORDER.indexOf(found.severity);
  return findings.sort((a, b) => rank(a) - rank(b) || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || (a.position?.line ?? -1) - (b.position?.line ?? -1));
}

function megabytes(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '');
}
