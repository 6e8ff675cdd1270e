// What a SOURCE argument names: a git repository (URL, local clone, or GitHub `owner/repo`) or a
// plain folder, with an optional `#ref` and a sub-path inside it.
//
//   https://host/team/skills.git#v2:tools     git URL, tag v2, skills under tools/
//   git@host:team/skills.git                  scp-like ssh URL
//   file:///srv/skills.git#main               local bare repository by URL
//   ../skills-repo#:skills/pdf                a local clone (default branch), one sub-folder
//   ./shared/skills                           a plain folder (no history: no commit to pin)
//   team/skills/skills/pdf#v2                 GitHub shorthand with a sub-path and a ref
//   https://github.com/team/skills/tree/main/skills/pdf   a GitHub page URL
//   https://skills.example.com/team           a site publishing the Agent Skills discovery index
//
// Git forbids `:` in ref names, so `#REF:SUBPATH` is never ambiguous. An http(s) URL without a ref,
// `.git` or credentials, not on GitHub or GitLab, may be either a site or a git repository: it is
// read as a site when it has a discovery index, else cloned (see SiteSource.gitFallback).
//
// Sources a lock names pass the same checks (checkedGitUrl, checkedRef, normalizedRelativePath):
// git is only ever given a URL of a transport listed in GIT_PROTOCOLS, and a user name or password in
// a URL is used to fetch but never stored or shown (util/redact's withoutCredentials, hideCredentials).

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { InputProblem } from '../util/errors';
import { withoutCredentials } from '../util/redact';
import { normalizedRelativePath } from './confine';

export interface GitSource {
  kind: 'git';
  /** What git clones: may hold the user name and password typed with it, so it is never stored or shown as it is. */
  url: string;
  /** Branch, tag or commit asked for; undefined for the remote's default branch. */
  ref?: string;
  /** Folder inside the repository to look for skills in, `/`-separated, '' for the whole repository. */
  subPath: string;
  /** The lock's `source`: `owner/repo` for GitHub, else the URL without credentials. */
  lockSource: string;
}

export interface FolderSource {
  kind: 'folder';
  /** Absolute folder. */
  folder: string;
  subPath: string;
}

/** A web site publishing the Agent Skills discovery index (`/.well-known/agent-skills/index.json`). */
export interface SiteSource {
  kind: 'site';
  /** The site's base URL (checkedSiteUrl): https, or http on this machine; no credentials, query or trailing slash. */
  url: string;
  /** '' for every skill of the site; a skill's name for that skill alone (a lock entry's source). */
  subPath: string;
  /** The lock's `source`: the site's host, as `npx skills` writes it. */
  lockSource: string;
  /** The same URL as a git repository, cloned when the site has no discovery index (a typed URL only). */
  gitFallback?: GitSource;
}

export type SkillSource = GitSource | FolderSource | SiteSource;

export class SourceError extends InputProblem {}

/**
 * The transports git may use, those SOURCE accepts: every git call runs with exactly these allowed
 * (GIT_ALLOW_PROTOCOL), whatever the user's git configuration says, so `ext::` or `fd::` never run.
 */
export const GIT_PROTOCOLS: readonly string[] = ['file', 'git', 'http', 'https', 'ssh'];

const URL_SCHEME = /^(?:https?|ssh|git|file):\/\//i;
const SCP_LIKE = /^([\w.-]+)@([\w.-]+):(?!\/\/)/;
// eslint-disable-next-line no-control-regex -- control characters are exactly what a URL must not hold
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;
const GITHUB_SHORTHAND = /^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)((?:\/[^/]+)*)\/?$/;
const GITHUB_PAGE = /^https:\/\/github\.com\/([^/]+)\/([^/]+?)(?:\.git)?\/tree\/([^/]+)((?:\/[^/]+)*)\/?$/;
export const FULL_COMMIT = /^[0-9a-f]{40}$/;
/** What may be a commit's abbreviation (git shows 7 characters, and accepts 4 or more). */
export const ABBREVIATED_COMMIT = /^[0-9a-f]{4,39}$/;

