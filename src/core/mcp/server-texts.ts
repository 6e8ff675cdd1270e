// What the MCP server tells a client's model: the instructions (how to use skills, then the
// catalog exactly as @skills and Show Catalog render it), the three tools' descriptions and input
// schemas, and the prompts that let a user start a skill. Pure data, no protocol library.

import { MCP_TOOL_NAMES } from '../chat/tool-names';
import { skillUsageLines } from '../chat/prompt';
import { isUsableStatus } from '../model/status';
import { modelVisibleSkills, renderCatalog } from '../use/catalog';
import type { SkillRecord } from '../model/types';

/** The `name` of the server in its initialize result; VS Code prefixes its tools with it. */
export const MCP_SERVER_NAME = 'agent-skills';
/** Up to this many names, a skill-name argument is an enum: the model cannot invent a name. */
export const MAX_ENUM_NAMES = 500;
/** Budget of the skill list inside the activate tool's description. */
export const ACTIVATE_LIST_CHARS = 2_000;
const ACTIVATE_LIST_DESCRIPTION_CHARS = 100;

export type JsonSchema = Record<string, unknown>;

export function serverInstructions(catalogText: string): string {
  return ['This server gives you Agent Skills: folders of instructions, and sometimes files, written for particular tasks.', '', ...skillUsageLines(MCP_TOOL_NAMES), '', catalogText].join('\n');
}

/** Names the model may pass to the activate tool, in precedence order. */
export function modelInvocableNames(skills: readonly SkillRecord[]): string[] {
  return [...new Set(modelVisibleSkills(skills).map((record) => record.name))];
}

/** Names the read-resource tool accepts: every usable skill, also those only the user may start. */
export function usableNames(skills: readonly SkillRecord[]): string[] {
  return [...new Set(skills.filter((record) => isUsableStatus(record.status) && record.metadata).map((record) => record.name))];
}

function nameProperty(names: readonly string[], description: string): JsonSchema {
  return names.length > 0 && names.length <= MAX_ENUM_NAMES ? { type: 'string', enum: [...names], description } : { type: 'string', description };
}

export function activateToolDescription(skills: readonly SkillRecord[]): string {
  const list = renderCatalog(skills, { maxChars: ACTIVATE_LIST_CHARS, descriptionChars: ACTIVATE_LIST_DESCRIPTION_CHARS, toolNames: MCP_TOOL_NAMES });
  return [
    `Loads the full instructions of an Agent Skill by its exact name. Call it before a task that a skill covers, then follow what it returns: the skill's instructions, its folder and its resource files (read them with ${MCP_TOOL_NAMES.readResource}). Optional "arguments" are substituted into the skill. Call ${MCP_TOOL_NAMES.find} to search every skill by topic.`,
    '',
    list.text,
  ].join('\n');
}

export function activateInputSchema(skills: readonly SkillRecord[]): JsonSchema {
  return {
    type: 'object',
    properties: {
      name: nameProperty(modelInvocableNames(skills), 'Exact skill name, as listed.'),
      arguments: { type: 'string', description: 'Optional arguments for the skill, as the user would type them.' },
    },
    required: ['name'],
  };
}

export const FIND_TOOL_DESCRIPTION = `Searches the available Agent Skills by a free-text query over names and descriptions and returns ranked matches with descriptions. Use it when no listed skill obviously fits or when the list was cut short. An empty query returns the whole catalog.`;

export const FIND_INPUT_SCHEMA: JsonSchema = {
  type: 'object',
  properties: { query: { type: 'string', description: 'What the task is about, e.g. "fill a pdf form".' } },
  required: ['query'],
};

export const READ_RESOURCE_TOOL_DESCRIPTION = `Reads a text file inside a skill's folder (for example references/guide.md or scripts/run.py), by a path relative to that folder as listed by ${MCP_TOOL_NAMES.activate}. Paths outside the skill folder are refused; large files are truncated.`;

export function readResourceInputSchema(skills: readonly SkillRecord[]): JsonSchema {
  return {
    type: 'object',
    properties: {
      skill: nameProperty(usableNames(skills), 'Skill name.'),
      path: { type: 'string', description: 'Path relative to the skill folder, e.g. "references/forms.md".' },
    },
    required: ['skill', 'path'],
  };
}

export interface SkillPrompt {
  name: string;
  description: string;
  argumentDescription: string;
}

/** One prompt per skill the user may start (also those hidden from the model), as slash commands. */
export function skillPrompts(skills: readonly SkillRecord[]): SkillPrompt[] {
  const prompts = new Map<string, SkillPrompt>();
  for (const record of skills) {
    const metadata = record.metadata;
    if (metadata && isUsableStatus(record.status) && metadata.userInvocable && !prompts.has(record.name)) {
      prompts.set(record.name, {
        name: record.name,
        description: metadata.description,
        argumentDescription: metadata.argumentHint ? `Arguments: ${metadata.argumentHint}` : 'Optional arguments for the skill.',
      });
    }
  }
  return [...prompts.values()];
}
