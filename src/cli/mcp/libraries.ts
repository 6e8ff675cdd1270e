// Everything `agent-skills mcp` takes from its libraries (the MCP SDK), and
// the only module that imports them. It is bundled apart through libraries-bundle.ts (see there);
// naming each value lets the bundler leave out the parts of the SDK the server never uses.
export {
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  type GetPromptResult,
  type JSONRPCMessage,
  type RegisteredTool,
  type StandardSchemaV1,
  type StandardSchemaWithJSON,
  type Transport,
} from '@modelcontextprotocol/server';
export {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
  classifyInboundRequest,
  createMcpHandler,
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  isInitializeRequest,
  isJsonContentType,
  LOG_LEVEL_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
  WebStandardStreamableHTTPServerTransport,
  validateHostHeader,
  validateOriginHeader,
  type InboundClassificationOutcome,
  type McpHttpHandler,
} from '@modelcontextprotocol/server';
export { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
export { SkillsExtension, type SkillSource } from '@modelcontextprotocol/server/ext/skills';
