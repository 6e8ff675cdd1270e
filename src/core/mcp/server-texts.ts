// What the MCP server tells a client's model: the instructions (how to use skills, then the
// catalog exactly as @skills and Show Catalog render it), the three tools' descriptions and input
// schemas, and the prompts that let a user start a skill. Pure data, no protocol library.

import { MCP_TOOL_NAMES } from '../chat/tool-names';
import { skillToolDefinitions, type ModelToolDefinition } from '../chat/tool-definitions';
import { skillUsageLines } from '../chat/prompt';
import { isUsableStatus } from '../model/status';
import { modelVisibleSkills, renderCatalog, type Catalog } from '../use/catalog';
import type { RegistrySnapshot } from '../discovery/registry';
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

/** The MCP tools' texts as the one source gives them; the skills' names are listed in activate's description. */
const [ACTIVATE_TOOL, FIND_TOOL, READ_RESOURCE_TOOL] = skillToolDefinitions(MCP_TOOL_NAMES, 'below');

/** A schema whose skill-name property `property` also lists the names it takes, while they are few enough. */
function withNameEnum(schema: ModelToolDefinition['inputSchema'], property: string, names: readonly string[]): JsonSchema {
  const enumerated = names.length > 0 && names.length <= MAX_ENUM_NAMES ? { type: 'string', enum: [...names], description: schema.properties[property].description } : schema.properties[property];
  return { ...schema, properties: { ...schema.properties, [property]: enumerated } };
}

export function activateToolDescription(skills: readonly SkillRecord[]): string {
  const list = renderCatalog(skills, { maxChars: ACTIVATE_LIST_CHARS, descriptionChars: ACTIVATE_LIST_DESCRIPTION_CHARS, toolNames: MCP_TOOL_NAMES });
  return [ACTIVATE_TOOL.description, '', list.text].join('\n');
}

export function activateInputSchema(skills: readonly SkillRecord[]): JsonSchema {
  return withNameEnum(ACTIVATE_TOOL.inputSchema, 'name', modelInvocableNames(skills));
}

export const FIND_TOOL_DESCRIPTION = FIND_TOOL.description;

export const FIND_INPUT_SCHEMA: JsonSchema = FIND_TOOL.inputSchema;

export const READ_RESOURCE_TOOL_DESCRIPTION = READ_RESOURCE_TOOL.description;

export function readResourceInputSchema(skills: readonly SkillRecord[]): JsonSchema {
  return withNameEnum(READ_RESOURCE_TOOL.inputSchema, 'skill', usableNames(skills));
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

/** A prompt as prompts/list shows it. */
export interface ListedPrompt {
  name: string;
  description: string;
  arguments: { name: 'arguments'; description: string; required: false }[];
}

function listedPrompt(prompt: SkillPrompt): ListedPrompt {
  return { name: prompt.name, description: prompt.description, arguments: [{ name: 'arguments', description: prompt.argumentDescription, required: false }] };
}

/** What the activate and read-resource tools show of one snapshot; `key` is equal for equal texts. */
export interface ToolTexts {
  key: string;
  activateDescription: string;
  activateSchema: JsonSchema;
  readSchema: JsonSchema;
  /** The activate tool is hidden while no skill can be activated. */
  activateEnabled: boolean;
}

/** Everything a server shows of one registry snapshot. */
export interface SnapshotTexts {
  snapshot: RegistrySnapshot;
  catalog: Catalog;
  tools: ToolTexts;
  /** By name; a prompt that did not change since the snapshot before is the same object, and so is the map while none changed. */
  prompts: ReadonlyMap<string, SkillPrompt>;
  /** The prompts as prompts/list shows them, in precedence order: one list for every server, the same object while the prompts are. */
  promptList: readonly ListedPrompt[];
}

function samePrompt(a: SkillPrompt, b: SkillPrompt): boolean {
  return a.name === b.name && a.description === b.description && a.argumentDescription === b.argumentDescription;
}

/** Whether both hold the same prompt objects in the same order. */
function samePromptsInOrder(a: ReadonlyMap<string, SkillPrompt>, b: ReadonlyMap<string, SkillPrompt>): boolean {
  if (a.size !== b.size) {
    return false;
  }
  const others = b.values();
  for (const prompt of a.values()) {
    if (others.next().value !== prompt) {
      return false;
    }
  }
  return true;
}

/**
 * The texts of the latest snapshot, derived once for every server of one registry (an HTTP server
 * has one per session): derived in each, every change (an activation included) cost the catalog's
 * rendering times the sessions. Unchanged tool texts and prompts keep their objects from one
 * snapshot to the next, so a server sees at a glance what it must update.
 */
export class SnapshotTextsCache {
  private latest: SnapshotTexts | undefined;

  constructor(private readonly catalogBudgetChars: number) {}

  of(snapshot: RegistrySnapshot): SnapshotTexts {
    if (this.latest?.snapshot !== snapshot) {
      this.latest = this.derive(snapshot, this.latest);
    }
    return this.latest;
  }

  private derive(snapshot: RegistrySnapshot, previous: SnapshotTexts | undefined): SnapshotTexts {
    const skills = snapshot.skills;
    const activateDescription = activateToolDescription(skills);
    const activateSchema = activateInputSchema(skills);
    const readSchema = readResourceInputSchema(skills);
    const activateEnabled = modelInvocableNames(skills).length > 0;
    const key = JSON.stringify([activateDescription, activateSchema, readSchema, activateEnabled]);
    const tools = previous?.tools.key === key ? previous.tools : { key, activateDescription, activateSchema, readSchema, activateEnabled };
    const derived = new Map<string, SkillPrompt>();
    for (const prompt of skillPrompts(skills)) {
      const before = previous?.prompts.get(prompt.name);
      derived.set(prompt.name, before && samePrompt(before, prompt) ? before : prompt);
    }
    const unchanged = previous !== undefined && samePromptsInOrder(previous.prompts, derived);
    const prompts = unchanged ? previous.prompts : derived;
    const promptList = unchanged ? previous.promptList : [...derived.values()].map(listedPrompt);
    const catalog = renderCatalog(skills, { maxChars: this.catalogBudgetChars, toolNames: MCP_TOOL_NAMES });
    return { snapshot, catalog, tools, prompts, promptList };
  }
}
