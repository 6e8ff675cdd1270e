// Activating a skill: decide whether the caller may use it, read its body (fresh from disk, or its
// last valid version while the file is broken), substitute arguments, and render the text a tool
// returns to the model.

import { substituteArguments } from './arguments';
import { modelVisibleSkills } from './catalog';
import { TOOL_NAMES, type ToolNames } from '../chat/tool-names';
import { isDraft, isUserInvocable } from '../model/status';
import { similarSkillNames } from './find';
import { SKILL_FILE_NAME } from '../skill-file/load';
import { invalidRecordMessage, servedSkillFile } from './served-skill-file';
import type { RegistrySnapshot } from '../discovery/registry';
import {
  DEFAULT_MAX_RESOURCE_BYTES,
  listSkillResources,
  normalizeResourcePath,
  readSkillResource,
  renderResource,
  ResourceError,
  textResource,
  type ReadResourceOptions,
  type ResourceListing,
  type SkillResource,
} from './resources';
import { type SkillContent } from './skill-content';
import type { SkillRecord } from '../model/types';
import { errorMessage } from '../util/errors';

/** `model`: a tool call chosen by the model. `user`: an explicit `/use`, allowed for skills hidden from the model. */
export type InvocationMode = 'model' | 'user';

export type InvocationCheck = { ok: true; record: SkillRecord } | { ok: false; reason: 'unknown' | 'refused'; message: string; record?: SkillRecord };

export interface ActivationOptions {
  mode: InvocationMode;
  /** The raw argument string, as typed after the skill name. */
  arguments?: string;
  maxResources?: number;
  /** The tool names the texts refer to; the editor's contributed tools by default. */
  toolNames?: ToolNames;
  /** Where bodies and files are read; the skill's folder on disk by default. */
  content?: SkillContent;
}

export type ActivationResult =
  | {
      ok: true;
      record: SkillRecord;
      text: string;
      resources: ResourceListing;
      /** The SKILL.md on disk is broken: this is its last valid version. */
      lastValid: boolean;
    }
  | { ok: false; reason: 'unknown' | 'refused' | 'unreadable'; message: string; record?: SkillRecord };

/** Names listed in an "unknown skill" message before pointing at the find tool. */
const MAX_NAMES_IN_ERROR = 50;

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * The tool result: the body inside a `<skill>` element naming the folder, then the resource files.
 * A skill server's skill names its server and its URI there instead of a folder: its text is the
 * server's, not the user's, and its files are read through the tool, never from the cache on disk.
 */
export function renderActivation(record: SkillRecord, body: string, resources: ResourceListing, tools: ToolNames = TOOL_NAMES): string {
  const place =
    record.root.kind === 'server'
      ? ` server="${escapeAttribute(record.root.server ?? record.root.label)}"${record.uri === undefined ? '' : ` uri="${escapeAttribute(record.uri)}"`}`
      : ` dir="${escapeAttribute(record.dir)}"`;
  const lines = [`<skill name="${escapeAttribute(record.name)}"${place}>`, body.trim()];
  if (resources.files.length > 0) {
    lines.push('', `Resource files (paths relative to the skill folder; read one with ${tools.readResource}):`);
    lines.push(...resources.files.map((file) => `- ${file}`));
    const more = resources.total - resources.files.length;
    if (more > 0 || !resources.complete) {
      lines.push(`…and ${more}${resources.complete ? '' : '+'} more`);
    }
  }
  lines.push('</skill>');
  return lines.join('\n');
}

function invocableNames(snapshot: RegistrySnapshot, mode: InvocationMode): string[] {
  const usable = mode === 'model' ? modelVisibleSkills(snapshot.skills) : snapshot.skills.filter(isUserInvocable);
  return [...new Set(usable.map((record) => record.name))];
}

/** Names the caller may start that are close to an unknown `name`, for "did you mean" and follow-ups. */
export function suggestedSkillNames(snapshot: RegistrySnapshot, name: string, mode: InvocationMode): string[] {
  return similarSkillNames(name, invocableNames(snapshot, mode));
}

export function unknownSkillMessage(snapshot: RegistrySnapshot, name: string, mode: InvocationMode, tools: ToolNames = TOOL_NAMES): string {
  const names = invocableNames(snapshot, mode);
  if (names.length === 0) {
    return `No skill named "${name}": no skills are available.`;
  }
  const suggestions = suggestedSkillNames(snapshot, name, mode);
  const listed = names.slice(0, MAX_NAMES_IN_ERROR).join(', ');
  const more = names.length > MAX_NAMES_IN_ERROR ? ` …and ${names.length - MAX_NAMES_IN_ERROR} more (call ${tools.find} to search them)` : '';
  return [`No skill named "${name}".`, suggestions.length > 0 ? ` Did you mean: ${suggestions.join(', ')}?` : '', ` Available skills: ${listed}${more}.`].join('');
}

/** Why a discovered but unusable skill cannot be used, in words the user can act on. */
function unusableReason(record: SkillRecord): string {
  switch (record.status) {
    case 'not-allowed':
      return `Skill "${record.name}" is not allowed in this workspace (setting agentSkills.allowlist).`;
    case 'untrusted':
      return `Skill "${record.name}" comes from a workspace that is not trusted; trust the workspace to use its skills.`;
    case 'disabled':
      return 'Skills are turned off (setting agentSkills.enabled).';
    case 'invalid':
      return invalidRecordMessage(record);
    default:
      return `Skill "${record.name}" cannot be used (status: ${record.status}).`;
  }
}

