// What the Skills view shows, decided from a registry snapshot: groups, item labels, icons,
// tooltips and the context flags that drive the item menus. Pure data, so the tree is a thin
// adapter and every rule here is unit-tested.

import * as path from 'node:path';
import type { Catalog } from '../use/catalog';
import { relativeInside } from '../util/paths';
import { writtenFields } from '../skill-file/schema';
import type { RegistrySnapshot } from '../discovery/registry';
import { collapseWhitespace, escapeMarkdown, plural } from '../util/text';
import type { DiscoveryProblem, Severity, SkillDiagnostic, SkillRecord, SkillRoot, SkillStatus } from '../model/types';
import { firstError, isDraft, isUsableStatus } from '../model/status';
import type { SkillDiagnosticCode } from '../skill-file/diagnostic-codes';
import { draftRefusal } from '../evals/draft-refusal';
import { groupingPath, pathInLocation } from '../discovery/grouping';
import { sourceNamer } from '../discovery/source-names';
import { SERVER_OFFLINE_CODE } from '../servers/server-config';

export type StatusGroupId = 'active' | 'available' | 'problems' | 'not-allowed' | 'shadowed' | 'untrusted';

/** A codicon id and an optional theme color id; the editor turns them into a ThemeIcon. */
export interface IconSpec {
  id: string;
  color?: string;
}

export interface SkillViewItem {
  kind: 'skill';
  /** Unique within the tree and stable across updates (keeps selection and expansion). */
  id: string;
  record: SkillRecord;
  label: string;
  description: string;
  icon: IconSpec;
  /** Markdown. Never includes text of an untrusted skill. */
  tooltip: string;
  /** Space-separated flags matched by the `viewItem` menu conditions. */
  contextValue: string;
}

export interface ProblemViewItem {
  kind: 'problem';
  id: string;
  problem: DiscoveryProblem;
  label: string;
  description: string;
  icon: IconSpec;
  tooltip: string;
  /** `problem`, and `reconnectable` for a skill server that cannot be reached (its row offers Reconnect). */
  contextValue: string;
}

export interface GroupViewItem {
  kind: 'group';
  id: string;
  label: string;
  description: string;
  icon: IconSpec;
  /** Markdown, when the row has more to say than its label and count (Available of a single source names it). */
  tooltip?: string;
  children: ViewItem[];
}

/** A clickable line that runs a command, e.g. managing Workspace Trust. */
export interface ActionViewItem {
  kind: 'action';
  id: string;
  label: string;
  description: string;
  icon: IconSpec;
  /** What clicking the line does; the editor maps it to its command. */
  action: ViewAction;
}

export type ViewItem = SkillViewItem | ProblemViewItem | GroupViewItem | ActionViewItem;

/** Actions a line of the view can offer. */
export type ViewAction = 'manageTrust';

export interface ViewPolicy {
  /** The allowlist in effect (`agentSkills.allowlist`). */
  allowlist: readonly string[];
  /** Skills installed from a source (skills-lock.json), by skill folder. */
  installed?: ReadonlyMap<string, InstalledMark>;
}

/** What the view says about a skill installed from a source. */
export interface InstalledMark {
  /** Where it came from, `owner/repo@abc1234`. */
  origin: string;
  /** Its folder no longer hashes to what was installed, and the project has not kept these edits. */
  edited: boolean;
  /** Edited, and the project keeps the edits (skills-lock.json): said in the tooltip, neither marked nor warned about. */
  editsKept?: boolean;
  /** Check for Updates found a newer version (its commit, abbreviated, when the source is git). */
  update?: { commit?: string };
  /** Under the project's skills-trust.json: who signed its pinned commit, or why it counts as unsigned. */
  signature?: { signer: string; key: string } | { unsigned: string };
}

const GROUP_LABELS: Record<StatusGroupId, string> = {
  active: 'Active',
  available: 'Available',
  problems: 'Problems',
  'not-allowed': 'Not allowed',
  shadowed: 'Shadowed',
  untrusted: 'Untrusted',
};

const GROUP_ICONS: Record<StatusGroupId, IconSpec> = {
  active: { id: 'zap', color: 'charts.green' },
  available: { id: 'library' },
  problems: { id: 'warning', color: 'list.warningForeground' },
  'not-allowed': { id: 'circle-slash' },
  shadowed: { id: 'eye-closed' },
  untrusted: { id: 'workspace-untrusted', color: 'list.warningForeground' },
};

