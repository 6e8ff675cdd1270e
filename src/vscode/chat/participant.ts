// The @skills chat participant. Free-form requests run a tool-calling loop on the user's model with
// the catalog as instructions; /use starts a skill for the user; /list and /validate report. Every
// decision (prompt text, history, refusals, follow-ups, model choice) is a core function; this
// file sequences chat API calls around them.

import * as path from 'node:path';
import * as vscode from 'vscode';
import { MCP_TOOL_NAMES, TOOL_NAMES, type ToolNames } from '../../core/chat/tool-names';
import { parseUseCommand, renderSkillList, renderValidationSummary, suggestSkills, useUsage } from '../../core/chat/commands';
import {
  alreadyLoadedText,
  carriedBudgetChars,
  conversationMessages,
  emptyTurnMetadata,
  findLoadedActivation,
  forkResultText,
  readTurnMetadata,
  userInvocationText,
  type Conversation,
  type SkillActivationRecord,
  type SkillsTurnMetadata,
} from '../../core/chat/conversation';
import {
  CANCELLED_MESSAGE,
  chooseForkModel,
  describeModelError,
  describeRefusal,
  staleSkillNote,
  forkMessages,
  isCancellation,
  NO_MODEL_MESSAGE,
  oneLineMessage,
  requestPrompt,
  SKILLS_DISABLED_MESSAGE,
} from '../../core/chat/prompt';
import {
  findInvocationMessage,
  parseActivateInput,
  parseActivationHeader,
  parseFindInput,
  parseReadResourceInput,
  readResourceInvocationMessage,
  unavailableToolText,
  untrustedNote,
  untrustedSkillCount,
} from '../../core/chat/tool-texts';
import { escapeMarkdown } from '../../core/util/text';
import { isUserInvocable, leadingProblem } from '../../core/model/status';
import type { SkillRecord } from '../../core/model/types';
import { suggestedSkillNames } from '../../core/use/activation';
import { currentCatalog } from '../../core/use/current-catalog';
import { COMMANDS, PARTICIPANT_ID } from '../shared/manifest';
import type { ValidationReport } from '../diagnostics/types';
import type { ValidateOptions } from '../commands/types';
import type { SkillsHost } from '../skills/types';
import { ModelRequestError, RequestCancelled, runToolLoop, throwIfCancelled, type ToolLoopOptions, type ToolLoopResult } from './tool-loop';
import { isSkillTool, resultText, skillChatTools, toChatMessages, toConversationTurns } from '../shared/language-model';
import { errorDetail, errorMessage } from '../../core/util/errors';

/** Model round trips per request before the loop stops a model that keeps calling tools. */
export const MAX_TOOL_ROUNDS = 8;
/** A forked skill gets fewer: it only reads its own files. */
const MAX_FORK_ROUNDS = 4;

/** A tool attached with # is a referenceable twin (agentMode "tools"); @skills runs its own tool of the same kind. */
const OWN_TOOL_OF_REFERENCE: ReadonlyMap<string, string> = new Map((Object.keys(TOOL_NAMES) as (keyof ToolNames)[]).map((key) => [MCP_TOOL_NAMES[key], TOOL_NAMES[key]]));

/** What answers a request to @skills (chat/register.ts makes the participant). */
export function skillsChatHandler(host: SkillsHost): vscode.ChatRequestHandler {
  return (request, context, stream, token) => new SkillsChatTurn(host, request, context, stream, token).run();
}

/** The follow-ups of an answer: the skills it suggested. */
export const skillsFollowups: vscode.ChatFollowupProvider = {
  provideFollowups: (result) => readTurnMetadata(result.metadata).suggestedSkills.map((name): vscode.ChatFollowup => ({ prompt: name, label: `Use skill ${name}`, command: 'use' })),
};

/** One request to @skills, from start to the result it returns. */
class SkillsChatTurn {
  private readonly metadata: SkillsTurnMetadata & { cancelled?: boolean };
  /** The earlier turns of this conversation, rebuilt once per request. */
  private earlierTurns: Conversation | undefined;
  /**
   * Refusals and tool failures met on the way, said after the answer: the chat view folds what is
   * streamed before a response's last text under "Completed N steps", where no one would see them.
   */
  private readonly problems: string[] = [];

  constructor(
    private readonly host: SkillsHost,
    private readonly request: vscode.ChatRequest,
    private readonly context: vscode.ChatContext,
    private readonly stream: vscode.ChatResponseStream,
    private readonly token: vscode.CancellationToken,
  ) {
    this.metadata = emptyTurnMetadata(request.command);
  }

  async run(): Promise<vscode.ChatResult> {
    const result = await this.respond();
    this.sayProblems();
    return result;
  }