/** The usable record called `name` (exact name, else case-insensitive), or why there is none. */
function lookUpUsable(snapshot: RegistrySnapshot, name: string, mode: InvocationMode, tools: ToolNames): InvocationCheck {
  const wanted = name.trim();
  const key = snapshot.byName(wanted).length > 0 ? wanted : wanted.toLowerCase();
  const record = snapshot.usable(key);
  if (record) {
    return { ok: true, record };
  }
  const known = snapshot.byName(key)[0];
  if (known) {
    return { ok: false, reason: 'refused', record: known, message: unusableReason(known) };
  }
  return { ok: false, reason: 'unknown', message: unknownSkillMessage(snapshot, wanted, mode, tools) };
}

/** Decides whether `mode` may invoke the skill called `name`. */
export function checkInvocation(snapshot: RegistrySnapshot, name: string, mode: InvocationMode, tools: ToolNames = TOOL_NAMES): InvocationCheck {
  const check = lookUpUsable(snapshot, name, mode, tools);
  if (!check.ok) {
    return check;
  }
  const { record } = check;
  if (mode === 'model' && isDraft(record)) {
    return { ok: false, reason: 'refused', record, message: `Skill "${record.name}" is not offered to the model yet: its description is still the placeholder Create Skill wrote (${record.file}).` };
  }
  if (mode === 'model' && record.metadata?.disableModelInvocation) {
    return { ok: false, reason: 'refused', record, message: `Skill "${record.name}" can only be started by the user (/use ${record.name}); it sets disable-model-invocation.` };
  }
  if (mode === 'user' && record.metadata?.userInvocable === false) {
    return { ok: false, reason: 'refused', record, message: `Skill "${record.name}" sets user-invocable: false; only the model can use it.` };
  }
  return check;
}

export type ResourceReadResult = { ok: true; record: SkillRecord; resource: SkillResource; text: string } | { ok: false; message: string };

/**
 * The read-resource tool: a file of a usable skill, by relative path. Invocation flags do not
 * apply here: a skill the user started with /use must be able to hand the model its files.
 */
export async function readResourceOfSkill(
  snapshot: RegistrySnapshot,
  name: string,
  requestedPath: string,
  options: ReadResourceOptions & { toolNames?: ToolNames; content?: SkillContent } = {},
): Promise<ResourceReadResult> {
  const check = lookUpUsable(snapshot, name, 'model', options.toolNames ?? TOOL_NAMES);
  if (!check.ok) {
    return { ok: false, message: check.message };
  }
  try {
    const served = check.record.root.kind === 'server' ? options.content : undefined;
    const resource = served
      ? await served.readResource(check.record, requestedPath, options)
      : isSkillFilePath(requestedPath)
        ? await servedSkillFileResource(check.record, options)
        : await readSkillResource(check.record.dir, requestedPath, options);
    return { ok: true, record: check.record, resource, text: renderResource(resource) };
  } catch (error) {
    const reason = errorMessage(error);
    return { ok: false, message: error instanceof ResourceError ? reason : `Could not read "${requestedPath}" of skill "${check.record.name}": ${reason}` };
  }
}

/** Whether a resource path names the skill's own SKILL.md (in any case, as discovery finds it). */
function isSkillFilePath(requestedPath: string): boolean {
  try {
    return normalizeResourcePath(requestedPath).toLowerCase() === SKILL_FILE_NAME.toLowerCase();
  } catch {
    return false; // The resource reader explains what is wrong with the path.
  }
}

/** SKILL.md as a resource, by the rule every surface serves it by (see served-skill-file.ts). */
async function servedSkillFileResource(record: SkillRecord, options: ReadResourceOptions): Promise<SkillResource> {
  const served = await servedSkillFile(record);
  if (!served.ok) {
    throw new ResourceError('not-a-file', served.message);
  }
  return textResource(SKILL_FILE_NAME, served.bytes, options.maxBytes ?? DEFAULT_MAX_RESOURCE_BYTES);
}

/**
 * Activates a skill: checks the invocation, reads the body (fresh from disk so edits show up
 * immediately, or its last valid version while the file is broken), substitutes arguments and
 * lists resource files. Marking the skill active in the registry is left to the caller, which owns
 * the registry.
 */
export async function activateSkill(snapshot: RegistrySnapshot, name: string, options: ActivationOptions): Promise<ActivationResult> {
  const check = checkInvocation(snapshot, name, options.mode, options.toolNames);
  if (!check.ok) {
    return check;
  }
  const { record } = check;
  // A skill server's skill is read through its verified cache.
  const content = record.root.kind === 'server' ? options.content : undefined;
  if (content) {
    let body: string;
    try {
      body = await content.readBody(record);
    } catch (error) {
      const reason = errorMessage(error);
      return { ok: false, reason: 'unreadable', record, message: `Could not read skill "${record.name}": ${reason}` };
    }
    const resources = await content.listResources(record, options.maxResources);
    return { ok: true, record, text: renderActivation(record, substituteArguments(body, options.arguments), resources, options.toolNames), resources, lastValid: false };
  }
  const served = await servedSkillFile(record);
  if (!served.ok) {
    return { ok: false, reason: 'unreadable', record, message: served.message };
  }
  const resources = await listSkillResources(record.dir, { limit: options.maxResources });
  const text = renderActivation(record, substituteArguments(served.body, options.arguments), resources, options.toolNames);
  return { ok: true, record, text, resources, lastValid: served.lastValid };
}
