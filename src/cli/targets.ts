// `--target ID` (repeatable, or comma-separated) and `--context TOKENS`: the hosts whose view of
// the skills a command reports, and the context size their list budgets are taken at.

import * as os from 'node:os';
import { promises as fsp } from 'node:fs';
import { DEFAULT_CONTEXT_TOKENS, hostListings } from '../core/hosts/budget';
import { checkSkillForHosts, fieldKeyRanges, hostFolderFindings, type HostFolderFinding } from '../core/hosts/checks';
import { HOST_IDS, hostProfile, parseHostIds, type HostProfile } from '../core/hosts/profiles';
import type { SkillDiagnostic, SkillRecord } from '../core/model/types';
import type { ParsedArguments } from './args';
import { positiveInteger } from './args';
import { UsageError } from './io';

export function targetHosts(command: string, parsed: ParsedArguments): HostProfile[] {
  const { ids, unknown } = parseHostIds(parsed.lists.get('target') ?? []);
  if (unknown.length > 0) {
    throw new UsageError(`${command}: unknown --target ${unknown.map((id) => `"${id}"`).join(', ')} (hosts: ${HOST_IDS.join(', ')}).`);
  }
  return ids.map((id) => hostProfile(id)!);
}

export function contextTokens(command: string, parsed: ParsedArguments): number {
  return positiveInteger(command, 'context', parsed.options.get('context')) ?? DEFAULT_CONTEXT_TOKENS;
}

export interface HostWarnings {
  /** Each skill's warnings, by SKILL.md path. */
  byFile: Map<string, SkillDiagnostic[]>;
  /** The project's skill folders a target host does not read, one per host and folder. */
  folders: HostFolderFinding[];
}

/**
 * The records' warnings for the target hosts; the budget is taken over all the records. With
 * `servedInVsCode` (targets from the project's editor settings), VS Code is judged as the editor
 * judges it: it gets every folder through the extension.
 */
export async function hostDiagnostics(records: readonly SkillRecord[], targets: readonly HostProfile[], tokens: number, servedInVsCode = false): Promise<HostWarnings> {
  const byFile = new Map<string, SkillDiagnostic[]>();
  if (targets.length === 0) {
    return { byFile, folders: [] };
  }
  const homeDir = os.homedir();
  const listings = hostListings(records, targets, tokens);
  for (const record of records) {
    if (!record.metadata) {
      continue;
    }
    const text = await fsp.readFile(record.file, 'utf8').catch(() => '');
    byFile.set(record.file, checkSkillForHosts(record, { targets, listings, homeDir, servedInVsCode, fieldRange: fieldKeyRanges(text) }));
  }
  return { byFile, folders: hostFolderFindings(records, { targets, homeDir, servedInVsCode }) };
}
