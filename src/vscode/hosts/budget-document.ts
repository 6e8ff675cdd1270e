// "Skills: Show Budget": per target host, which skills its list gives in full, shortened, by name
// only or not at all at a chosen context size, with what each costs, as a Markdown preview of a
// read-only document that follows the skills and the targets while open.

import * as vscode from 'vscode';
import { DEFAULT_CONTEXT_TOKENS, hostListings } from '../../core/hosts/budget';
import { renderBudgetMarkdown } from '../../core/hosts/report';
import type { SkillsHost } from '../skills-host';
import type { HostTargets } from './host-targets';
import { Disposable } from '../disposable';

const SCHEME = 'agent-skills-budget';
export const BUDGET_URI = vscode.Uri.from({ scheme: SCHEME, path: '/Skill Budget.md' });

const CONTEXT_SIZES = [32_000, 128_000, 200_000, 400_000, 1_000_000];

export interface ShowBudgetArgs {
  /** The context size in tokens; without it, the user picks one. */
  contextTokens?: number;
}

export class BudgetDocument extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly changeEmitter = this.register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.changeEmitter.event;
  private contextTokens = DEFAULT_CONTEXT_TOKENS;

  constructor(
    private readonly host: SkillsHost,
    private readonly targets: HostTargets,
  ) {
    super();
    this.register(vscode.workspace.registerTextDocumentContentProvider(SCHEME, this));
    this.register(host.onDidChange(() => this.changeEmitter.fire(BUDGET_URI)));
    this.register(targets.onDidChange(() => this.changeEmitter.fire(BUDGET_URI)));
  }

  provideTextDocumentContent(): string {
    return renderBudgetMarkdown([...hostListings(this.host.snapshot.skills, this.targets.profiles, this.contextTokens).values()], this.contextTokens);
  }

  /** Asks for the context size (unless given), then shows the preview; returns the document's text, or undefined when cancelled. */
  async show(args: ShowBudgetArgs = {}): Promise<string | undefined> {
    const tokens = args.contextTokens ?? (await pickContextSize(this.contextTokens));
    if (tokens === undefined) {
      return undefined;
    }
    this.contextTokens = tokens;
    await this.host.whenIdle();
    this.changeEmitter.fire(BUDGET_URI);
    const document = await vscode.workspace.openTextDocument(BUDGET_URI);
    await vscode.commands.executeCommand('markdown.showPreview', BUDGET_URI);
    return document.getText() === this.provideTextDocumentContent() ? document.getText() : this.provideTextDocumentContent();
  }
}

async function pickContextSize(current: number): Promise<number | undefined> {
  const format = (tokens: number): string => `${tokens.toLocaleString('en-US')} tokens`;
  const items = CONTEXT_SIZES.map((tokens) => ({ label: format(tokens), tokens, picked: tokens === current, description: tokens === current ? 'current' : '' }));
  const picked = await vscode.window.showQuickPick(items, { title: 'Skills: Show Budget', placeHolder: "The model's context size, in tokens (hosts size their list of skills by it)" });
  return picked?.tokens;
}