/** Parses SOURCE as typed; relative paths are against `cwd`. Throws SourceError naming the problem. */
export function parseSource(text: string, cwd: string): SkillSource {
  const source = text.trim();
  if (source === '' || source.startsWith('-')) {
    throw new SourceError(`"${text}" is not a source: give a git URL, a local folder or repository, or owner/repo.`);
  }
  const hash = source.indexOf('#');
  const base = hash < 0 ? source : source.slice(0, hash);
  const [fragmentRef, fragmentPath = ''] = hash < 0 ? [''] : splitFragment(source.slice(hash + 1));
  const ref = fragmentRef === '' ? undefined : checkedRef(fragmentRef, text);
  const page = GITHUB_PAGE.exec(base);
  if (page) {
    const [, owner, repo, pageRef, pagePath] = page;
    return gitHub(owner, repo, ref ?? pageRef, joinSubPath(pagePath, fragmentPath, text));
  }
  if (URL_SCHEME.test(base) || SCP_LIKE.test(base)) {
    const url = checkedGitUrl(base.replace(/\/$/, ''));
    const shown = withoutCredentials(url);
    const git: GitSource = { kind: 'git', url, ref, subPath: checkedSubPath(fragmentPath, text), lockSource: gitHubShorthandOf(shown) ?? shown };
    return (hash < 0 && possibleSite(url, git)) || git;
  }
  const local = localPath(base, cwd);
  if (local) {
    const subPath = checkedSubPath(fragmentPath, text);
    if (isGitRepository(local)) {
      const url = pathToFileURL(local).href;
      return { kind: 'git', url, ref, subPath, lockSource: url };
    }
    if (ref !== undefined) {
      throw new SourceError(`${base} is a folder, not a git repository: it has no ref "${ref}" to check out.`);
    }
    return { kind: 'folder', folder: local, subPath };
  }
  const shorthand = GITHUB_SHORTHAND.exec(base);
  if (shorthand) {
    const [, owner, repo, rest] = shorthand;
    return gitHub(owner, repo.replace(/\.git$/, ''), ref, joinSubPath(rest, fragmentPath, text));
  }
  throw new SourceError(`"${text}" is not a source: no such folder, and not a git URL (https://, ssh://, git@host:, file://) or owner/repo.`);
}

/**
 * `url` when git may fetch it as a source: a URL of a transport of GIT_PROTOCOLS or scp-like
 * `user@host:path`, holding nothing git could take for an option (a host or user starting with `-`)
 * or for another transport (`ext::…`). Throws a SourceError naming it otherwise. Sources typed and
 * sources read from a lock both pass here before git sees them.
 */
export function checkedGitUrl(url: string): string {
  const refused = (): SourceError => new SourceError(`"${withoutCredentials(url)}" is not a git URL this tool fetches (https://, http://, ssh://, git://, file:// or user@host:path).`);
  if (CONTROL_CHARACTER.test(url)) {
    throw refused();
  }
  const scp = SCP_LIKE.exec(url);
  if (scp) {
    if (scp[1].startsWith('-') || scp[2].startsWith('-')) {
      throw refused();
    }
    return url;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw refused();
  }
  if (!URL_SCHEME.test(url) || parsed.hostname.startsWith('-') || decodeURIComponent(parsed.username).startsWith('-')) {
    throw refused();
  }
  return url;
}

/** The short name of a source for people: `owner/repo` on GitHub, else the URL or folder. */
export function sourceLabel(source: SkillSource): string {
  switch (source.kind) {
    case 'git':
      return source.lockSource;
    case 'site':
      return source.url;
    case 'folder':
      return source.folder;
  }
}

/** Hosts whose http(s) URLs are git repositories, never sites (as `npx skills` reads them). */
const GIT_HOSTS: ReadonlySet<string> = new Set(['github.com', 'gitlab.com']);

/**
 * The site a typed URL may name, trying `git` when it has no index; undefined when the URL can only
 * be git: it ends in `.git`, is on a git host, holds credentials or a query, or is http:// beyond
 * this machine (sites are read over https, or http on a loopback address).
 */
