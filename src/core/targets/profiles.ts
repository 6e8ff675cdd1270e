// What each host that reads SKILL.md does with a skill: the folders it reads, the fields it
// honours, its limits, how it budgets the list of skills and how a skill is invoked. One table;
// every fact carries the source it was read from and the date it was checked. Where no source says,
// the fact is `unknown` rather than guessed, and no check is made from it.

export const TARGET_IDS = ['vscode', 'copilot-cli', 'claude-code', 'codex', 'gemini-cli', 'cursor', 'opencode'] as const;

export type TargetId = (typeof TARGET_IDS)[number];

/** A fact about a host, with where it was read and when it was checked (YYYY-MM-DD). */
export interface Fact<Value> {
  value: Value;
  source: string;
  checked: string;
}

export interface TargetFields {
  /** Frontmatter fields the host reads and acts on. */
  honoured: readonly string[];
  /** What happens to any other field: skipped silently, skipped with a warning of the host's own, or not documented. */
  others: 'ignored' | 'ignored-with-warning' | 'unknown';
}

export interface TargetLimits {
  nameChars?: number;
  descriptionChars?: number;
  /** What the host does with a longer name or description. */
  overLimit: 'truncated' | 'rejected' | 'unknown';
}

/**
 * How the host fits its list of skills into the prompt. `share`: a share of the context window
 * (in characters, at about four per token), or `fallbackChars` when the window is unknown; past it
 * the host drops descriptions (`name-only`) or shortens them all first and then omits skills
 * (`shorten-then-omit`). `none`: every skill is listed in full. `unknown`: not documented.
 */
export type BudgetRule =
  { kind: 'share'; contextPercent: number; fallbackChars: number; descriptionChars?: number; overflow: 'name-only' | 'shorten-then-omit'; order?: string } | { kind: 'none' } | { kind: 'unknown' };

export interface TargetProfile {
  id: TargetId;
  name: string;
  /** Project folders, relative to the project (or repository) root. */
  projectFolders: Fact<readonly string[]>;
  /** User folders, `~` for the home folder. */
  userFolders: Fact<readonly string[]>;
  fields: Fact<TargetFields>;
  limits: Fact<TargetLimits>;
  budget: Fact<BudgetRule>;
  invocation: Fact<string>;
  /**
   * The project folder named after the host (`.claude` for Claude Code), when the host reads skills
   * under it: only such a folder shows that a project uses the host (see defaultTargetIds).
   */
  ownFolder?: string;
}

const CHECKED = '2026-11-26';

const VSCODE_BUNDLE = 'https://github.com/microsoft/vscode/tree/1.139.1 (workbench of VS Code 1.139.1 as shipped in code-server 4.139.1: prompt-file locations and findAgentSkills)';
const COPILOT_DOCS = 'https://docs.github.com/en/copilot/how-tos/copilot-cli/customize-copilot/add-skills';
const CLAUDE_DOCS = 'https://code.claude.com/docs/en/skills';
const CLAUDE_BUDGET = 'https://claudefa.st/blog/guide/mechanics/skill-listing-budget (settings skillListingBudgetFraction and skillListingMaxDescChars of Claude Code 2.1.129)';
const CODEX_DOCS = 'https://developers.openai.com/codex/skills.md';
const CODEX_LOADER = 'https://github.com/openai/codex/blob/f793618e7b4d32961d4891b75550dcaced1f033b/codex-rs/core/src/skills/loader.rs';
const GEMINI_DOCS = 'https://geminicli.com/docs/cli/using-agent-skills.md';
const GEMINI_SKILLS = 'https://raw.githubusercontent.com/google-gemini/gemini-cli/main/docs/cli/skills.md';
const GEMINI_LOADER = 'https://github.com/google-gemini/gemini-cli/blob/ecab169ecc9516459af584e284781027d7a1be4c/packages/core/src/skills/skillLoader.ts';
const CURSOR_DOCS = 'https://www.cursor.com/docs/context/skills';
const CURSOR_FOLDERS = 'https://effective-cursor.vercel.app/en/skills';
const CURSOR_FIELDS = 'https://syllago.dev/using-syllago/providers/cursor/skills/';
const OPENCODE_DOCS = 'https://opencode.ai/v1/docs/skills.md';

