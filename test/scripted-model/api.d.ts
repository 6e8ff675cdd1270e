// The API the scripted model extension returns from activate(); integration tests reach it through
// `vscode.extensions.getExtension('agentskills-test.scripted-model').exports`.

export interface ScriptedToolCall {
  readonly name: string;
  readonly input?: object;
  /** Defaults to `call-<request index>-<position>`. */
  readonly callId?: string;
}

/** One answer of the model. Text is streamed first (one part per array item), then tool calls. */
export interface ScriptedAnswer {
  readonly text?: string | readonly string[];
  readonly toolCalls?: readonly ScriptedToolCall[];
  /** Throw instead of answering; a `code` makes it a `vscode.LanguageModelError` of that kind. */
  readonly error?: string | { readonly message: string; readonly code?: 'NoPermissions' | 'Blocked' | 'NotFound' };
  /** Wait this long before answering (a cancelled request stops waiting and answers nothing). */
  readonly delayMs?: number;
}

/** A fixed answer, or one computed from the request (e.g. to answer with the tool it was offered). */
export type ScriptedResponder = ScriptedAnswer | ((request: RecordedRequest) => ScriptedAnswer | Promise<ScriptedAnswer>);

export type RecordedPart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'toolCall'; readonly callId: string; readonly name: string; readonly input: unknown }
  | { readonly kind: 'toolResult'; readonly callId: string; readonly text: string }
  | { readonly kind: 'other'; readonly description: string };

export interface RecordedMessage {
  readonly role: 'user' | 'assistant' | 'system' | string;
  readonly name: string | undefined;
  readonly parts: readonly RecordedPart[];
  /** The text and tool-result parts joined. */
  readonly text: string;
}

export interface RecordedRequest {
  /** Position among all requests since activation or the last reset(). */
  readonly index: number;
  /** Which of the scripted models received the request (see `ScriptedModelApi.models`). */
  readonly modelId: string;
  readonly family: string;
  readonly messages: readonly RecordedMessage[];
  readonly tools: readonly { readonly name: string; readonly description: string; readonly inputSchema: object | undefined }[];
  readonly toolMode: 'auto' | 'required';
  readonly modelOptions: Readonly<Record<string, unknown>>;
  /** The extension that sent the request, where VS Code tells it. */
  readonly requestInitiator: string | undefined;
  /** True when the request was cancelled before the model answered. */
  readonly cancelled: boolean;
  /** What the model answered (undefined while it is still deciding). */
  readonly answer: ScriptedAnswer | undefined;
}

/** One rule of `answerByRules`: what the model does when one of its keywords is in the user's query. */
export interface ScriptedRule {
  /** Matched case-insensitively anywhere in the query (the last user message made of text). */
  readonly keywords: readonly string[];
  /** Calls the activation tool with this skill name. */
  readonly activate?: string;
  /** Calls the find tool with the query first, and activates after its result comes back. */
  readonly findFirst?: boolean;
  /** Acts only in this share of requests, by a coin seeded with the rule set's seed, the query and how often it was asked. */
  readonly probability?: number;
  /** Fails instead of answering. */
  readonly error?: ScriptedAnswer['error'];
  /** The text answer when the rule activates nothing. */
  readonly text?: string;
}

export interface ScriptedRuleSet {
  /** The first rule with a keyword in the query decides. */
  readonly rules: readonly ScriptedRule[];
  /** The text answer when no rule matches (or its coin says no); a default names the query. */
  readonly otherwise?: string;
  readonly seed?: number;
  /** Every answer waits this long (cancellation stops the wait). */
  readonly delayMs?: number;
}

export interface ScriptedModelInfo {
  readonly id: string;
  readonly name: string;
  readonly family: string;
}

export interface ScriptedModelApi {
  /** The vendor to select the model with: `vscode.lm.selectChatModels({ vendor })`. */
  readonly vendor: string;
  /** The model the chat view selects by default (`Scripted Model`, family `scripted`). */
  readonly modelId: string;
  readonly family: string;
  /**
   * Every model the extension registers, the default one first; the others (`Scripted Mini`, family
   * `scripted-mini`) are only used when asked for by id or family. All share the queue of answers
   * and the record of requests, whose `modelId` tells them apart.
   */
  readonly models: readonly ScriptedModelInfo[];
  /** Answers for the next requests, used in order. */
  queueAnswers(...answers: ScriptedResponder[]): void;
  /** The answer when the queue is empty; `undefined` restores the echo of the last user message. */
  setDefaultAnswer(answer: ScriptedResponder | undefined): void;
  /** Makes the default answer decide by rule, like a model choosing a skill from the catalog. */
  answerByRules(ruleSet: ScriptedRuleSet): void;
  pendingAnswers(): number;
  requests(): RecordedRequest[];
  /** Resolves once `count` requests in total have been received, or rejects after the timeout. */
  waitForRequests(count: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  /** Changes the limits every scripted model announces (e.g. a small input window for budget tests). */
  setModelLimits(limits: { maxInputTokens?: number; maxOutputTokens?: number }): void;
  /** Forgets queued answers, recorded requests and the default answer. */
  reset(): void;
}
