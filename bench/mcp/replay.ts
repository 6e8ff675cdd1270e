// The name of the tool bench/mcp/replay-server.ts adds to the bench's own build of the server.
export const REPLAY_TOOL_NAME = 'find_skills_replay';
