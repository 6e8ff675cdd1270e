// A source made readable on disk (a shallow clone or a site's verified skills in a temporary folder,
// or the folder itself) and the skills it holds, each with the name it installs under and where its
// SKILL.md is.

import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { findSkillFile, loadSkillFile, SKILL_FILE_NAME } from '../skill-file/load';
import { IGNORED_FOLDER_NAMES } from '../discovery/ignored-folders';
import { errorMessage, InputProblem } from '../util/errors';
import { resolveInside, skillNameProblem } from './confine';
import { cloneAt, type GitOptions } from './git';
import { fetchSite, NoSiteIndexError } from './site';
import { SourceError, sourceLabel, type SkillSource } from './source-spec';

/** How deep under the sub-path skills are looked for (e.g. `plugins/x/skills/name`). */
const MAX_SEARCH_DEPTH = 6;
const MAX_SEARCHED_FOLDERS = 10_000;

export interface SourceSkill {
  /** The name it installs under: its frontmatter name, else its folder's name (installable only when a valid skill name). */
  name: string;
  description?: string;
  /** Why the skill's SKILL.md does not load (it can still be looked at, not installed). */
  problem?: string;
  /** Absolute folder in the checkout. */
  folder: string;
  /** Its SKILL.md relative to the source's top, `/`-separated (the lock's `skillPath`). */
  skillPath: string;
  /** From a site: the digest its lock entry keeps (`wellKnownDigest`). */
  wellKnownDigest?: string;
}

export interface Checkout extends FetchedSource {
  source: SkillSource;
  skills: SourceSkill[];
}

/** A source on disk: its top folder and, for git, the commit checked out. */
export interface FetchedSource {
  root: string;
  commit?: string;
  /** A site's: the digest to lock for each skill written, by name (its folder's). */
  siteDigests?: ReadonlyMap<string, string>;
  /** Deletes the temporary clone or site copy, if any. */
  dispose(): Promise<void>;
}

/**
 * Fetches the source (git: a shallow clone into a temporary folder; a site: its verified skills
 * into one; a folder is used in place).
 */
export async function fetchSource(source: SkillSource, options: GitOptions = {}): Promise<FetchedSource> {
  if (source.kind === 'folder') {
    return { root: source.folder, dispose: async () => {} };
  }
  const temporary = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-skills-source-'));
  const dispose = (): Promise<void> => fs.rm(temporary, { recursive: true, force: true });
  try {
    const root = path.join(temporary, 'repo');
    if (source.kind === 'site') {
      await fs.mkdir(root);
      return { root, siteDigests: await fetchSite(source, root, options), dispose };
    }
    return { root, commit: await cloneAt(source.url, source.ref, root, options), dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}

/**
 * Fetches the source and lists the skills under its sub-path. A typed URL that is no site (it has
 * no discovery index) is cloned as git, and the checkout's source is then that git repository.
 */
export async function openSource(source: SkillSource, options: GitOptions = {}): Promise<Checkout> {
  let fetched: FetchedSource;
  try {
    fetched = await fetchSource(source, options);
  } catch (error) {
    if (source.kind === 'site' && source.gitFallback && error instanceof NoSiteIndexError) {
      return openSource(source.gitFallback, options).catch((gitError: unknown) => {
        throw gitError instanceof InputProblem && !options.signal?.aborted ? new SourceError(`${error.message} Read as a git repository instead: ${gitError.message}`) : gitError;
      });
    }
    throw error;
  }
  try {
    const skills = await skillsUnder(fetched.root, source);
    return { ...fetched, source, skills: skills.map((skill) => withSiteDigest(skill, fetched, source)) };
  } catch (error) {
    await fetched.dispose();
    throw error;
  }
}

/**
 * The skill in `folder` (`/`-separated, '' for the top) of a fetched source, undefined when it has
 * none. An OutsidePathError when the folder leads out of the source (`..`, absolute, a symbolic link).
 */
export async function skillAt(root: string, folder: string, label = root): Promise<SourceSkill | undefined> {
  const inside = await resolveInside(root, folder, 'the skill folder', label);
  return (await findSkillFile(inside)) ? describeSkill(inside, root, label) : undefined;
}

/**
 * A site's skill with the digest to lock for it; one whose SKILL.md names another skill than the
 * index does cannot be installed (the lock, and `npx skills`, know it by the index's name).
 */
export function withSiteDigest(skill: SourceSkill, fetched: FetchedSource, source: SkillSource): SourceSkill {
  if (!fetched.siteDigests) {
    return skill;
  }
  const listedAs = path.basename(skill.folder);
  const renamed = skill.name !== listedAs && skill.problem === undefined;
  return {
    ...skill,
    wellKnownDigest: fetched.siteDigests.get(listedAs),
    ...(renamed ? { problem: `its ${SKILL_FILE_NAME} names it "${skill.name}" where the index of ${sourceLabel(source)} lists it as "${listedAs}"` } : {}),
  };
}

async function skillsUnder(root: string, source: SkillSource): Promise<SourceSkill[]> {
  const base = await resolveInside(root, source.subPath, 'the sub-path', sourceLabel(source));
  const stat = await fs.stat(base).catch(() => undefined);
  if (!stat?.isDirectory()) {
    throw new SourceError(`${sourceLabel(source)} has no ${source.kind === 'site' ? 'skill' : 'folder'} "${source.subPath}".`);
  }
  const folders = await findSkillFolders(base);
  return Promise.all(folders.map((folder) => describeSkill(folder, root, sourceLabel(source))));
}

/**
 * The skill folders at or under `base` (a skill's own sub-folders are its resources, not more
 * skills), looking into at most `maxFolders` folders.
 */
export async function findSkillFolders(base: string, maxFolders = MAX_SEARCHED_FOLDERS): Promise<string[]> {
  const folders: string[] = [];
  let searched = 0;
  const search = async (folder: string, depth: number): Promise<void> => {
    if (++searched > maxFolders) {
      return;
    }
    if (await findSkillFile(folder)) {
      folders.push(folder);
      return;
    }
    if (depth >= MAX_SEARCH_DEPTH) {
      return;
    }
    const children = await fs.readdir(folder, { withFileTypes: true });
    for (const child of children.sort((a, b) => a.name.localeCompare(b.name))) {
      if (child.isDirectory() && !IGNORED_FOLDER_NAMES.has(child.name)) {
        await search(path.join(folder, child.name), depth + 1);
      }
    }
  };
  await search(base, 0);
  return folders;
}

/** The skill in `folder`; one whose SKILL.md is a link leading out of the source (`label`) is not read, only refused. */
async function describeSkill(folder: string, root: string, label: string): Promise<SourceSkill> {
  const found = (await findSkillFile(folder)) ?? path.join(folder, 'SKILL.md');
  const skillPath = path.relative(root, found).split(path.sep).join('/');
  const outside = await resolveInside(root, skillPath, 'its SKILL.md', label).then(
    () => undefined,
    (error: unknown) => errorMessage(error),
  );
  if (outside !== undefined) {
    return { name: path.basename(folder), problem: outside, folder, skillPath };
  }
  const loaded = await loadSkillFile(folder);
  const name = loaded?.metadata?.name ?? path.basename(folder);
  const error = loaded?.diagnostics.find((diagnostic) => diagnostic.severity === 'error');
  const problem = skillNameProblem(name) ?? (loaded?.metadata ? undefined : (error?.message ?? 'its SKILL.md does not load'));
  return { name, description: loaded?.metadata?.description, problem, folder, skillPath };
}