const STATUS_GROUP: Record<Exclude<SkillStatus, 'disabled'>, StatusGroupId> = {
  active: 'active',
  available: 'available',
  invalid: 'problems',
  'not-allowed': 'not-allowed',
  shadowed: 'shadowed',
  untrusted: 'untrusted',
};

export const GROUP_ORDER: readonly StatusGroupId[] = ['active', 'available', 'problems', 'not-allowed', 'shadowed', 'untrusted'];

/** The icon telling a skill's status apart at a glance. */
export function skillIcon(record: SkillRecord, installed?: InstalledMark): IconSpec {
  if (record.stale || (isUsableStatus(record.status) && isDraft(record)) || installed?.edited) {
    return { id: 'warning', color: 'list.warningForeground' };
  }
  if (installed?.update && record.status === 'available') {
    return { id: 'arrow-circle-up', color: 'charts.blue' };
  }
  switch (record.status) {
    case 'active':
      return { id: 'zap', color: 'charts.green' };
    case 'available':
      return { id: 'book' };
    case 'invalid':
      return { id: 'error', color: 'list.errorForeground' };
    case 'not-allowed':
      return { id: 'circle-slash', color: 'disabledForeground' };
    case 'shadowed':
      return { id: 'eye-closed', color: 'disabledForeground' };
    case 'untrusted':
      return { id: 'workspace-untrusted', color: 'list.warningForeground' };
    case 'disabled':
      return { id: 'circle-large-outline', color: 'disabledForeground' };
  }
}

/** The first error (else warning) of a skill: why it is invalid or stale. */
export function mainProblem(record: SkillRecord): SkillDiagnostic | undefined {
  return firstError(record) ?? record.diagnostics.find((diagnostic) => diagnostic.severity === 'warning');
}

/** Shortens a path under the home folder to `~/…` for display. */
export function displayPath(file: string, homeDir?: string): string {
  if (homeDir) {
    const relative = relativeInside(homeDir, file);
    if (relative) {
      return `~${path.sep}${relative}`;
    }
  }
  return file;
}

/** How the view names sources: a shorter source label, and the source of the skill that wins over a shadowed one. */
export interface SourceNames {
  source: string;
  shadowedBy?: string;
}

/** `owner/repo@abc1234 · signed by alice@example.com · update abc1234 · edited`: an installed skill's origin and state. */
export function installedDescription(mark: InstalledMark): string {
  const update = mark.update ? `update ${mark.update.commit ?? 'available'}` : undefined;
  return [mark.origin, mark.signature && signatureWords(mark.signature), update, mark.edited ? 'edited' : undefined].filter((part) => part !== undefined).join(' · ');
}

function signatureWords(signature: NonNullable<InstalledMark['signature']>): string {
  return 'signer' in signature ? `signed by ${signature.signer}` : 'unsigned';
}

/**
 * A few words for each finding that can make a skill unusable or stale: a view 280 px wide shows
 * about a dozen characters after a skill's name, so the row leads with what is wrong, the tooltip
 * and the Problems panel say the rest.
 */
const SHORT_PROBLEMS: Partial<Record<SkillDiagnosticCode, string>> = {
  'skill-file-name': 'file not SKILL.md',
  'file-unreadable': 'unreadable',
  'file-too-large': 'file too large',
  'binary-file': 'not text',
  'invalid-utf8': 'not UTF-8',
  'missing-frontmatter': 'no frontmatter',
  'unterminated-frontmatter': 'no closing ---',
  'frontmatter-language': 'not YAML',
  'yaml-syntax': 'YAML error',
  'frontmatter-not-mapping': 'no fields',
  'frontmatter-cut': 'frontmatter cut',
  'flow-collection': 'flow-style YAML',
  'missing-name': 'no name',
  'name-too-long': 'name too long',
  'name-uppercase': 'name uppercase',
  'name-hyphen-edge': 'name hyphen',
  'name-consecutive-hyphens': 'name hyphens',
  'name-invalid-characters': 'name characters',
  'name-mismatch': 'name ≠ folder',
  'missing-description': 'no description',
  'description-too-long': 'description too long',
  'compatibility-too-long': 'compatibility too long',
  'empty-compatibility': 'empty compatibility',
  'field-type': 'field type',
  'unknown-field': 'unknown field',
  'extension-field': 'not in the spec',
  'served-entry': 'server entry',
};

