// A bench-only build of `agent-skills`: the product's command line, whose MCP servers offer one
// more tool, find_skills_replay. It answers with the very bytes find_skills answers for the same
// arguments, found once by find_skills itself and then only copied out again, so a call of it costs
// everything a find_skills call costs (the client, the wire, the server's dispatch and encoding,
// the direct answers of the server's own tools included) except the search. The MCP section
// measures the two in the same server, one after the other.
// The product never registers this tool: only bench/sections/mcp.ts bundles this entry.

import type { StandardSchemaWithJSON } from '../../src/cli/mcp/libraries';
import { SkillsServer, type ToolCall, type ToolResult } from '../../src/cli/mcp/skills-server';
import { FIND_INPUT_SCHEMA, MCP_SERVER_NAME } from '../../src/core/mcp/server-texts';
import { MCP_TOOL_NAMES } from '../../src/core/chat/tool-names';
import { REPLAY_TOOL_NAME } from './replay';

/** find_skills' own input schema, every input taken as it is: find_skills checks it on the first call. */
const REPLAY_INPUT_SCHEMA: StandardSchemaWithJSON<Record<string, unknown>> = {
  '~standard': {
    version: 1,
    vendor: MCP_SERVER_NAME,
    validate: (value) => ({ value: (value ?? {}) as Record<string, unknown> }),
    jsonSchema: { input: () => FIND_INPUT_SCHEMA, output: () => FIND_INPUT_SCHEMA },
  },
};

/**
 * Per distinct arguments, the answer find_skills gave the first time, kept for the whole process:
 * on 2026-07-28 each request may get a server of its own, over the same skills.
 */
const answers = new Map<string, Promise<ToolResult>>();

/**
 * The kept answer as a new result holding new strings of the same text, as any tool makes its answer
 * anew on each call: handing back one kept string object would measure that string's reuse (the
 * encoder meets it already flat and sized) beside the search.
 */
function freshCopy(answer: ToolResult): ToolResult {
  return { ...answer, content: answer.content.map((part) => ({ ...part, text: Buffer.from(part.text, 'utf8').toString('utf8') })) };
}

/**
 * Adds the replay tool to `server`, beside its own, and returns its call. The servers of stdio are
 * handed to the SDK's entry as they are made, so the tool is added as each is made: its
 * constructor ends by syncing its tools, which a server also does later on each change of the
 * catalog.
 */
function addReplayTool(server: SkillsServer): ToolCall {
  const find = server.toolCall(MCP_TOOL_NAMES.find);
  if (!find) {
    throw new Error(`the server offers no ${MCP_TOOL_NAMES.find} tool to replay`);
  }
  const replay: ToolCall = (input) => {
    const key = JSON.stringify(input);
    let answer = answers.get(key);
    if (!answer) {
      answer = find(input);
      answers.set(key, answer);
    }
    return answer.then(freshCopy);
  };
  server.mcp.registerTool(
    REPLAY_TOOL_NAME,
    { description: `Answers as ${MCP_TOOL_NAMES.find} answered the same arguments, without searching again (benchmark only).`, inputSchema: REPLAY_INPUT_SCHEMA },
    replay,
  );
  return replay;
}

/** Each server's replay call, offered as one of its own tools: the server's direct answers run it as they run find_skills. */
const replayCalls = new WeakMap<SkillsServer, ToolCall>();
const prototype = SkillsServer.prototype as unknown as { syncTools(this: SkillsServer): void; toolCall(this: SkillsServer, name: string): ToolCall | undefined };
const { syncTools, toolCall } = prototype;
prototype.syncTools = function (this: SkillsServer) {
  syncTools.call(this);
  if (!replayCalls.has(this)) {
    replayCalls.set(this, addReplayTool(this));
  }
};
prototype.toolCall = function (this: SkillsServer, name: string) {
  return name === REPLAY_TOOL_NAME ? replayCalls.get(this) : toolCall.call(this, name);
};

// Loaded after the patch above (a require, so it is not hoisted above it): the command line starts as it ships.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the order is the point
require('../../src/cli/main');