function fact<Value>(value: Value, source: string, checked = CHECKED): Fact<Value> {
  return { value, source, checked };
}

const UNKNOWN_BUDGET: BudgetRule = { kind: 'unknown' };

export const TARGET_PROFILES: readonly TargetProfile[] = [
  {
    id: 'vscode',
    name: 'VS Code',
    projectFolders: fact(['.agents/skills', '.github/skills', '.claude/skills'], VSCODE_BUNDLE),
    userFolders: fact(['~/.agents/skills', '~/.copilot/skills', '~/.claude/skills'], VSCODE_BUNDLE),
    fields: fact(
      { honoured: ['name', 'description', 'license', 'compatibility', 'metadata', 'argument-hint', 'user-invocable', 'disable-model-invocation', 'context'], others: 'ignored-with-warning' },
      VSCODE_BUNDLE,
    ),
    limits: fact({ nameChars: 64, descriptionChars: 1024, overLimit: 'truncated' }, VSCODE_BUNDLE),
    budget: fact(UNKNOWN_BUDGET, VSCODE_BUNDLE),
    invocation: fact('`/skill-name` in agent mode, or the model loads it by its description (chat.useAgentSkills)', VSCODE_BUNDLE),
  },
  {
    id: 'copilot-cli',
    name: 'Copilot CLI',
    projectFolders: fact(['.github/skills', '.claude/skills', '.agents/skills'], COPILOT_DOCS),
    userFolders: fact(['~/.copilot/skills', '~/.claude/skills', '~/.agents/skills'], COPILOT_DOCS),
    fields: fact({ honoured: ['name', 'description', 'license'], others: 'unknown' }, COPILOT_DOCS),
    limits: fact({ overLimit: 'unknown' }, COPILOT_DOCS),
    budget: fact(UNKNOWN_BUDGET, COPILOT_DOCS),
    invocation: fact('`/skill-name` in a prompt, or the model loads it by its description; `/skills list`', COPILOT_DOCS),
  },
  {
    id: 'claude-code',
    ownFolder: '.claude',
    name: 'Claude Code',
    projectFolders: fact(['.claude/skills'], CLAUDE_DOCS),
    userFolders: fact(['~/.claude/skills'], CLAUDE_DOCS),
    fields: fact(
      {
        honoured: [
          'name',
          'description',
          'when_to_use',
          'argument-hint',
          'disable-model-invocation',
          'user-invocable',
          'allowed-tools',
          'model',
          'effort',
          'context',
          'agent',
          'hooks',
          'paths',
          'shell',
        ],
        others: 'unknown',
      },
      CLAUDE_DOCS,
    ),
    limits: fact({ descriptionChars: 1536, overLimit: 'truncated' }, CLAUDE_BUDGET),
    budget: fact({ kind: 'share', contextPercent: 1, fallbackChars: 8000, descriptionChars: 1536, overflow: 'name-only', order: 'the skills used most keep their descriptions' }, CLAUDE_BUDGET),
    invocation: fact('`/skill-name`, or the model calls its Skill tool by the description', CLAUDE_DOCS),
  },
  {
    id: 'codex',
    name: 'Codex',
    projectFolders: fact(['.agents/skills'], CODEX_DOCS),
    userFolders: fact(['~/.agents/skills', '~/.codex/skills'], CODEX_DOCS),
    fields: fact({ honoured: ['name', 'description', 'metadata'], others: 'ignored' }, CODEX_LOADER),
    limits: fact({ nameChars: 64, descriptionChars: 1024, overLimit: 'rejected' }, CODEX_LOADER),
    budget: fact({ kind: 'share', contextPercent: 2, fallbackChars: 8000, overflow: 'shorten-then-omit' }, CODEX_DOCS),
    invocation: fact('`$skill-name` or `/skills` in the prompt, or implicitly by its description', CODEX_DOCS),
  },
  {
    id: 'gemini-cli',
    ownFolder: '.gemini',
    name: 'Gemini CLI',
    projectFolders: fact(['.gemini/skills', '.agents/skills'], GEMINI_DOCS),
    userFolders: fact(['~/.gemini/skills', '~/.agents/skills'], GEMINI_DOCS),
    fields: fact({ honoured: ['name', 'description'], others: 'ignored' }, GEMINI_LOADER),
    limits: fact({ overLimit: 'unknown' }, GEMINI_LOADER),
    budget: fact({ kind: 'none' }, GEMINI_SKILLS),
    invocation: fact('the model calls `activate_skill` and you confirm; `/skills list`', GEMINI_SKILLS),
  },
  {
    id: 'cursor',
    ownFolder: '.cursor',
    name: 'Cursor',
    projectFolders: fact(['.cursor/skills', '.claude/skills', '.codex/skills'], CURSOR_FOLDERS),
    userFolders: fact(['~/.cursor/skills', '~/.claude/skills', '~/.codex/skills'], CURSOR_FOLDERS),
    fields: fact({ honoured: ['name', 'description', 'license', 'compatibility', 'metadata', 'disable-model-invocation'], others: 'unknown' }, CURSOR_FIELDS),
    limits: fact({ overLimit: 'unknown' }, CURSOR_DOCS),
    budget: fact(UNKNOWN_BUDGET, CURSOR_DOCS),
    invocation: fact('`/skill-name` in Agent chat, or the agent picks it by its description', CURSOR_DOCS),
  },
  {
    id: 'opencode',
    ownFolder: '.opencode',
    name: 'OpenCode',
    projectFolders: fact(['.opencode/skills', '.claude/skills', '.agents/skills'], OPENCODE_DOCS),
    userFolders: fact(['~/.config/opencode/skills', '~/.claude/skills', '~/.agents/skills'], OPENCODE_DOCS),
    fields: fact({ honoured: ['name', 'description', 'license', 'compatibility', 'metadata'], others: 'ignored' }, OPENCODE_DOCS),
    limits: fact({ overLimit: 'unknown' }, OPENCODE_DOCS),
    budget: fact(UNKNOWN_BUDGET, OPENCODE_DOCS),
    invocation: fact('the model calls its `skill` tool by the description', OPENCODE_DOCS),
  },
];

