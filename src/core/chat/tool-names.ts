/** The names of the three skill tools; the texts the model reads refer to the tools by them. */
export interface ToolNames {
  readonly activate: string;
  readonly find: string;
  readonly readResource: string;
}

/** Tool names as contributed in package.json. */
export const TOOL_NAMES = {
  activate: 'skills_activate',
  find: 'skills_find',
  readResource: 'skills_readResource',
} as const satisfies ToolNames;

/** The same tools as the MCP server (`agent-skills mcp`) offers them. */
export const MCP_TOOL_NAMES = {
  activate: 'activate_skill',
  find: 'find_skills',
  readResource: 'read_skill_resource',
} as const satisfies ToolNames;
