// The MCP server over the registry, on the official SDK: instructions with the catalog, the three
// skill tools (same core behaviour and texts as the editor's), a prompt per user-invocable skill,
// and the Skills extension (SEP-2640) through the SDK's binding, fed by the core's published
// skills. A server serves one connection (stdio, a 2025-11-25 session) and follows every change of
// the lists it serves, telling its client; or one request of the stateless 2026-07-28 revision,
// over the lists as they are when it is made.

import {
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  SkillsExtension,
  type GetPromptResult,
  type RegisteredTool,
  type SkillSource,
  type StandardSchemaWithJSON,
  type Transport,
} from './libraries';
import { refineAnswers, stringParams } from './wire';
import { activateSkill, readResourceOfSkill } from '../../core/use/activation';
import { errorMessage } from '../../core/util/errors';
import { activationToolText, parseActivateInput, parseFindInput, parseReadResourceInput, renderFindResult } from '../../core/chat/tool-texts';
import { MCP_TOOL_NAMES } from '../../core/chat/tool-names';
import { AuthorOnlyResourceError, InvalidCursorError, PublishedSkills, type Page } from '../../core/mcp/published-skills';
import { FIND_INPUT_SCHEMA, FIND_TOOL_DESCRIPTION, MCP_SERVER_NAME, READ_RESOURCE_TOOL_DESCRIPTION, serverInstructions, type SnapshotTextsCache, type JsonSchema } from '../../core/mcp/server-texts';
import type { Disposable, Event } from '../../core/model/event';
import type { LoggedVia } from '../../core/use/usage-log';
import type { SkillRegistry } from '../../core/discovery/registry';

export interface SkillsServerOptions {
  version: string;
  /** Diagnostics for the person running the server (stderr: stdout carries only protocol). */
  log(message: string): void;
  /** The published skills, shared by the servers of one registry (one per HTTP session); else its own. */
  published?: PublishedSkills;
  /** Told of each activation by the activate tool or a skill's prompt, with the characters of the skill's text. */
  onActivated?(activation: { skill: string; via: LoggedVia; chars: number }): void;
  /** The texts of the registry's snapshots (the catalog in the instructions within its budget), shared by the servers of one registry. */
  texts: SnapshotTextsCache;
  /** Changes of the lists it serves, for a server of one connection; a server of one request has none. */
  changes?: Event<ListChanges>;
}

/** Which lists a client holds changed: tools (descriptions, name enums), prompts, and skills with their files. */
export interface ListChanges {
  tools: boolean;
  prompts: boolean;
  resources: boolean;
}

/** The result fields the Skills extension requires of skills/list and skills/get on every protocol revision. */
const SKILLS_RESULT_FIELDS = { resultType: 'complete', ttlMs: 0, cacheScope: 'private' } as const;

const LIST_CHANGED_NOTIFICATIONS = ['notifications/tools/list_changed', 'notifications/prompts/list_changed', 'notifications/resources/list_changed'];

export type ToolResult = { content: { type: 'text'; text: string }[]; isError?: boolean };

type ToolConfig = { description: string; inputSchema: StandardSchemaWithJSON<Record<string, unknown>>; annotations?: { readOnlyHint: boolean } };

/** One of the server's tools called with its arguments (any JSON: the tool checks them). */
export type ToolCall = (input: unknown) => Promise<ToolResult>;

function textResult(text: string, isError = false): ToolResult {
  return isError ? { content: [{ type: 'text', text }], isError } : { content: [{ type: 'text', text }] };
}

/** A tool whose failure (a thrown error) is an error result with its message, as the SDK makes one. */
function settledCall(run: (input: unknown) => ToolResult | Promise<ToolResult>): ToolCall {
  return async (input) => {
    try {
      return await run(input);
    } catch (error) {
      return textResult(errorMessage(error), true);
    }
  };
}

/**
 * A schema that advertises `schema` to clients and accepts any input: the core parses it and
 * answers bad input with the same readable refusal as the editor's tools.
 */
function advertisedSchema(schema: JsonSchema): StandardSchemaWithJSON<Record<string, unknown>> {
  return {
    '~standard': {
      version: 1,
      vendor: MCP_SERVER_NAME,
      validate: (value) => ({ value: (value ?? {}) as Record<string, unknown> }),
      jsonSchema: { input: () => schema, output: () => schema },
    },
  };
}

const LIST_SKILLS_PARAMS = stringParams([], ['cursor']);
const GET_SKILL_PARAMS = stringParams(['uri']);

/** The published skills' refusals (a cursor it never handed out, an authors' file) as invalid parameters, with their reasons. */
function protocolErrors<T>(work: () => Promise<T>): Promise<T> {
  return work().catch((error: unknown) => {
    throw error instanceof InvalidCursorError || error instanceof AuthorOnlyResourceError ? new ProtocolError(ProtocolErrorCode.InvalidParams, error.message) : error;
  });
}

