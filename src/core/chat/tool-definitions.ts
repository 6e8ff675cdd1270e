// The three @skills tools as a model sees them (name, description, input schema), for requests sent
// outside the editor (`agent-skills eval`). The editor offers the same tools through package.json's
// `languageModelTools`; a unit test keeps the two identical, so an eval measures what users get.

import { TOOL_NAMES } from './tool-names';

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

export const SKILL_TOOL_DEFINITIONS: readonly ModelToolDefinition[] = [
  {
    name: TOOL_NAMES.activate,
    description:
      'Loads the full instructions of an Agent Skill by its exact name, as listed in <available_skills>. Call it before doing a task that a listed skill covers, then follow the returned instructions. Returns the skill body, its folder and its resource files (read them with skills_readResource). Optional "arguments" are substituted into the skill.',
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'Exact skill name, e.g. "pdf-report".' },
        arguments: { type: 'string', description: 'Optional arguments for the skill, as the user would type them.' },
      },
      required: ['name'],
    },
  },
  {
    name: TOOL_NAMES.find,
    description:
      'Searches the available Agent Skills by a free-text query over names and descriptions and returns ranked matches with descriptions. Use it when no listed skill obviously fits or when the catalog was truncated. An empty query returns the whole catalog.',
    inputSchema: {
      type: 'object',
      properties: { query: { type: 'string', description: 'What the task is about, e.g. "fill a pdf form".' } },
      required: ['query'],
    },
  },
  {
    name: TOOL_NAMES.readResource,
    description:
      "Reads a text file inside an activated skill's folder (for example references/guide.md or scripts/run.py), by a path relative to that folder as listed by skills_activate. Paths outside the skill folder are refused; large files are truncated.",
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