  /** The problems met so far, once, as part of the answer's last text. */
  private sayProblems(): void {
    if (this.problems.length > 0) {
      this.stream.markdown(`\n\n${this.problems.join('\n\n')}\n\n`);
      this.problems.length = 0;
    }
  }

  private async respond(): Promise<vscode.ChatResult> {
    try {
      await this.host.ready;
      await this.host.whenIdle();
      if (!this.host.settings.enabled) {
        this.stream.markdown(SKILLS_DISABLED_MESSAGE);
        return this.result();
      }
      switch (this.request.command) {
        case 'list':
          return this.list();
        case 'validate':
          return await this.validate();
        case 'use':
          return this.withRestrictedNotice(await this.use());
        default:
          return this.withRestrictedNotice(await this.freeForm());
      }
    } catch (error) {
      return this.failed(error);
    }
  }

  private result(errorMessage?: string): vscode.ChatResult {
    return { metadata: { ...this.metadata }, ...(errorMessage ? { errorDetails: { message: errorMessage } } : {}) };
  }

  private failed(error: unknown): vscode.ChatResult {
    if (this.token.isCancellationRequested || error instanceof RequestCancelled || isCancellation(error)) {
      this.metadata.cancelled = true;
      this.host.log.info('@skills: the request was cancelled.');
      return this.result(CANCELLED_MESSAGE);
    }
    if (error instanceof ModelRequestError) {
      this.host.log.warn(`@skills: the model request failed: ${error.message}`);
      return this.result(describeModelError(error.failure));
    }
    this.host.log.error(`@skills failed: ${errorDetail(error)}`);
    return this.result(`@skills could not complete the request: ${oneLineMessage(errorMessage(error))} (details in the Agent Skills log).`);
  }

  private list(): vscode.ChatResult {
    this.stream.markdown(renderSkillList(this.host.snapshot, { link: (record) => vscode.Uri.file(record.file).toString() }));
    return this.result();
  }

  private async validate(): Promise<vscode.ChatResult> {
    this.stream.progress('Validating skills…');
    // The editor's command publishes the diagnostics and returns the summary; its diagnostics are the
    // details. The summary is printed here, so the command's notification would only repeat it.
    const options: ValidateOptions = { notify: false };
    const report = await vscode.commands.executeCommand<ValidationReport | undefined>(COMMANDS.validate, options);
    const problems = report?.problems ?? [];
    const skills = this.host.snapshot.skills;
    this.stream.markdown(
      renderValidationSummary(report?.message ?? 'Validation finished.', problems, {
        link: (file, line) =>
          vscode.Uri.file(file)
            .with({ fragment: `L${line + 1}` })
            .toString(),
        label: (file) => {
          const record = skills.find((candidate) => candidate.file === file);
          return record ? path.relative(record.root.path, file) : vscode.workspace.asRelativePath(file);
        },
      }),
    );
    if (problems.length > 0) {
      this.stream.button({ command: 'workbench.actions.view.problems', title: 'Open Problems' });
    }
    return this.result();
  }

  private async use(): Promise<vscode.ChatResult> {
    const command = parseUseCommand(this.request.prompt);
    if (!command) {
      this.stream.markdown(useUsage(this.host.snapshot));
      return this.result();
    }
    const known = this.host.snapshot.usable(command.name);
    // Progress only for a skill that will load: the chat view folds a response's lines before its
    // last text under "Completed N steps", which must not stand above a refusal.
    if (known && isUserInvocable(known)) {
      this.stream.progress(`Loading skill ${command.name}…`);
    }
    const activation = await this.host.activateSkill(command.name, command.arguments, 'use');
    if (!activation.ok) {
      if (activation.reason === 'unknown') {
        this.metadata.suggestedSkills = suggestedSkillNames(this.host.snapshot, command.name, 'user');
      }
      // A broken skill's message names the file and its problem: shown whole, as every surface gives it, its path a link.
      this.stream.markdown(activation.record?.status === 'invalid' ? withFileLink(activation.message, activation.record) : describeRefusal(command.name, activation.message));
      return this.result();
    }
    const record = activation.record;
    this.cite(record);
    if (activation.lastValid) {
      this.stream.markdown(`${staleSkillNote(record)}\n\n`);
    }
    const model = this.request.model;
    if (!model) {
      return this.result(NO_MODEL_MESSAGE);
    }
    if (record.metadata?.context === 'fork') {
      const report = await this.runForked(record, activation.text, command.arguments ?? '');
      this.metadata.activatedSkills.push({ name: record.name, file: record.file, ...(command.arguments ? { arguments: command.arguments } : {}), invokedBy: 'user', text: report, forked: true });
      return this.result();
    }
    const conversation = this.conversation();
    const started: SkillActivationRecord = { name: record.name, file: record.file, ...(command.arguments ? { arguments: command.arguments } : {}), invokedBy: 'user', text: activation.text };
    this.metadata.activatedSkills.push(started);
    const messages = this.requestMessages(conversation, model, userInvocationText(started));
    await this.toolLoop(model, messages, [...conversation.loaded, started]);
    return this.result();
  }

