// The one rule for which SKILL.md a surface serves (the activation tools, /use, MCP prompts,
// skills/get and resources/read): the file on disk while it is valid, so edits show up at once;
// while an edit leaves it broken (unparseable, unreadable, too big), the last valid version this
// process saw (kept by the registry); and when there is none, nothing, with a message naming the
// file and its problem. A file that is gone is not stood in for: the skill is going away.

import { extractSkillBody } from '../skill-file/parse';
import { readWholeSkillFile, skillTextProblem } from '../skill-file/load';
import { leadingProblem } from '../model/status';
import type { SkillRecord } from '../model/types';

export type ServedSkillFile =
  | {
      ok: true;
      /** The SKILL.md bytes served, and their text and body. */
      bytes: Buffer;
      text: string;
      body: string;
      /** True when the file on disk is broken and these are the bytes of its last valid version. */
      lastValid: boolean;
    }
  | { ok: false; message: string };

/** What every surface says about a skill whose SKILL.md has no valid version to serve. */
export function brokenSkillMessage(name: string, file: string, problem: string | undefined): string {
  return `Skill "${name}" is invalid${problem ? `: ${problem}` : ''} (${file}).`;
}

/** brokenSkillMessage for a record the registry found invalid. */
export function invalidRecordMessage(record: SkillRecord): string {
  return brokenSkillMessage(record.name, record.file, leadingProblem(record)?.message);
}

function served(bytes: Buffer, lastValid: boolean): ServedSkillFile & { ok: true } {
  const text = bytes.toString('utf8');
  // Both callers checked the text (skillTextProblem), which guarantees a body.
  return { ok: true, bytes, text, body: extractSkillBody(text)!.text, lastValid };
}

/** The SKILL.md to serve for a usable record (see the rule above). */
export async function servedSkillFile(record: SkillRecord): Promise<ServedSkillFile> {
  const read = await readWholeSkillFile(record.file);
  // The registry may not have seen the edit yet, so the file is judged here, by the rule discovery applies.
  const problem = read.ok ? skillTextProblem(read.bytes.toString('utf8'), record.file) : read.message;
  if (read.ok && problem === undefined) {
    return served(read.bytes, false);
  }
  if (!(!read.ok && read.missing) && record.lastValidFile && skillTextProblem(record.lastValidFile.toString('utf8'), record.file) === undefined) {
    return served(record.lastValidFile, true);
  }
  return { ok: false, message: read.ok ? brokenSkillMessage(record.name, record.file, problem) : `Could not read skill "${record.name}": ${read.message}` };
}