function possibleSite(url: string, git: GitSource): SiteSource | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const gitOnly =
    !/^https?:$/.test(parsed.protocol) ||
    parsed.username !== '' ||
    parsed.password !== '' ||
    parsed.search !== '' ||
    /\.git\/?$/i.test(parsed.pathname) ||
    GIT_HOSTS.has(parsed.hostname.replace(/^www\./, '')) ||
    (parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname));
  return gitOnly ? undefined : { kind: 'site', url: checkedSiteUrl(url), subPath: '', lockSource: siteLockSource(parsed), gitFallback: git };
}

/**
 * `url` as the base URL of a skills site (origin and path, no trailing slash): https, or http on a
 * loopback address only (what crosses a network unencrypted could be swapped on the way, digests
 * included); no user name or password, query or fragment. Throws a SourceError naming the problem.
 */
export function checkedSiteUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SourceError(`"${withoutCredentials(url)}" is not a URL.`);
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw new SourceError(`${withoutCredentials(url)}: a skills site is read without a user name or password.`);
  }
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname))) {
    throw new SourceError(`${url}: a skills site is read over https://, or http:// on this machine only (localhost, 127.0.0.1, [::1]).`);
  }
  if (parsed.search !== '' || parsed.hash !== '') {
    throw new SourceError(`${url}: a skills site's URL has no query or fragment.`);
  }
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
}

/** The lock's `source` for a site: its host name without `www.`, as `npx skills` writes it. */
function siteLockSource(url: URL): string {
  return url.hostname.replace(/^www\./, '');
}

/** Whether `hostname` (as `URL` gives it) names this machine. */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname.endsWith('.localhost') || hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

function gitHub(owner: string, repo: string, ref: string | undefined, subPath: string): GitSource {
  return { kind: 'git', url: `https://github.com/${owner}/${repo}.git`, ref, subPath, lockSource: `${owner}/${repo}` };
}

function gitHubShorthandOf(url: string): string | undefined {
  const match = /^https:\/\/github\.com\/([^/]+)\/([^/]+?)(?:\.git)?$/.exec(url);
  return match ? `${match[1]}/${match[2]}` : undefined;
}

function splitFragment(fragment: string): [string, string] {
  const colon = fragment.indexOf(':');
  return colon < 0 ? [fragment, ''] : [fragment.slice(0, colon), fragment.slice(colon + 1)];
}

/**
 * Refs are passed to git as arguments: nothing that could read as an option or a range. Throws a
 * SourceError otherwise, quoting the source `text` the ref came with when there is one.
 */
export function checkedRef(ref: string, text?: string): string {
  if (ref.startsWith('-') || /[\s~^?*[\\]|\.\./.test(ref)) {
    throw new SourceError(`${text === undefined ? '' : `"${text}": `}"${ref}" is not a branch, tag or commit name.`);
  }
  return ref;
}

function joinSubPath(urlPath: string, fragmentPath: string, text: string): string {
  return checkedSubPath([urlPath.replace(/^\//, ''), fragmentPath].filter((part) => part !== '').join('/'), text);
}

function checkedSubPath(subPath: string, text: string): string {
  const normalized = normalizedRelativePath(subPath);
  if (normalized === undefined) {
    throw new SourceError(`"${text}": the sub-path "${subPath}" must stay inside the source.`);
  }
  return normalized;
}

/** An existing local folder the text names, or undefined when it reads as something else. */
function localPath(text: string, cwd: string): string | undefined {
  const expanded = text === '~' || text.startsWith('~/') ? path.join(os.homedir(), text.slice(1)) : text;
  const resolved = path.resolve(cwd, expanded);
  const looksLocal = /^(?:\.{1,2}(?:[\\/]|$)|[\\/~]|[A-Za-z]:[\\/])/.test(text);
  let isFolder = false;
  try {
    isFolder = fs.statSync(resolved).isDirectory();
  } catch {
    if (looksLocal) {
      throw new SourceError(`${text}: no such folder.`);
    }
  }
  if (!isFolder && looksLocal) {
    throw new SourceError(`${text}: not a folder.`);
  }
  return isFolder ? resolved : undefined;
}

/** A working tree (with `.git`) or a bare repository (HEAD, objects and refs at its top). */
function isGitRepository(folder: string): boolean {
  const has = (name: string): boolean => fs.existsSync(path.join(folder, name));
  return has('.git') || (has('HEAD') && has('objects') && has('refs'));
}
