// The three skill tools as a model sees them (name, description, input schema): the one source of
// their texts. The editor contributes them twice in package.json's `languageModelTools` (for
// @skills, and as agent mode's referenceable twins), `agent-skills eval` sends the @skills set, and
// the MCP server offers them with its names; unit tests hold package.json and the MCP server's
// texts to this module.

import { TOOL_NAMES, type ToolNames } from './tool-names';

export interface ModelToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the tool's input. */
  inputSchema: {
    type: 'object';
    properties: Record<string, { type: 'string'; description: string }>;
    required: string[];
  };
}

/**
 * Where the model using a set of tools finds the skills' names, which their texts point to:
 * - `catalog`: the <available_skills> block in its instructions (@skills, `agent-skills eval`);
 * - `find`: nowhere but the find tool (agent mode's twins, whose descriptions are fixed while the
 *   skills change), so find is what to call first;
 * - `below`: a list in the activate tool's own description (the MCP server, which can change it),
 *   cut to a budget, so activate also points to find.
 */
export type SkillListing = 'catalog' | 'find' | 'below';

function activateDescription(names: ToolNames, listing: SkillListing): string {
  const listed = { catalog: 'as listed in <available_skills>', find: `as ${names.find} lists it`, below: 'as listed below' }[listing];
  return [
    `Loads the full instructions of an Agent Skill by its exact name, ${listed}. Call it before doing a task that a listed skill covers, then follow the returned instructions.`,
    `Returns the skill body, its folder and its resource files (read them with ${names.readResource}). Optional "arguments" are substituted into the skill.`,
    ...(listing === 'below' ? [`Call ${names.find} to search every skill by topic.`] : []),
  ].join(' ');
}

function findDescription(names: ToolNames, listing: SkillListing): string {
  return listing === 'find'
    ? `Searches the available Agent Skills (folders of instructions for particular tasks) by a free-text query over names and descriptions and returns ranked matches with descriptions. Call it before a task to see whether a skill covers it, then load the skill with ${names.activate}. An empty query lists every skill.`
    : `Searches the available Agent Skills by a free-text query over names and descriptions and returns ranked matches with descriptions. Use it when no listed skill obviously fits or when the list was cut short. An empty query returns the whole catalog.`;
}

function readResourceDescription(names: ToolNames): string {
  return `Reads a text file inside a skill's folder (for example references/guide.md or scripts/run.py), by a path relative to that folder as listed by ${names.activate}. Paths outside the skill folder are refused; large files are truncated.`;
}

/** The tools with the names `names`, for a model that finds the skills' names as `listing` says. */
export function skillToolDefinitions(names: ToolNames, listing: SkillListing): [activate: ModelToolDefinition, find: ModelToolDefinition, readResource: ModelToolDefinition] {
  return [
    {
      name: names.activate,
      description: activateDescription(names, listing),
      inputSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'Exact skill name, e.g. "pdf-forms".' },
          arguments: { type: 'string', description: 'Optional arguments for the skill, as the user would type them.' },
        },
        required: ['name'],
      },
    },
    {
      name: names.find,
      description: findDescription(names, listing),
      inputSchema: {
        type: 'object',
        properties: { query: { type: 'string', description: 'What the task is about, e.g. "fill a pdf form".' } },
        required: ['query'],
      },
    },
    {
      name: names.readResource,
      description: readResourceDescription(names),
      inputSchema: {
        type: 'object',
        properties: {
          skill: { type: 'string', description: 'Skill name.' },
          path: { type: 'string', description: 'Path relative to the skill folder, e.g. "references/forms.md".' },
        },
        required: ['skill', 'path'],
      },
    },
  ];
}

/** The @skills tools, as `agent-skills eval` sends them so that an eval measures what users get. */
export const SKILL_TOOL_DEFINITIONS: readonly ModelToolDefinition[] = skillToolDefinitions(TOOL_NAMES, 'catalog');
