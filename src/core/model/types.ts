// Shared data shapes of the skill engine. Pure data: no behaviour, no imports from the editor.

/** Zero-based position, as editors count (the CLI prints them one-based). */
export interface Position {
  line: number;
  column: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export type Severity = 'error' | 'warning' | 'info';

export interface SkillDiagnostic {
  /** Stable identifier, e.g. `name-mismatch`; used by quick fixes and tests. */
  code: string;
  severity: Severity;
  /** Says what is wrong and what to do about it. */
  message: string;
  /** Absolute path of the file the range refers to (usually the SKILL.md). */
  file: string;
  range: Range;
  /** For a finding about one target host: its id (`codex`, `claude-code`, …). */
  host?: string;
}

/** Where a skill root comes from; the order of this list is the precedence order. */
export type SkillSourceKind = 'workspace' | 'user' | 'env' | 'server' | 'builtin';

export interface SkillRoot {
  /** Absolute folder that holds skill folders (e.g. `/repo/.agent/skills`). */
  path: string;
  kind: SkillSourceKind;
  /** Human label for grouping, e.g. the workspace folder name, `User`, `AGENT_SKILLS_PATH`, `Built-in`. */
  label: string;
  /** Workspace skills of an untrusted workspace: listed by name only, never read into prompts. */
  untrusted?: boolean;
  /** Workspace roots: the workspace folder's name and the configured location, which make up the label. */
  folder?: string;
  location?: string;
  /** A sub-project's location (monorepo package): the package folder, `/`-separated, relative to the workspace folder. */
  package?: string;
  /** Skill server roots: the server's name in `agentSkills.servers` (the root's path is its cache folder). */
  server?: string;
  /** Something to say about the root itself, shown with the discovery problems (a skill server offline, or ignored). */
  notice?: RootNotice;
}

export interface RootNotice {
  code: string;
  severity: Severity;
  message: string;
}

/** The validated frontmatter fields the product uses. Only metadata: the body is never kept. */
export interface SkillMetadata {
  name: string;
  description: string;
  license?: string;
  compatibility?: string;
  metadata?: Record<string, string>;
  allowedTools?: string;
  argumentHint?: string;
  userInvocable: boolean;
  disableModelInvocation: boolean;
  context?: 'inline' | 'fork';
  model?: string;
}

export type SkillStatus = 'available' | 'active' | 'invalid' | 'not-allowed' | 'shadowed' | 'untrusted' | 'disabled';

export interface SkillRecord {
  /** The frontmatter name when it parsed, otherwise the folder name. Unique key within a root. */
  name: string;
  /** Absolute path of the skill folder as discovered (may be a symlink). */
  dir: string;
  /** Absolute path of the SKILL.md (its real case on disk). */
  file: string;
  /** Real path of the skill folder after resolving symlinks; the identity used to load it once. */
  realDir: string;
  root: SkillRoot;
  /** Present when the skill has a usable (possibly stale) version. */
  metadata?: SkillMetadata;
  diagnostics: SkillDiagnostic[];
  status: SkillStatus;
  /** For shadowed skills: the SKILL.md path of the skill that wins. */
  shadowedBy?: string;
  /** A skill server's skill: the URI of its SKILL.md on that server, which with the server names it there. */
  uri?: string;
  /** True when the file on disk is broken and `metadata` is the last valid version. */
  stale?: boolean;
  /**
   * The whole SKILL.md as last parsed valid in this process: the version served while the file on
   * disk is broken. Kept only by registries that serve skills (RegistryOptions.keepValidFiles).
   */
  lastValidFile?: Buffer;
  /** File modification time (ms) and size used to skip re-reading unchanged files. */
  mtimeMs: number;
  size: number;
}

/** A problem found while walking roots that belongs to no single skill (loops, dangling links). */
export interface DiscoveryProblem {
  code: string;
  severity: Severity;
  message: string;
  path: string;
  /** A skill server's problem: the server's name, which the view shows rather than the path of its cache. */
  server?: string;
}
