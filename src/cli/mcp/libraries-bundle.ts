// The entry of dist/cli-mcp-libraries.js, which `mcp` loads when it starts, so every other command
// compiles a bundle without the MCP SDK and the file watcher: the libraries (libraries.ts) and the
// server's own modules that need nothing else of the command line (the HTTP server, the stdio
// wire, the direct answers and the folder watcher), since only `mcp` runs them. In dist/cli.js both this module and libraries.ts stand for
// that bundle (scripts/build.mjs). Its modules must not throw the command line's error classes,
// which would be other classes in this bundle. Apart from libraries.ts, so that the modules it
// bundles can import the libraries without importing themselves.
export * from './libraries';
export { ListenError, serveSkillsOverHttp } from './http-server';
export { StdioToolCalls } from './direct-answers';
export { FolderTreeWatcher, logWatchFailures } from './folder-tree-watcher';
export { guardLines, MAX_MESSAGE_BYTES, refineAnswers, stringParams } from './wire';
