// The three language-model tools, registered for every caller: the @skills participant and other
// participants get the same answers. Agent mode sees either the MCP server's tools or, with
// `agentSkills.agentMode: tools`, the referenceable twins registered here under the MCP names, so it
// is offered each capability once (VS Code ties # references and agent mode to one flag). Each tool is a thin adapter over core: parse
// the input, ask the host, return the core's text. Refusals are text results the model can read
// and act on (see src/core/chat-tools.ts).

import * as vscode from 'vscode';
import { readResourceOfSkill } from '../../core/use/activation';
import { MCP_TOOL_NAMES, TOOL_NAMES, type ToolNames } from '../../core/chat/tool-names';
import { SKILLS_DISABLED_MESSAGE } from '../../core/chat/prompt';
import {
  activationInvocationMessage,
  activationToolText,
  findInvocationMessage,
  parseActivateInput,
  parseFindInput,
  parseReadResourceInput,
  readResourceInvocationMessage,
  renderFindResult,
  type ActivateInput,
  type FindInput,
  type ParsedInput,
  type ReadResourceInput,
} from '../../core/chat/tool-texts';
import { currentCatalog } from '../../core/use/current-catalog';
import type { SkillsHost } from '../skills/types';

function textResult(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}

/** Waits for discovery and pending reloads, so a tool never answers from a stale registry. */
async function settledHost(host: SkillsHost): Promise<SkillsHost> {
  await host.ready;
  await host.whenIdle();
  return host;
}

/** What differs between the tools; checking input, waiting for the registry and the on/off switch are shared. */
interface SkillToolSpec<Input> {
  parse(input: unknown): ParsedInput<Input>;
  /** The progress line while the tool runs (input undefined when it is malformed). */
  describe(input: Input | undefined, host: SkillsHost): string;
  /** `tools`: the names of the tool set answering, which the texts for the model mention. */
  answer(input: Input, host: SkillsHost, tools: ToolNames): Promise<string> | string;
}

function skillTool<Input>(host: SkillsHost, spec: SkillToolSpec<Input>, tools: ToolNames): vscode.LanguageModelTool<unknown> {
  return {
    async prepareInvocation(options) {
      const parsed = spec.parse(options.input);
      return { invocationMessage: spec.describe(parsed.ok ? parsed.input : undefined, await settledHost(host)) };
    },
    async invoke(options) {
      const parsed = spec.parse(options.input);
      if (!parsed.ok) {
        return textResult(parsed.message);
      }
      const settled = await settledHost(host);
      return textResult(settled.settings.enabled ? await spec.answer(parsed.input, settled, tools) : SKILLS_DISABLED_MESSAGE);
    },
  };
}

const activateTool: SkillToolSpec<ActivateInput> = {
  parse: parseActivateInput,
  describe: (input, host) => {
    if (!input) {
      return 'Loading a skill…';
    }
    return host.settings.enabled ? activationInvocationMessage(host.snapshot, input.name) : `Not loading skill ${input.name}: skills are turned off`;
  },
  // The host logs the activation or the refusal.
  // The referenceable twins are agent mode's; the others serve @skills and other participants.
  answer: async (input, host, tools) => activationToolText(await host.activateSkill(input.name, input.arguments, tools === MCP_TOOL_NAMES ? 'agent' : 'model', tools)),
};

const findTool: SkillToolSpec<FindInput> = {
  parse: parseFindInput,
  describe: (input) => findInvocationMessage(input?.query ?? ''),
  answer: ({ query }, host, tools) => {
    host.log.info(query === '' ? `${tools.find}: the catalog.` : `${tools.find}: "${query}".`);
    return renderFindResult(host.snapshot, query, currentCatalog(host, undefined, tools), tools);
  },
};

const readResourceTool: SkillToolSpec<ReadResourceInput> = {
  parse: parseReadResourceInput,
  describe: (input) => (input ? readResourceInvocationMessage(input.skill, input.path) : 'Reading a skill file…'),
  answer: async ({ skill, path }, host, tools) => {
    const result = await readResourceOfSkill(host.snapshot, skill, path, { toolNames: tools, content: host.content });
    if (!result.ok) {
      host.log.warn(`${tools.readResource}: refused "${path}" of "${skill}": ${result.message}`);
      return result.message;
    }
    const { resource, record } = result;
    host.log.info(`${tools.readResource}: ${resource.path} of "${record.name}" (${resource.size} bytes${resource.kind === 'binary' ? ', binary' : ''}).`);
    return result.text;
  },
};

/** Both tool sets, by name; package.json decides where each is offered (chat/register.ts registers them). */
export function skillTools(host: SkillsHost): ReadonlyMap<string, vscode.LanguageModelTool<unknown>> {
  return new Map(
    [TOOL_NAMES, MCP_TOOL_NAMES].flatMap((tools) => [
      [tools.activate, skillTool(host, activateTool, tools)],
      [tools.find, skillTool(host, findTool, tools)],
      [tools.readResource, skillTool(host, readResourceTool, tools)],
    ]),
  );
}