  private async freeForm(): Promise<vscode.ChatResult> {
    const model = this.request.model;
    if (!model) {
      return this.result(NO_MODEL_MESSAGE);
    }
    const conversation = this.conversation();
    const messages = this.requestMessages(conversation, model, this.request.prompt);
    await this.toolLoop(model, messages, [...conversation.loaded]);
    const loadedNames = [...conversation.loaded, ...this.metadata.activatedSkills].map((activation) => activation.name);
    this.metadata.suggestedSkills = suggestSkills(this.host.snapshot, this.request.prompt, loadedNames);
    return this.result();
  }

  private conversation(): Conversation {
    this.earlierTurns ??= conversationMessages(toConversationTurns(this.context.history, PARTICIPANT_ID), { maxCarriedChars: carriedBudgetChars(this.request.model?.maxInputTokens) });
    return this.earlierTurns;
  }

  /** The instructions with the catalog (as Show Catalog shows it), the earlier turns, then `userText`. */
  private requestMessages(conversation: Conversation, model: vscode.LanguageModelChat, userText: string): vscode.LanguageModelChatMessage[] {
    const catalog = currentCatalog(this.host, model.maxInputTokens);
    const instructions = {
      catalogText: catalog.text,
      loadedNames: conversation.loaded.map((activation) => activation.name),
      droppedNames: conversation.dropped,
      untrustedCount: untrustedSkillCount(this.host.snapshot),
    };
    return toChatMessages(requestPrompt(instructions, conversation.messages, userText));
  }

  /**
   * Once per conversation, after the answer: says that the workspace's own skills are withheld and
   * how to change that. (Text streamed before progress lines is folded away with the steps.)
   */
  private withRestrictedNotice(result: vscode.ChatResult): vscode.ChatResult {
    // Before the notice: its button would end the last text, folding what comes before it away.
    this.sayProblems();
    const withheld = untrustedSkillCount(this.host.snapshot);
    if (withheld === 0 || this.conversation().restrictedNoticeShown) {
      return result;
    }
    this.stream.markdown(`\n\n${untrustedNote(withheld)} User and built-in skills still work.\n\n`);
    this.stream.button({ command: COMMANDS.manageTrust, title: 'Manage Workspace Trust' });
    this.metadata.restrictedNoticeShown = true;
    return { ...result, metadata: { ...this.metadata } };
  }

  /** The main tool-calling loop: the model may load skills, search them and read their files. */
  private async toolLoop(model: vscode.LanguageModelChat, messages: vscode.LanguageModelChatMessage[], loaded: SkillActivationRecord[]): Promise<void> {
    const tools = skillChatTools();
    // A tool the user attached with `#` must be called first, as the chat API asks.
    const attached = this.request.toolReferences.map((reference) => OWN_TOOL_OF_REFERENCE.get(reference.name)).find((name) => name !== undefined);
    const first: vscode.LanguageModelChatRequestOptions | undefined = attached
      ? { tools: tools.filter((tool) => tool.name === attached), toolMode: vscode.LanguageModelChatToolMode.Required }
      : undefined;
    const { exhausted } = await this.converse(model, messages, { tools, first, maxRounds: MAX_TOOL_ROUNDS }, (call) => this.runToolCall(call, loaded));
    if (exhausted) {
      this.stream.markdown(`\n\nStopped after ${MAX_TOOL_ROUNDS} rounds of tool calls.`);
    }
  }

  /** The tool loop with this turn's cancellation, streaming the answer into the response. */
  private converse(
    model: vscode.LanguageModelChat,
    messages: vscode.LanguageModelChatMessage[],
    options: ToolLoopOptions,
    runCall: (call: vscode.LanguageModelToolCallPart) => Promise<string>,
  ): Promise<ToolLoopResult> {
    return runToolLoop(model, messages, options, {
      token: this.token,
      onText: (text) => this.stream.markdown(text),
      onRound: () => this.metadata.toolRounds++,
      runCall,
    });
  }

  /** Runs one tool call of the model and returns the text the model gets back. */
  private async runToolCall(call: vscode.LanguageModelToolCallPart, loaded: SkillActivationRecord[]): Promise<string> {
    if (!isSkillTool(call.name)) {
      return unavailableToolText(call.name);
    }
    if (call.name === TOOL_NAMES.activate) {
      return this.activateForModel(call, loaded);
    }
    if (call.name === TOOL_NAMES.find) {
      const parsed = parseFindInput(call.input);
      this.stream.progress(findInvocationMessage(parsed.ok ? parsed.input.query : ''));
    } else {
      const parsed = parseReadResourceInput(call.input);
      if (parsed.ok) {
        this.stream.progress(readResourceInvocationMessage(parsed.input.skill, parsed.input.path));
      }
    }
    return this.invokeTool(call);
  }

