// "Skills: Show Budget": per target host, which skills its list gives in full, shortened, by name
// only or not at all at a chosen context size, with what each costs, as a Markdown preview of a
// read-only document that follows the skills and the targets while open.

import * as vscode from 'vscode';
import { DEFAULT_CONTEXT_TOKENS, targetListings } from '../../core/targets/budget';
import { renderBudgetMarkdown } from '../../core/targets/report';
import type { SkillsHost } from '../skills/types';
import type { ActiveTargets } from './active-targets';
import { Disposable } from '../shared/disposable';
import type { ReportPreviews } from '../shared/report-preview';

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
    private readonly targets: ActiveTargets,
    private readonly previews: ReportPreviews,
  ) {
    super();
    this.register(vscode.workspace.registerTextDocumentContentProvider(SCHEME, this));
    this.register(host.onDidChange(() => this.changeEmitter.fire(BUDGET_URI)));
    this.register(targets.onDidChange(() => this.changeEmitter.fire(BUDGET_URI)));
  }

  provideTextDocumentContent(): string {
    return renderBudgetMarkdown([...targetListings(this.host.snapshot.skills, this.targets.profiles, this.contextTokens).values()], this.contextTokens);
  }

  /** Asks for the context size (unless given), then shows the preview; returns the document's text, or undefined when cancelled. */
  async show(args: ShowBudgetArgs = {}): Promise<string | undefined> {
    const tokens = args.contextTokens ?? (await pickContextSize(this.contextTokens));
    if (tokens === undefined) {
      return undefined;
    }
    this.contextTokens = tokens;
    await this.host.whenIdle();
    const text = this.provideTextDocumentContent();
    await this.previews.show(BUDGET_URI, text, () => this.changeEmitter.fire(BUDGET_URI));
    return text;
  }
}

async function pickContextSize(current: number): Promise<number | undefined> {
  const format = (tokens: number): string => `${tokens.toLocaleString('en-US')} tokens`;
  const items = CONTEXT_SIZES.map((tokens) => ({ label: format(tokens), tokens, description: tokens === current ? 'current' : '' }));
  const pick = vscode.window.createQuickPick<(typeof items)[number]>();
  pick.title = 'Skills: Show Budget';
  pick.placeholder = "The model's context size, in tokens (targets size their list of skills by it)";
  pick.items = items;
  try {
    return await new Promise<number | undefined>((resolve) => {
      pick.onDidAccept(() => resolve(pick.selectedItems[0]?.tokens));
      pick.onDidHide(() => resolve(undefined));
      pick.show();
      // The value marked current is the focused one, so Enter keeps it.
      pick.activeItems = items.filter((item) => item.tokens === current);
    });
  } finally {
    pick.dispose();
  }
}