const BY_ID = new Map<string, TargetProfile>(TARGET_PROFILES.map((profile) => [profile.id, profile]));

export function targetProfile(id: string): TargetProfile | undefined {
  return BY_ID.get(id);
}

export function isTargetId(id: string): id is TargetId {
  return BY_ID.has(id);
}

/** The hosts that read and act on a field, by name (e.g. for "allowed-tools": Claude Code). */
export function targetsHonouring(field: string): TargetProfile[] {
  return TARGET_PROFILES.filter((profile) => profile.fields.value.honoured.includes(field));
}

/** Whether a host is known to skip a field (it honours others and says what it does with the rest). */
export function targetIgnores(profile: TargetProfile, field: string): boolean {
  return profile.fields.value.others !== 'unknown' && !profile.fields.value.honoured.includes(field);
}

/** Host ids from repeated and comma-separated values (`--target codex,cursor --target vscode`), in order, once each. */
/** `agentSkills.targets` as the editor and the command line read it: its texts, or undefined when it is not a list (unset). */
export function targetIdsSetting(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string' && entry.trim() !== '') : undefined;
}

export function parseTargetIds(values: readonly string[]): { ids: TargetId[]; unknown: string[] } {
  const ids: TargetId[] = [];
  const unknown: string[] = [];
  for (const value of values.flatMap((entry) => entry.split(','))) {
    const id = value.trim();
    if (id === '') {
      continue;
    }
    if (!isTargetId(id)) {
      unknown.push(id);
    } else if (!ids.includes(id)) {
      ids.push(id);
    }
  }
  return { ids, unknown };
}

/**
 * The hosts checked when `targets` is unset: VS Code, plus each host whose own folder holds a skills
 * folder it reads in the project (`.claude/skills`: Claude Code). Folders several hosts share with
 * VS Code (`.github/skills`, `.agents/skills`) say nothing about which other host a project uses:
 * VS Code's own chat reads them, so they would make every skill kept elsewhere warn for hosts nobody
 * asked about.
 */
export function defaultTargetIds(projectHasFolder: (relative: string) => boolean): TargetId[] {
  const used = TARGET_PROFILES.filter((profile) => {
    const own = profile.ownFolder;
    return own !== undefined && profile.projectFolders.value.some((folder) => folder.startsWith(`${own}/`) && projectHasFolder(folder));
  });
  return ['vscode', ...used.map((profile) => profile.id)];
}
