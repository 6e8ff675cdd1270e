// Per-host warnings: about the project, a skill folder the host does not read (one finding for
// all the skills there); about one skill, a field it ignores and where its list of skills cuts
// this one at the chosen context size. Warnings only, each naming the host; only facts the
// profiles know are checked (an `unknown` fact says nothing).

import * as fs from 'node:fs';
import * as path from 'node:path';
import { OPENING_FENCE_RANGE, makeDiagnostic } from '../skill-file/diagnostic-codes';
import { locateFrontmatterFields } from '../skill-file/frontmatter-locator';
import { writtenFields } from '../skill-file/schema';
import { targetIgnores, type TargetProfile } from './profiles';
import type { TargetListing, ListingState } from './budget';
import type { Range, SkillDiagnostic, SkillRecord, SkillRoot } from '../model/types';

export interface TargetCheckContext {
  targets: readonly TargetProfile[];
  /** Each target's listing of the whole project at the chosen context size, by host id. */
  listings: ReadonlyMap<string, TargetListing>;
  /** The user's home folder, to tell user locations (`~/…`) from project ones. */
  homeDir?: string;
  /**
   * Checking from inside VS Code with this extension: it offers every location it reads to VS
   * Code's chat, so VS Code's own folder rules do not hide a skill (and its field rules apply only
   * to skills in VS Code's own folders).
   */
  servedInVsCode?: boolean;
  /** Where a frontmatter field is in the file; the opening `---` when not given or not found. */
  fieldRange?: (field: string) => Range | undefined;
}

/**
 * The folder a skill's location is, as hosts name theirs: `.agent/skills` for a project location,
 * `~/.agent/skills` under the home folder; undefined for the built-in skills and locations that
 * are neither (no host reads those by convention).
 */
export function targetLocationOf(record: Pick<SkillRecord, 'root'>, homeDir?: string): string | undefined {
  const known = rootLocations.get(record.root);
  if (known && known.homeDir === homeDir) {
    return known.location;
  }
  const location = rootLocation(record.root, homeDir);
  rootLocations.set(record.root, { homeDir, location });
  return location;
}

/** Each root's location as last worked out, and for which home folder: every skill of a root asks, for every host. */
const rootLocations = new WeakMap<SkillRoot, { homeDir: string | undefined; location: string | undefined }>();

function rootLocation(root: SkillRoot, homeDir: string | undefined): string | undefined {
  if (root.kind === 'builtin' || root.kind === 'server') {
    return undefined;
  }
  if (root.location !== undefined) {
    return toPosix(path.normalize(root.location)).replace(/\/$/, '');
  }
  if (homeDir && isInside(homeDir, root.path)) {
    return `~/${toPosix(path.relative(homeDir, root.path))}`;
  }
  // A folder given on the command line: its last two segments when they look like a host folder (`.claude/skills`).
  const parts = toPosix(path.normalize(root.path)).split('/').filter(Boolean);
  const folder = parts.slice(-2).join('/');
  return parts.length >= 2 && parts[parts.length - 2].startsWith('.') ? folder : undefined;
}

/** The host folder a skill location matches, or undefined when the host does not read it. */
export function targetReads(host: TargetProfile, location: string): boolean {
  const folders = location.startsWith('~/') ? host.userFolders.value : host.projectFolders.value;
  return folders.includes(location);
}

/** The fields present that change what a host does, each as written (`context: fork`). */
function behaviourFields(record: SkillRecord): [field: string, shown: string][] {
  const metadata = record.metadata;
  if (!metadata) {
    return [];
  }
  return writtenFields(metadata).flatMap(({ field, value, hostWarning }): [string, string][] => (hostWarning === undefined ? [] : [[field, hostWarning === 'name' ? field : `${field}: ${value}`]]));
}

const CUT_WORDS: Partial<Record<ListingState, string>> = {
  shortened: 'with a shortened description',
  'name-only': 'by name only',
  dropped: 'not at all',
};

/** A skill folder of the project that a target host does not read, and the skills in it. */
export interface TargetFolderFinding {
  host: TargetProfile;
  /** The folder as hosts name theirs (`.agent/skills`, `~/.agent/skills`). */
  location: string;
  /** The folder itself, absolute. */
  folder: string;
  skills: SkillRecord[];
  message: string;
}

/** The folder a skill sits in, as hosts name it, when `host` does not read it (VS Code reads every folder the extension serves it). */
function unreadFolder(host: TargetProfile, record: SkillRecord, context: Pick<TargetCheckContext, 'homeDir' | 'servedInVsCode'>): string | undefined {
  if (host.id === 'vscode' && context.servedInVsCode) {
    return undefined;
  }
  const location = targetLocationOf(record, context.homeDir);
  return location === undefined || targetReads(host, location) ? undefined : location;
}

/** The folder `record` counts in a folder finding of `host` for: a parsed, trusted skill's folder the host does not read. */
export function unreadFolderFinding(host: TargetProfile, record: SkillRecord, context: Pick<TargetCheckContext, 'homeDir' | 'servedInVsCode'>): string | undefined {
  return record.metadata && record.status !== 'untrusted' ? unreadFolder(host, record, context) : undefined;
}

/**
 * The project's skill folders each target host does not read: one finding per host and folder,
 * however many skills are in it (skills with an error, which no host uses, aside).
 */
