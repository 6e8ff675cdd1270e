// The MCP area's types other areas name: the server definition offered to VS Code.

import type { SkillsMcpServerProvider } from './server-definition';

export type { SkillsMcpServerProvider } from './server-definition';

/** What register() hands the other areas. */
export interface Mcp {
  mcpServer: SkillsMcpServerProvider;
}