/** What is wrong and where, in a few words: "YAML error, line 4". */
export function shortProblem(diagnostic: SkillDiagnostic): string {
  const what = SHORT_PROBLEMS[diagnostic.code as SkillDiagnosticCode] ?? diagnostic.severity;
  return `${what}, line ${diagnostic.range.start.line + 1}`;
}

/** The short text after the label. The Active group names no source: the room goes to the description. */
export function skillDescription(record: SkillRecord, homeDir?: string, names: SourceNames = { source: record.root.label }, installed?: InstalledMark): string {
  const problem = mainProblem(record);
  if (record.stale) {
    // Short enough to read whole in a narrow view; the tooltip and the Problems panel say the rest.
    return `stale: ${problem ? shortProblem(problem) : 'the file on disk is broken'}`;
  }
  switch (record.status) {
    case 'invalid':
      return problem ? shortProblem(problem) : 'invalid';
    case 'not-allowed':
      return 'not in agentSkills.allowlist';
    case 'shadowed':
      return `shadowed by ${names.shadowedBy ?? displayPath(record.shadowedBy ?? '', homeDir)}`;
    case 'untrusted':
      return `${names.source} (untrusted)`;
    default: {
      // The placeholder says nothing about the skill; what to do about it does.
      const own = isDraft(record) ? 'draft: write its description' : collapseWhitespace(record.metadata?.description ?? '');
      return installed ? `${installedDescription(installed)} — ${own}` : own;
    }
  }
}

const STATUS_WORDS: Record<SkillStatus, string> = {
  active: 'Active',
  available: 'Available',
  invalid: 'Invalid',
  'not-allowed': 'Not allowed in this workspace (agentSkills.allowlist)',
  shadowed: 'Shadowed',
  untrusted: 'Untrusted: the workspace is in Restricted Mode; its skills are listed by name only',
  disabled: 'Skills are turned off (agentSkills.enabled)',
};

/** Markdown tooltip: description, status, source and path, where it was installed from, then the fields. */
export function skillTooltip(record: SkillRecord, homeDir?: string, installed?: InstalledMark): string {
  const lines = [`**${escapeMarkdown(record.name)}**`, ''];
  if (record.status === 'untrusted') {
    // Nothing read from an untrusted skill may be shown as if it were safe; the name is all there is.
    lines.push(STATUS_WORDS.untrusted, '', `${escapeMarkdown(record.root.label)}: \`${displayPath(record.file, homeDir)}\``);
    return lines.join('\n');
  }
  if (record.metadata) {
    lines.push(escapeMarkdown(collapseWhitespace(record.metadata.description)), '');
  }
  lines.push(`*${escapeMarkdown(STATUS_WORDS[record.status])}${record.stale ? ' (stale: serving the last valid version)' : ''}*`, '');
  const invocation = invocationWords(record);
  if (invocation) {
    lines.push(invocation, '');
  }
  lines.push(skillPlace(record, homeDir));
  if (record.shadowedBy) {
    lines.push('', `Shadowed by \`${displayPath(record.shadowedBy, homeDir)}\``);
  }
  if (installed) {
    lines.push('', ...installedTooltipLines(installed));
  }
  const fields = tooltipFields(record);
  if (fields.length > 0) {
    lines.push('', ...fields.map(([field, value]) => `- \`${field}\`: ${escapeMarkdown(collapseWhitespace(value))}`));
  }
  const problems = record.diagnostics.filter((diagnostic) => diagnostic.severity !== 'info');
  if (problems.length > 0) {
    lines.push('', ...problems.map((diagnostic) => `- ${diagnostic.severity === 'error' ? '$(error)' : '$(warning)'} ${escapeMarkdown(collapseWhitespace(diagnostic.message))}`));
  }
  return lines.join('\n');
}

/** Where the skill is: its source and SKILL.md, or for a skill server's skill the server and the skill's URI there (never the cache). */
function skillPlace(record: SkillRecord, homeDir: string | undefined): string {
  if (record.root.kind === 'server') {
    const server = `Skill server "${escapeMarkdown(record.root.server ?? record.root.label)}"`;
    return record.uri === undefined ? server : `${server}: \`${record.uri}\``;
  }
  return `${escapeMarkdown(record.root.label)}: \`${displayPath(record.file, homeDir)}\``;
}