/** The SDK's server answering as wire.ts refines, on whatever transport it is connected to (the SDK's entries connect it themselves). */
class RefinedMcpServer extends McpServer {
  override connect(transport: Transport): Promise<void> {
    return super.connect(refineAnswers(transport));
  }
}

export class SkillsServer implements Disposable {
  readonly mcp: McpServer;
  /** The name and version it tells clients. */
  readonly info: { name: string; version: string };
  readonly published: PublishedSkills;
  private readonly activateTool: RegisteredTool;
  private readonly readResourceTool: RegisteredTool;
  /** The tools by name, each with the call the SDK's tools/call makes (see toolCall). */
  private readonly ownTools = new Map<string, { registered: RegisteredTool; call: ToolCall }>();
  private readonly texts: SnapshotTextsCache;
  private readonly subscription: Disposable | undefined;

  constructor(
    private readonly registry: SkillRegistry,
    private readonly options: SkillsServerOptions,
  ) {
    this.published = options.published ?? new PublishedSkills(registry, { onProblem: (message) => options.log(message) });
    this.texts = options.texts;
    const { catalog, tools } = this.texts.of(registry.snapshot);
    if (catalog.overflow.length > 0) {
      options.log(
        `The catalog did not fit its budget of ${catalog.chars} characters: ${catalog.overflow.length} skills are listed by name only${catalog.unlisted.length ? ` (${catalog.unlisted.length} not at all)` : ''}; ${MCP_TOOL_NAMES.find} reaches them.`,
      );
    }
    this.info = { name: MCP_SERVER_NAME, version: options.version };
    this.mcp = new RefinedMcpServer(this.info, {
      instructions: serverInstructions(catalog.text),
      capabilities: { tools: { listChanged: true }, prompts: { listChanged: true }, resources: { listChanged: true } },
      debouncedNotificationMethods: LIST_CHANGED_NOTIFICATIONS,
    });
    const source = this.skillSource();
    new SkillsExtension({ source }).attach(this.mcp);
    // The SDK's own skills/list and skills/get leave out an entry whose metadata is not a map of
    // strings, a rule of a draft that the final text dropped: the frontmatter goes out verbatim.
    this.mcp.server.setRequestHandler('skills/list', { params: LIST_SKILLS_PARAMS }, async ({ cursor }, context) => ({
      ...(await source.list({ cursor }, context)),
      ...SKILLS_RESULT_FIELDS,
    }));
    this.mcp.server.setRequestHandler('skills/get', { params: GET_SKILL_PARAMS }, async ({ uri }, context) => {
      const skill = await source.get(uri, context);
      if (!skill) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No skill is served at ${uri}`);
      }
      return { skill, ...SKILLS_RESULT_FIELDS };
    });

    const register = (name: string, config: ToolConfig, run: (input: unknown) => ToolResult | Promise<ToolResult>): RegisteredTool => {
      const call = settledCall(run);
      const registered = this.mcp.registerTool(name, config, call);
      this.ownTools.set(name, { registered, call });
      return registered;
    };
    this.activateTool = register(MCP_TOOL_NAMES.activate, { description: tools.activateDescription, inputSchema: advertisedSchema(tools.activateSchema) }, (input) => this.activate(input));
    register(MCP_TOOL_NAMES.find, { description: FIND_TOOL_DESCRIPTION, inputSchema: advertisedSchema(FIND_INPUT_SCHEMA), annotations: { readOnlyHint: true } }, (input) => this.find(input));
    this.readResourceTool = register(
      MCP_TOOL_NAMES.readResource,
      { description: READ_RESOURCE_TOOL_DESCRIPTION, inputSchema: advertisedSchema(tools.readSchema), annotations: { readOnlyHint: true } },
      (input) => this.readResource(input),
    );
    this.syncTools();
    // The prompts are served from the texts every server of the registry shares, instead of
    // registered with each server one by one (a thousand skills cost a session 1 MB and 10 ms).
    this.mcp.server.setRequestHandler('prompts/list', () => ({ prompts: [...this.texts.of(this.registry.snapshot).promptList] }));
    this.mcp.server.setRequestHandler('prompts/get', (request) => this.getPrompt(request.params.name, request.params.arguments ?? {}));
    this.subscription = options.changes?.((lists) => {
      if (lists.tools) {
        this.syncTools();
      }
      if (lists.prompts) {
        this.mcp.sendPromptListChanged();
      }
      if (lists.resources) {
        this.mcp.sendResourceListChanged();
      }
    });
  }

  /** Serves a client on `transport`, answering as the protocol asks (see wire.ts). */
  connect(transport: Transport): Promise<void> {
    return this.mcp.connect(transport);
  }

  dispose(): void {
    this.subscription?.dispose();
  }

  /**
   * What the SDK's tools/call runs for the tool `name` once it has taken the request, for a caller
   * that answers a call without the SDK (the HTTP server's direct answers); undefined for a name
   * that is no tool a client may call now, which the SDK refuses in its own words.
   */
  toolCall(name: string): ToolCall | undefined {
    const tool = this.ownTools.get(name);
    return tool?.registered.enabled ? tool.call : undefined;
  }

  /** The protocol revision its client agreed on; undefined until initialize (a 2026-07-28 server is made with its revision). */
  negotiatedVersion(): string | undefined {
    // Deprecated for handlers, which read it from their request's context; direct answers have none.
    return this.mcp.server.getNegotiatedProtocolVersion();
  }

  private skillSource(): SkillSource {
    return {
      list: ({ cursor }) => protocolErrors(async () => toSkillsPage(await this.published.list(cursor))),
      get: async (uri) => {
        const entry = await this.published.get(uri);
        const refusal = entry ? undefined : this.published.refusal(uri);
        if (refusal) {
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, refusal);
        }
        return entry;
      },
      read: (uri) =>
        protocolErrors(async () => {
          const content = await this.published.read(uri);
          const refusal = content ? undefined : this.published.refusal(uri);
          if (refusal) {
            throw new ResourceNotFoundError(uri, refusal);
          }
          return content;
        }),
      readDirectory: (uri, { cursor }) =>
        protocolErrors(async () => {
          const page = await this.published.readDirectory(uri, cursor);
          return page && { resources: page.items, ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }) };
        }),
      listResources: () => this.published.listSkillFiles(),
    };
  }

  private async activate(input: unknown): Promise<ToolResult> {
    const parsed = parseActivateInput(input, MCP_TOOL_NAMES);
    if (!parsed.ok) {
      return textResult(parsed.message, true);
    }
    const result = await activateSkill(this.registry.snapshot, parsed.input.name, { mode: 'model', arguments: parsed.input.arguments, toolNames: MCP_TOOL_NAMES });
    if (result.ok) {
      this.registry.activate(result.record.name);
      this.options.onActivated?.({ skill: result.record.name, via: 'tool', chars: result.text.length });
    }
    return textResult(activationToolText(result), !result.ok);
  }

  private find(input: unknown): ToolResult {
    const parsed = parseFindInput(input, MCP_TOOL_NAMES);
    if (!parsed.ok) {
      return textResult(parsed.message, true);
    }
    const snapshot = this.registry.snapshot;
    return textResult(renderFindResult(snapshot, parsed.input.query, this.texts.of(snapshot).catalog, MCP_TOOL_NAMES));
  }

  private async readResource(input: unknown): Promise<ToolResult> {
    const parsed = parseReadResourceInput(input, MCP_TOOL_NAMES);
    if (!parsed.ok) {
      return textResult(parsed.message, true);
    }
    const result = await readResourceOfSkill(this.registry.snapshot, parsed.input.skill, parsed.input.path, { toolNames: MCP_TOOL_NAMES });
    return result.ok ? textResult(result.text) : textResult(result.message, true);
  }

  /** Descriptions and name enums follow the catalog; the activate tool is hidden while no skill can be activated. */
  private syncTools(): void {
    const { tools } = this.texts.of(this.registry.snapshot);
    this.activateTool.update({ description: tools.activateDescription, paramsSchema: advertisedSchema(tools.activateSchema), enabled: tools.activateEnabled });
    this.readResourceTool.update({ paramsSchema: advertisedSchema(tools.readSchema) });
  }

  private async getPrompt(name: string, args: Record<string, unknown>): Promise<GetPromptResult> {
    const prompt = this.texts.of(this.registry.snapshot).prompts.get(name);
    if (!prompt) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Prompt ${name} not found`);
    }
    // Blank arguments are none: the substitution trims them.
    const text = typeof args.arguments === 'string' ? args.arguments : undefined;
    const result = await activateSkill(this.registry.snapshot, prompt.name, { mode: 'user', arguments: text, toolNames: MCP_TOOL_NAMES });
    if (!result.ok) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, result.message);
    }
    this.registry.activate(result.record.name);
    this.options.onActivated?.({ skill: result.record.name, via: 'prompt', chars: result.text.length });
    return { description: prompt.description, messages: [{ role: 'user', content: { type: 'text', text: activationToolText(result) } }] };
  }
}

function toSkillsPage<T>(page: Page<T>): { skills: T[]; nextCursor?: string } {
  return page.nextCursor === undefined ? { skills: page.items } : { skills: page.items, nextCursor: page.nextCursor };
}
