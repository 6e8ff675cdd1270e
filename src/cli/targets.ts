// `--target ID` (repeatable, or comma-separated) and `--context TOKENS`: the hosts whose view of
// the skills a command reports, and the context size their list budgets are taken at.

import * as os from 'node:os';
import { promises as fsp } from 'node:fs';
import { DEFAULT_CONTEXT_TOKENS, targetListings } from '../core/targets/budget';
import { checkSkillForTargets, fieldKeyRanges, targetFolderFindings, type TargetFolderFinding } from '../core/targets/checks';
import { TARGET_IDS, targetProfile, parseTargetIds, type TargetProfile } from '../core/targets/profiles';
import type { SkillDiagnostic, SkillRecord } from '../core/model/types';
import type { ParsedArguments } from './args';
import { positiveInteger } from './args';
import { UsageError } from './io';

export function targetHosts(command: string, parsed: ParsedArguments): TargetProfile[] {
  const { ids, unknown } = parseTargetIds(parsed.lists.get('target') ?? []);
  if (unknown.length > 0) {
    throw new UsageError(`${command}: unknown --target ${unknown.map((id) => `"${id}"`).join(', ')} (hosts: ${TARGET_IDS.join(', ')}).`);
  }
  return ids.map((id) => targetProfile(id)!);
}

export function contextTokens(command: string, parsed: ParsedArguments): number {
  return positiveInteger(command, 'context', parsed.options.get('context')) ?? DEFAULT_CONTEXT_TOKENS;
}

export interface TargetWarnings {
  /** Each skill's warnings, by SKILL.md path. */
  byFile: Map<string, SkillDiagnostic[]>;
  /** The project's skill folders a target host does not read, one per host and folder. */
  folders: TargetFolderFinding[];
}

/**
 * The records' warnings for the target hosts; the budget is taken over all the records. With
 * `servedInVsCode` (targets from the project's editor settings), VS Code is judged as the editor
 * judges it: it gets every folder through the extension.
 */
export async function targetDiagnostics(records: readonly SkillRecord[], targets: readonly TargetProfile[], tokens: number, servedInVsCode = false): Promise<TargetWarnings> {
  const byFile = new Map<string, SkillDiagnostic[]>();
  if (targets.length === 0) {
    return { byFile, folders: [] };
  }
  const homeDir = os.homedir();
  const listings = targetListings(records, targets, tokens);
  for (const record of records) {
    if (!record.metadata) {
      continue;
    }
    const text = await fsp.readFile(record.file, 'utf8').catch(() => '');
    byFile.set(record.file, checkSkillForTargets(record, { targets, listings, homeDir, servedInVsCode, fieldRange: fieldKeyRanges(text) }));
  }
  return { byFile, folders: targetFolderFindings(records, { targets, homeDir, servedInVsCode }) };
}