/** Who can start a skill, in words, when it is not both the model and `/use`. */
function invocationWords(record: SkillRecord): string | undefined {
  const hidden = record.metadata?.disableModelInvocation === true;
  const userInvocable = record.metadata?.userInvocable !== false;
  const name = escapeMarkdown(record.name);
  if (hidden && userInvocable) {
    return `Only you start it, with \`@skills /use ${record.name}\`: the model is not offered it (\`disable-model-invocation: true\`).`;
  }
  if (!hidden && !userInvocable) {
    return `Only the model loads it: \`/use\` refuses ${name} (\`user-invocable: false\`).`;
  }
  if (hidden && !userInvocable) {
    return 'Neither the model nor `/use` can start it (`disable-model-invocation: true` and `user-invocable: false`).';
  }
  return undefined;
}

/** A finding the Problems panel shows on one of a skill's files: its path in the folder (`/`-separated), zero-based line, severity and message. */
export interface FileFinding {
  file: string;
  line: number;
  severity: Severity;
  message: string;
}

const SEVERITY_ICONS: Record<Severity, string> = { error: '$(error)', warning: '$(warning)', info: '$(info)' };

/**
 * Escaped Markdown with no address a hover would turn into a link: a finding quotes the skill's own
 * text, which is not to be clicked, and an autolink would also keep the escape of a final period.
 */