  private async invokeTool(call: vscode.LanguageModelToolCallPart): Promise<string> {
    try {
      return resultText(await vscode.lm.invokeTool(call.name, { input: call.input, toolInvocationToken: this.request.toolInvocationToken }, this.token));
    } catch (error) {
      throwIfCancelled(this.token);
      const message = oneLineMessage(errorMessage(error));
      this.host.log.warn(`@skills: tool ${call.name} failed: ${message}`);
      this.problems.push(`The tool ${call.name} failed: ${message}`);
      return `Error: ${message}`;
    }
  }

  private async activateForModel(call: vscode.LanguageModelToolCallPart, loaded: SkillActivationRecord[]): Promise<string> {
    const parsed = parseActivateInput(call.input);
    if (parsed.ok) {
      const earlier = findLoadedActivation(loaded, parsed.input.name, parsed.input.arguments);
      if (earlier) {
        this.stream.progress(`Skill ${earlier.name} is already loaded.`);
        return alreadyLoadedText(earlier.name);
      }
      this.stream.progress(`Loading skill ${parsed.input.name}…`);
    }
    const text = await this.invokeTool(call);
    const header = parseActivationHeader(text);
    const record = header && this.recordNamed(header.name);
    if (!parsed.ok || !header || !record) {
      this.problems.push(describeRefusal(parsed.ok ? parsed.input.name : 'unnamed', text));
      return text;
    }
    this.cite(record);
    const args = parsed.input.arguments;
    const base = { name: record.name, file: record.file, ...(args ? { arguments: args } : {}), invokedBy: 'model' as const };
    if (record.metadata?.context === 'fork') {
      const report = forkResultText(record.name, await this.runForked(record, text, args ?? this.request.prompt));
      this.metadata.activatedSkills.push({ ...base, text: report, forked: true });
      return report;
    }
    const activation: SkillActivationRecord = { ...base, text };
    this.metadata.activatedSkills.push(activation);
    loaded.push(activation);
    return text;
  }

  /**
   * Cites a loaded skill's SKILL.md as a reference, and names it in the answer: the chat view folds
   * references into the collapsed steps, and the user should see which skill shaped the answer.
   */
  private cite(record: SkillRecord): void {
    const file = vscode.Uri.file(record.file);
    this.stream.reference(file);
    this.stream.markdown(`Using skill **${escapeMarkdown(record.name)}** `);
    this.stream.anchor(file);
    this.stream.markdown('\n\n');
  }

  private recordNamed(name: string): SkillRecord | undefined {
    return this.host.snapshot.usable(name) ?? this.host.snapshot.byName(name)[0];
  }

  /**
   * Runs a `context: fork` skill in a request of its own: its instructions and the task, without
   * the conversation, on the model its `model` field asks for when there is one. The result is
   * shown in the chat and returned.
   */
  private async runForked(record: SkillRecord, activationText: string, task: string): Promise<string> {
    const userModel = this.request.model;
    const hint = record.metadata?.model;
    const choice = chooseForkModel(record.name, hint, hint ? await vscode.lm.selectChatModels() : [], userModel);
    // Progress first: the chat view folds what is streamed before a progress line into its steps.
    this.stream.progress(`Running skill ${record.name} in isolation${choice.model === userModel ? '' : ` on ${choice.model.name}`}…`);
    if (choice.note) {
      this.stream.markdown(`\n\n_${choice.note}_\n\n`);
    }
    this.stream.markdown(`\n\n**${record.name}** (isolated run):\n\n`);
    const tools = skillChatTools().filter((tool) => tool.name === TOOL_NAMES.readResource);
    const { text: report } = await this.converse(choice.model, toChatMessages(forkMessages(activationText, task)), { tools, maxRounds: MAX_FORK_ROUNDS }, (call) =>
      call.name === TOOL_NAMES.readResource ? this.invokeTool(call) : Promise.resolve(`Only ${TOOL_NAMES.readResource} is available in an isolated run.`),
    );
    this.stream.markdown('\n\n');
    return report;
  }
}

/** An invalid skill's message with its SKILL.md as a link that opens the file where the problem is. */
function withFileLink(message: string, record: SkillRecord): string {
  const problem = leadingProblem(record);
  const target = vscode.Uri.file(record.file).with({ fragment: problem ? `L${problem.range.start.line + 1}` : '' });
  return message.replace(`(${record.file})`, `([${escapeMarkdown(path.relative(record.root.path, record.file))}](${target.toString()}))`);
}
