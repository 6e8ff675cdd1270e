// What a command about one skill was given, read one way for every such command: a Skills view
// item, a SKILL.md or skill-folder URI (the Explorer's and the editor's menus), an absolute folder
// path, or a skill's name (from the palette, a chat button or another extension).

import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RegistrySnapshot } from '../../core/discovery/registry';
import type { SkillRecord } from '../../core/model/types';
import { isSkillFile } from './skill-files';

/** A skill named by its folder or by its name. */
export interface SkillArgument {
  folder?: string;
  name?: string;
  /** The record a Skills view item carried, possibly from an older snapshot. */
  record?: SkillRecord;
}

export function skillArgument(argument: unknown): SkillArgument | undefined {
  if (argument instanceof vscode.Uri) {
    return { folder: isSkillFile(argument) ? path.dirname(argument.fsPath) : argument.fsPath };
  }
  if (typeof argument === 'string') {
    return path.isAbsolute(argument) ? { folder: argument } : { name: argument };
  }
  if (typeof argument === 'object' && argument !== null && 'record' in argument) {
    const record = (argument as { record: SkillRecord }).record;
    return { folder: record.dir, record };
  }
  return undefined;
}

/** The registry's record of the skill the argument names: by folder (an item's record when its folder is gone), else the usable one of that name. */
export function findRecord(host: { readonly snapshot: RegistrySnapshot }, argument: unknown): SkillRecord | undefined {
  const named = skillArgument(argument);
  if (named?.name !== undefined) {
    return host.snapshot.usable(named.name) ?? host.snapshot.byName(named.name)[0];
  }
  return named && (host.snapshot.skills.find((record) => record.dir === named.folder) ?? named.record);
}
