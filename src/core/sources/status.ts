// Compares each locked skill with its folder on disk (edited since install?) and with its source
// (is there a newer version?). A commit pin is compared by commit first (`git ls-remote`, no clone);
// a lock without a commit (as `npx skills` writes it) by the skill's content at the source's head.

import { errorMessage, InputProblem } from '../util/errors';
import { fetchSource, skillAt, withSiteDigest, type FetchedSource, type SourceSkill } from './checkout';
import { installedState, type InstalledState } from './drift';
import { computeFolderHash } from './folder-hash';
import { remoteCommit, type GitOptions } from './git';
import { describeSkillPath, entrySource, followedRef, pinnedCommit, type LockEntry } from './lock';
import { findInstalled } from './install';
import { withoutCredentials } from '../util/redact';
import { lockedSignatureState, type SignatureState } from './signatures';
import { FULL_COMMIT, sourceLabel, type SkillSource } from './source-spec';
import type { TrustPolicy } from './trust-policy';

/** `pinned`: the lock names a commit and nothing else to follow; `gone`: the source no longer has the skill. */
export type SourceState = 'current' | 'outdated' | 'pinned' | 'gone' | 'unreachable';

export interface SkillCheck {
  name: string;
  entry: LockEntry;
  /** The installed folder, when found. */
  folder?: string;
  installed: InstalledState;
  source: SourceState;
  /** The commit the source's followed ref names now, when known. */
  latestCommit?: string;
  /** Why the source could not be compared. */
  problem?: string;
  /** What the trust policy says of its pinned commit, when it was checked. */
  signature?: SignatureState;
}

/** Fetches each source at most once per ref while a command runs, and cleans up the clones. */
export class SourceFetcher {
  private readonly fetched = new Map<string, Promise<FetchedSource>>();

  constructor(private readonly options: GitOptions = {}) {}

  fetch(source: SkillSource): Promise<FetchedSource> {
    const key = source.kind === 'git' ? `git\n${source.url}\n${source.ref ?? ''}` : source.kind === 'site' ? `site\n${source.url}\n${source.subPath}` : `folder\n${source.folder}`;
    let fetched = this.fetched.get(key);
    if (!fetched) {
      fetched = fetchSource(source, this.options);
      this.fetched.set(key, fetched);
    }
    return fetched;
  }

  async dispose(): Promise<void> {
    const all = await Promise.allSettled(this.fetched.values());
    await Promise.all(all.map((result) => (result.status === 'fulfilled' ? result.value.dispose() : undefined)));
    this.fetched.clear();
  }
}

export interface CheckContext {
  projectDir: string;
  /** The project's trust policy: given, each skill's signature is checked under it too. */
  trust?: TrustPolicy;
  /** The folder skills are installed in (`--to`); else found among the project's locations. */
  parent?: string;
  fetcher: SourceFetcher;
  git?: GitOptions;
}

export async function checkLockedSkill(name: string, entry: LockEntry, context: CheckContext): Promise<SkillCheck> {
  let base: Pick<SkillCheck, 'name' | 'entry' | 'folder' | 'installed'>;
  try {
    const folder = await findInstalled(context.projectDir, name, context.parent);
    base = { name, entry, folder, installed: await installedState(entry, folder) };
  } catch (error) {
    // A folder that cannot be looked at (a key that is no skill name, a link leading out) is not compared.
    if (!(error instanceof InputProblem)) {
      throw error;
    }
    return { name, entry, installed: 'missing', source: 'unreachable', problem: errorMessage(error) };
  }
  const signature = context.trust && (await lockedSignatureState(name, entry, context.projectDir, context.trust, (source) => context.fetcher.fetch(source), context.git));
  try {
    return { ...base, ...(await sourceState(name, entry, context)), ...(signature && { signature }) };
  } catch (error) {
    return { ...base, source: 'unreachable', problem: errorMessage(error), ...(signature && { signature }) };
  }
}

async function sourceState(name: string, entry: LockEntry, context: CheckContext): Promise<Pick<SkillCheck, 'source' | 'latestCommit' | 'problem'>> {
  const source = entrySource(entry, context.projectDir, name);
  if (typeof source === 'string') {
    return { source: 'unreachable', problem: `cannot be checked: ${source}` };
  }
  const followed = followedRef(entry);
  if (followed !== undefined && FULL_COMMIT.test(followed)) {
    return { source: 'pinned', latestCommit: followed };
  }
  const pinned = pinnedCommit(entry);
  if (source.kind === 'git' && pinned !== undefined) {
    const head = await remoteCommit(source.url, followed ?? 'HEAD', context.git);
    if (head === undefined) {
      return { source: 'unreachable', problem: `${withoutCredentials(source.url)} has no branch or tag "${followed}" any more` };
    }
    if (head === pinned) {
      return { source: 'current', latestCommit: head };
    }
  }
  const latest = await latestSkill(source, context.fetcher);
  if (!latest.skill) {
    return { source: 'gone', latestCommit: latest.commit };
  }
  const changed = (await computeFolderHash(latest.skill.folder)) !== entry.computedHash;
  return { source: changed ? 'outdated' : 'current', latestCommit: latest.commit };
}

/** The skill as its source has it now (at the ref the entry follows, in the folder its skillPath names); `source` is the entry's, from entrySource. */
export async function latestSkill(source: SkillSource, fetcher: SourceFetcher): Promise<{ skill?: SourceSkill; commit?: string; root: string }> {
  const fetched = await fetcher.fetch(source);
  const skill = await skillAt(fetched.root, source.subPath, sourceLabel(source));
  return { skill: skill && withSiteDigest(skill, fetched, source), commit: fetched.commit, root: fetched.root };
}

/** Why the source's version of the skill cannot be installed (no longer there, or broken), or undefined when it can. */
export function latestSkillProblem(entry: LockEntry, source: SkillSource, skill: SourceSkill | undefined): string | undefined {
  if (skill && skill.problem === undefined) {
    return undefined;
  }
  return `${sourceLabel(source)} ${skill ? `has a broken ${describeSkillPath(entry)}: ${skill.problem}` : `no longer has ${describeSkillPath(entry)}`}`;
}