export function targetFolderFindings(records: readonly SkillRecord[], context: Pick<TargetCheckContext, 'targets' | 'homeDir' | 'servedInVsCode'>): TargetFolderFinding[] {
  const findings = new Map<string, TargetFolderFinding>();
  for (const host of context.targets) {
    for (const record of records) {
      const location = unreadFolderFinding(host, record, context);
      if (location === undefined) {
        continue;
      }
      const key = `${host.id}\0${record.root.path}`;
      const finding = findings.get(key) ?? { host, location, folder: record.root.path, skills: [], message: '' };
      finding.skills.push(record);
      findings.set(key, finding);
    }
  }
  for (const finding of findings.values()) {
    const { host, location, skills } = finding;
    const folders = location.startsWith('~/') ? host.userFolders.value : host.projectFolders.value;
    const invisible = skills.length === 1 ? `the skill there (${skills[0].name}) is invisible to it` : `the ${skills.length.toLocaleString('en-US')} skills there are invisible to it`;
    finding.message = `${host.name} reads ${listCode(folders)}, not \`${location}\`: ${invisible}.`;
  }
  return [...findings.values()];
}

/** A skill's warnings for the target hosts that read its folder (see targetFolderFindings for the others). */
export function checkSkillForTargets(record: SkillRecord, context: TargetCheckContext): SkillDiagnostic[] {
  const diagnostics: SkillDiagnostic[] = [];
  const range = (field: string): Range => context.fieldRange?.(field) ?? OPENING_FENCE_RANGE;
  const warn = (code: 'host-ignores-field' | 'host-budget', host: TargetProfile, message: string, at: Range): void => {
    diagnostics.push({ ...makeDiagnostic(record.file, code, 'warning', message, at), host: host.id });
  };
  for (const host of context.targets) {
    if (unreadFolder(host, record, context) !== undefined) {
      continue;
    }
    for (const [field, shown] of behaviourFields(record)) {
      if (targetIgnores(host, field)) {
        warn('host-ignores-field', host, `${host.name} ignores \`${shown}\`.`, range(field));
      }
    }
    const listing = context.listings.get(host.id);
    const listed = listing && listedEntry(listing, record.name);
    const cut = listed && CUT_WORDS[listed.state];
    if (listing && cut) {
      const count = listing.skills.length;
      warn(
        'host-budget',
        host,
        `With this project's ${count.toLocaleString('en-US')} ${count === 1 ? 'skill' : 'skills'}, ${host.name} lists this one ${cut} at a ${listing.contextTokens.toLocaleString('en-US')}-token context.`,
        range('description'),
      );
    }
  }
  return diagnostics;
}

/**
 * Where each name's first entry is in a listing, made once per listing: every skill of a project
 * looks itself up in it. Listings of the same names in the same order share one (sameNamesAs).
 */
const namePositions = new WeakMap<TargetListing, Map<string, number>>();

/** A listing's entry for a name (the first of that name), if it lists the name. */
export function listedEntry(listing: TargetListing, name: string): TargetListing['skills'][number] | undefined {
  let positions = namePositions.get(listing);
  if (!positions) {
    positions = new Map();
    listing.skills.forEach((skill, position) => {
      if (!positions!.has(skill.name)) {
        positions!.set(skill.name, position);
      }
    });
    namePositions.set(listing, positions);
  }
  const position = positions.get(name);
  return position === undefined ? undefined : listing.skills[position];
}

/** Tells the lookups that `listing` lists the same names in the same order as `earlier`, so its positions need not be made again. */
export function sameNamesAs(listing: TargetListing, earlier: TargetListing): void {
  const positions = namePositions.get(earlier);
  if (positions && !namePositions.has(listing)) {
    namePositions.set(listing, positions);
  }
}

function listCode(folders: readonly string[]): string {
  const quoted = folders.map((folder) => `\`${folder}\``);
  return quoted.length <= 1 ? (quoted[0] ?? 'no folder') : `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
}

function toPosix(text: string): string {
  return text.split(path.sep).join('/');
}

function isInside(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

/** Where each frontmatter key of a SKILL.md's text is, for `TargetCheckContext.fieldRange`. */
export function fieldKeyRanges(text: string): (field: string) => Range | undefined {
  const lines = text.split(/\r?\n/);
  const closing = lines.findIndex((line, index) => index > 0 && line.trimEnd() === '---');
  const locations = locateFrontmatterFields(closing > 0 ? lines.slice(0, closing) : []);
  return (field) => locations.get(field)?.key;
}

/**
 * Key positions of each SKILL.md on disk, for TargetWarningsContext.fieldRanges: a file is read
 * again only when its record says it changed. A file gone since its record puts the warnings on the
 * opening fence until it is back.
 */
export function diskFieldRanges(): (record: Pick<SkillRecord, 'file' | 'mtimeMs'>) => (field: string) => Range | undefined {
  const known = new Map<string, { mtimeMs: number; find: (field: string) => Range | undefined }>();
  return (record) => {
    const cached = known.get(record.file);
    if (cached?.mtimeMs === record.mtimeMs) {
      return cached.find;
    }
    let text = '';
    try {
      text = fs.readFileSync(record.file, 'utf8');
    } catch {
      // Gone: no key is found.
    }
    const find = fieldKeyRanges(text);
    known.set(record.file, { mtimeMs: record.mtimeMs, find });
    return find;
  };
}
