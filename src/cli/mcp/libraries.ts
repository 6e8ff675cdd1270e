// Everything `agent-skills mcp` takes from its libraries (the MCP SDK and the file watcher), and
// the only module that imports them. The build bundles it apart as dist/cli-mcp-libraries.js, which
// `mcp` loads when it starts, so every other command compiles a bundle without them; naming each
// value lets the bundler leave out the parts of the SDK the server never uses. The server's own
// modules that need nothing else of the command line (the HTTP server and the stdio wire) are
// bundled there too: only `mcp` runs them. They must not throw the command line's error classes,
// which would be other classes in this bundle.
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
  classifyInboundRequest,
  createMcpHandler,
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  isInitializeRequest,
  isJsonContentType,
  SUPPORTED_PROTOCOL_VERSIONS,
  WebStandardStreamableHTTPServerTransport,
  validateHostHeader,
  validateOriginHeader,
  type McpHttpHandler,
} from '@modelcontextprotocol/server';
export { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
export { SkillsExtension, type SkillSource } from '@modelcontextprotocol/server/ext/skills';
export { watch, type FSWatcher } from 'chokidar';
export { ListenError, serveSkillsOverHttp } from './http-server';
export { guardLines, MAX_MESSAGE_BYTES, refineAnswers, stringParams } from './wire';