function withoutLinks(markdown: string): string {
  return markdown.replace(/:\/\//g, '\\://');
}

/** The tooltip's lines on the audit's findings over a skill's files, each whole, with where it is. */
export function auditTooltipLines(findings: readonly FileFinding[]): string[] {
  if (findings.length === 0) {
    return [];
  }
  return [
    '',
    `**Audit**: ${findings.length === 1 ? '1 finding' : `${findings.length} findings`} (also in the Problems panel)`,
    '',
    ...findings.map((finding) => `- ${SEVERITY_ICONS[finding.severity]} ${withoutLinks(escapeMarkdown(collapseWhitespace(finding.message)))} (\`${finding.file}:${finding.line + 1}\`)`),
  ];
}

function installedTooltipLines(mark: InstalledMark): string[] {
  const lines = [`Installed from \`${mark.origin}\` (skills-lock.json)`];
  if (mark.signature) {
    lines.push(
      '',
      'signer' in mark.signature
        ? `$(verified) Signed by ${escapeMarkdown(mark.signature.signer)} (key \`${mark.signature.key}\`), as skills-trust.json requires.`
        : `Unsigned: ${escapeMarkdown(mark.signature.unsigned)}.`,
    );
  }
  if (mark.update) {
    lines.push('', `$(arrow-circle-up) A newer version is available${mark.update.commit ? ` (${mark.update.commit})` : ''}: Update Skill shows what changes.`);
  }
  if (mark.edited) {
    lines.push('', '$(warning) Edited since it was installed: Update Skill would replace the edits.');
  } else if (mark.editsKept) {
    lines.push('', 'Edited since it was installed; the project keeps the edits (skills-lock.json).');
  }
  return lines;
}

function tooltipFields(record: SkillRecord): [string, string][] {
  const metadata = record.metadata;
  if (!metadata) {
    return [];
  }
  return [
    ...writtenFields(metadata).map(({ field, value }): [string, string] => [field, value]),
    ...Object.entries(metadata.metadata ?? {}).map(([key, value]): [string, string] => [`metadata.${key}`, value]),
  ];
}

/** True when an allowlist entry names the skill exactly (so removing that entry disallows it). */
export function isListedByName(name: string, allowlist: readonly string[]): boolean {
  const key = name.toLowerCase();
  return allowlist.some((entry) => entry.trim().toLowerCase() === key);
}

/** The flags the item menus match: `skill`, `activatable`, `active`, `allowable`, `allowlisted`, `draftable`, `installed`, `outdated`, `edited`. */
/**
 * The words a row's context value is made of, which the menus of package.json match with
 * `viewItem =~ /\bWORD\b/` (a unit test holds the two together). `problem` and `outdated` only
 * say what a row is: no menu of the manifest reads them.
 */
export const VIEW_ITEM_FLAGS = {
  skill: 'skill',
  problem: 'problem',
  installed: 'installed',
  outdated: 'outdated',
  edited: 'edited',
  activatable: 'activatable',
  active: 'active',
  allowable: 'allowable',
  allowlisted: 'allowlisted',
  draftable: 'draftable',
  reconnectable: 'reconnectable',
} as const;

type ViewItemFlag = (typeof VIEW_ITEM_FLAGS)[keyof typeof VIEW_ITEM_FLAGS];

export function skillContextValue(record: SkillRecord, policy: ViewPolicy): string {
  const flags: ViewItemFlag[] = [VIEW_ITEM_FLAGS.skill];
  const installed = record.status === 'untrusted' ? undefined : policy.installed?.get(record.dir);
  if (installed) {
    flags.push(VIEW_ITEM_FLAGS.installed, ...(installed.update ? [VIEW_ITEM_FLAGS.outdated] : []), ...(installed.edited ? [VIEW_ITEM_FLAGS.edited] : []));
  }
  if (record.status === 'available' && record.metadata?.userInvocable !== false) {
    flags.push(VIEW_ITEM_FLAGS.activatable);
  }
  if (record.status === 'active') {
    flags.push(VIEW_ITEM_FLAGS.active);
  }
  // An empty allowlist allows everything, so "Allow" only exists for skills it filters out.
  if (record.status === 'not-allowed') {
    flags.push(VIEW_ITEM_FLAGS.allowable);
  }
  if (record.status !== 'untrusted' && isListedByName(record.name, policy.allowlist)) {
    flags.push(VIEW_ITEM_FLAGS.allowlisted);
  }
  if (draftRefusal(record) === undefined) {
    flags.push(VIEW_ITEM_FLAGS.draftable);
  }
  return flags.join(' ');
}

interface ItemContext {
  policy: ViewPolicy;
  homeDir?: string;
  sourceName(root: SkillRoot): string;
  /** The record of each SKILL.md, to name the source of a shadowed skill's winner. */
  recordOfFile: ReadonlyMap<string, SkillRecord>;
}

function skillItem(record: SkillRecord, groupId: string, context: ItemContext): SkillViewItem {
  const { policy, homeDir } = context;
  const winner = record.shadowedBy === undefined ? undefined : context.recordOfFile.get(record.shadowedBy);
  // Nothing is said of an untrusted skill but its name and place.
  const installed = record.status === 'untrusted' ? undefined : policy.installed?.get(record.dir);
  // Shadowed by a skill of the same location (in another grouping folder): its folder tells them apart.
  const winnerName = winner && (winner.root.path === record.root.path ? pathInLocation(winner) : context.sourceName(winner.root));
  return {
    kind: 'skill',
    id: `skill:${groupId}:${record.file}`,
    record,
    label: record.name,
    description: skillDescription(record, homeDir, { source: context.sourceName(record.root), ...(winnerName === undefined ? {} : { shadowedBy: winnerName }) }, installed),
    icon: skillIcon(record, installed),
    tooltip: skillTooltip(record, homeDir, installed),
    contextValue: skillContextValue(record, policy),
  };
}

function problemItem(problem: DiscoveryProblem, homeDir?: string): ProblemViewItem {
  const name = path.basename(problem.path);
  const message = escapeMarkdown(collapseWhitespace(problem.message));
  return {
    kind: 'problem',
    id: `problem:${problem.code}:${problem.path}`,
    problem,
    // A skill server's problem is named by its server (its path is the server's cache); a problem of
    // a SKILL.md by its skill folder, as the skill rows are.
    label: problem.server ?? (name.toLowerCase() === 'skill.md' ? path.basename(path.dirname(problem.path)) : name),
    description: collapseWhitespace(problem.message),
    icon: problem.severity === 'error' ? { id: 'error', color: 'list.errorForeground' } : problem.severity === 'warning' ? { id: 'warning', color: 'list.warningForeground' } : { id: 'info' },
    tooltip: problem.server === undefined ? `${message}\n\n\`${displayPath(problem.path, homeDir)}\`` : message,
    contextValue: problem.code === SERVER_OFFLINE_CODE ? `${VIEW_ITEM_FLAGS.problem} ${VIEW_ITEM_FLAGS.reconnectable}` : VIEW_ITEM_FLAGS.problem,
  };
}

function group(id: string, label: string, icon: IconSpec, children: ViewItem[]): GroupViewItem {
  return { kind: 'group', id, label, description: String(countSkills(children)), icon, children };
}

function countSkills(items: readonly ViewItem[]): number {
  return items.reduce((total, item) => total + (item.kind === 'group' ? countSkills(item.children) : item.kind === 'action' ? 0 : 1), 0);
}

/**
 * The top level of the view: Active, Available (one subgroup per source, in precedence order, or
 * the rows of its only source directly), Problems (invalid skills, then discovery problems), Not
 * allowed, Shadowed, Untrusted (led by a line that opens Workspace Trust). Empty groups are left out.
 */
export function buildSkillView(snapshot: RegistrySnapshot, policy: ViewPolicy, homeDir?: string): GroupViewItem[] {
  const members = new Map<StatusGroupId, SkillRecord[]>(GROUP_ORDER.map((id) => [id, []]));
  for (const record of snapshot.skills) {
    if (record.status !== 'disabled') {
      members.get(STATUS_GROUP[record.status])!.push(record);
    }
  }
  const context: ItemContext = { policy, homeDir, sourceName: sourceNamer(snapshot), recordOfFile: new Map(snapshot.skills.map((record) => [record.file, record])) };
  const groups: GroupViewItem[] = [];
  for (const id of GROUP_ORDER) {
    const records = members.get(id)!;
    if (id === 'available') {
      const available = availableGroup(records, context);
      if (available) {
        groups.push(available);
      }
      continue;
    }
    const children: ViewItem[] = records.map((record) => skillItem(record, id, context));
    if (id === 'problems') {
      children.push(...snapshot.problems.map((problem) => problemItem(problem, homeDir)));
    }
    if (id === 'untrusted' && children.length > 0) {
      // The view says why these skills are unusable and offers the way out.
      children.unshift({ kind: 'action', id: 'action:manage-trust', label: 'Trust this workspace to use its skills', description: '', icon: { id: 'shield' }, action: 'manageTrust' });
    }
    if (children.length > 0) {
      groups.push(group(`group:${id}`, GROUP_LABELS[id], GROUP_ICONS[id], children));
    }
  }
  return groups;
}

/**
 * Available: a row per source in precedence order, or with a single source its rows directly, the
 * source named on Available's row (as Source Control does with one repository). The rows keep their
 * ids either way, so VS Code keeps a grouping folder's expansion when a second source comes or goes;
 * and the view's first fetch reaches the skills one round trip sooner.
 */
function availableGroup(records: readonly SkillRecord[], context: ItemContext): GroupViewItem | undefined {
  const bySource = new Map<string, SkillRecord[]>();
  for (const record of records) {
    const sourceRecords = bySource.get(record.root.label);
    if (sourceRecords) {
      sourceRecords.push(record);
    } else {
      bySource.set(record.root.label, [record]);
    }
  }
  const sources = [...bySource].map(([label, sourceRecords]) => ({ id: `source:${label}`, records: sourceRecords }));
  if (sources.length === 0) {
    return undefined;
  }
  if (sources.length > 1) {
    const children = sources.map((source) => group(source.id, context.sourceName(source.records[0].root), sourceIcon(source.records[0]), sourceItems(source.records, source.id, context)));
    return group('group:available', GROUP_LABELS.available, GROUP_ICONS.available, children);
  }
  const [only] = sources;
  const available = group('group:available', GROUP_LABELS.available, GROUP_ICONS.available, sourceItems(only.records, only.id, context));
  const words = sourceWords(only.records[0].root, context.sourceName(only.records[0].root));
  return { ...available, description: `${available.description} · ${words}`, tooltip: singleSourceTooltip(only.records, words, context.homeDir) };
}

/** Words for the kinds of source, put before the source's own name unless they are that name. */
const SOURCE_KIND_WORDS: Record<SkillRoot['kind'], string> = { workspace: 'Workspace', user: 'User', env: 'AGENT_SKILLS_PATH', server: 'Skill server', builtin: 'Built-in' };

/** A source named with its kind: `Workspace · my-repo`, `Skill server · team`, `User`. */
function sourceWords(root: SkillRoot, name: string): string {
  const kind = SOURCE_KIND_WORDS[root.kind];
  return name === kind ? name : `${kind} · ${name}`;
}

/** Available's tooltip when its skills come from one source: which, and where (a server by name, never its cache). */
function singleSourceTooltip(records: readonly SkillRecord[], words: string, homeDir: string | undefined): string {
  const roots = [...new Map(records.map((record) => [record.root.path, record.root])).values()];
  const places = roots.map((root) => (root.kind === 'server' ? `Skill server "${escapeMarkdown(root.server ?? root.label)}"` : `\`${displayPath(root.path, homeDir)}\``));
  const notices = roots.flatMap((root) => (root.notice ? [`$(warning) ${escapeMarkdown(collapseWhitespace(root.notice.message))}`] : []));
  return [`**Available**: ${plural(records.length, 'skill')}, all from ${escapeMarkdown(words)}`, '', ...places.map((place) => `- ${place}`), ...(notices.length > 0 ? ['', ...notices] : [])].join(
    '\n',
  );
}

/**
 * The rows of one source: a row per grouping folder holding its skills (`shipping`, or
 * `tools/release` for nested ones), as folders come first in the Explorer, then the skills directly
 * in the location.
 */
function sourceItems(records: readonly SkillRecord[], sourceId: string, context: ItemContext): ViewItem[] {
  const direct: ViewItem[] = [];
  const byGrouping = new Map<string, SkillViewItem[]>();
  for (const record of records) {
    const item = skillItem(record, sourceId, context);
    const grouping = groupingPath(record);
    if (grouping === undefined) {
      direct.push(item);
    } else {
      const grouped = byGrouping.get(grouping);
      if (grouped) {
        grouped.push(item);
      } else {
        byGrouping.set(grouping, [item]);
      }
    }
  }
  const groupings = [...byGrouping.keys()].sort();
  return [...groupings.map((grouping) => group(`${sourceId}/${grouping}`, grouping, { id: 'folder' }, byGrouping.get(grouping)!)), ...direct];
}

function sourceIcon(record: SkillRecord): IconSpec {
  switch (record.root.kind) {
    case 'workspace':
      return { id: record.root.package === undefined ? 'root-folder' : 'package' };
    case 'user':
      return { id: 'account' };
    case 'env':
      return { id: 'symbol-variable' };
    case 'server':
      // A server that cannot be reached serves its skills from the cache; its group says so.
      return { id: record.root.notice ? 'debug-disconnect' : 'server' };
    case 'builtin':
      return { id: 'extensions' };
  }
}

export interface ViewBadge {
  value: number;
  tooltip: string;
}

/**
 * The view's badge: skills the model or the user can use right now. Its tooltip says how many of
 * them the model is offered, so the number never seems to disagree with the catalog.
 */
export function viewBadge(snapshot: RegistrySnapshot): ViewBadge | undefined {
  const allUsable = snapshot.skills.filter((record) => isUsableStatus(record.status));
  const usable = allUsable.filter((record) => !isDraft(record));
  if (usable.length === 0) {
    return undefined;
  }
  const drafts = allUsable.length - usable.length;
  const notCounted = drafts > 0 ? `; not counted: ${drafts} new ${drafts === 1 ? 'skill whose description is' : 'skills whose descriptions are'} still the placeholder` : '';
  const offered = usable.filter((record) => record.metadata?.disableModelInvocation !== true).length;
  const userOnly = usable.filter((record) => record.metadata?.disableModelInvocation === true && record.metadata.userInvocable !== false).length;
  const total = `${usable.length} ${usable.length === 1 ? 'skill' : 'skills'} available`;
  if (offered === usable.length) {
    return { value: usable.length, tooltip: `${total}, ${usable.length === 1 ? 'offered' : 'all offered'} to the model${notCounted}` };
  }
  const onlyByUse = userOnly > 0 ? `, ${userOnly} only through @skills /use` : '';
  return { value: usable.length, tooltip: `${total}: ${offered} offered to the model${onlyByUse}${notCounted}` };
}

/**
 * The line above the tree, when there is something the rows alone do not say: workspace skills
 * held back by Restricted Mode, and skills the catalog budget lists by name only (or not at all).
 */
export function viewMessage(snapshot: RegistrySnapshot, catalog: Pick<Catalog, 'included' | 'overflow' | 'unlisted'>): string | undefined {
  const parts: string[] = [];
  const untrusted = snapshot.skills.filter((record) => record.status === 'untrusted').length;
  if (untrusted > 0) {
    parts.push(`Restricted Mode: ${untrusted} workspace ${untrusted === 1 ? 'skill is' : 'skills are'} listed by name only and never given to a chat model.`);
  }
  if (catalog.overflow.length > 0) {
    const total = catalog.included.length + catalog.overflow.length;
    const unlisted = catalog.unlisted.length > 0 ? ` (${catalog.unlisted.length} not even by name: the model finds them with the find tool)` : '';
    parts.push(`The catalog budget fits ${catalog.included.length} of ${total} skills with their descriptions; the others are given to the model by name only${unlisted}. See Show Catalog.`);
  }
  return parts.length > 0 ? parts.join(' ') : undefined;
}
