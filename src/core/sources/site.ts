// A skills site as a source: its discovery index (0.2.0 first, then the legacy one), then each
// skill's artifact, checked before anything of it is written: the digest the index gives, the
// size (what the server says and what it sends), the archive's entries (site/archive.ts). Only the
// site's own origin is read: a redirect or an artifact URL to another host is refused. Every
// request has a time limit and can be cancelled; every body a size limit. The verified skills are
// written to a folder of ours (`NAME/…` per skill), which the source's skills are then read from.

import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { ArchiveError, describeBytes, type ArchiveFile } from '../site/archive';
import { artifactDigest, INDEX_FILE_NAME, INDEX_FOLDER, LEGACY_INDEX_FOLDER, legacySkillDigest, parseIndex, SITE_LIMITS, type IndexEntry, type LegacyIndexEntry } from '../site/discovery-index';
import { readTarGz } from '../site/tar';
import { readZip } from '../site/zip';
import { SKILL_FILE_NAME } from '../skill-file/load';
import { mapWithConcurrency } from '../util/async';
import { errorMessage, InputProblem } from '../util/errors';
import { resolveInside } from './confine';
import type { SiteSource } from './source-spec';

/** A site that cannot be read, or serves something that does not match its index. */
export class SiteError extends InputProblem {}

/** The site has no discovery index at all (both well-known paths answer 404). */
export class NoSiteIndexError extends SiteError {}

export interface SiteOptions {
  signal?: AbortSignal;
}

const MAX_INDEX_BYTES = 4 * 1024 * 1024;
/** What one fetch of a site may download at most, all skills together. */
const MAX_SITE_BYTES = 256 * 1024 * 1024;
const REQUEST_TIMEOUT_MS = 60_000;
const MAX_REDIRECTS = 5;
const DOWNLOAD_CONCURRENCY = 4;
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
const MISSING_STATUSES: ReadonlySet<number> = new Set([404, 410]);

/** The skills written, by name: the digest to lock for each (the index's, or for a legacy index the one `npx skills` computes). */
export type SiteDigests = ReadonlyMap<string, string>;

/**
 * Reads the site's index and writes each of its skills (only `source.subPath` when it names one)
 * into `folder/NAME`, each verified first. A NoSiteIndexError when the site has no index.
 */
export async function fetchSite(source: SiteSource, folder: string, options: SiteOptions = {}): Promise<SiteDigests> {
  const reader = new SiteReader(source.url, options);
  const index = await reader.index();
  const wanted = <T extends { name: string }>(skills: readonly T[]): T[] => skills.filter((skill) => source.subPath === '' || skill.name === source.subPath);
  const fetched =
    index.format === 'discovery'
      ? await mapWithConcurrency(wanted(index.skills), DOWNLOAD_CONCURRENCY, async (entry) => ({ name: entry.name, digest: entry.digest, files: await reader.artifact(entry, index.url) }))
      : await mapWithConcurrency(wanted(index.skills), DOWNLOAD_CONCURRENCY, async (entry) => {
          const files = await reader.legacyFiles(entry, index.url);
          return { name: entry.name, digest: legacySkillDigest(new Map(files.map((file) => [file.path, file.bytes]))), files };
        });
  const digests = new Map<string, string>();
  for (const skill of fetched) {
    const skillFolder = await resolveInside(folder, skill.name, 'the skill folder');
    for (const file of skill.files) {
      const target = await resolveInside(skillFolder, file.path, `the file of "${skill.name}"`);
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.writeFile(target, file.bytes, { flag: 'wx' });
    }
    digests.set(skill.name, skill.digest);
  }
  return digests;
}

type LocatedIndex = { url: URL } & ({ format: 'discovery'; skills: IndexEntry[] } | { format: 'legacy'; skills: LegacyIndexEntry[] });

/** One site's reads: same origin only, bounded in size and time, cancelled with the signal. */
class SiteReader {
  private readonly base: URL;
  private downloaded = 0;

  constructor(
    private readonly siteUrl: string,
    private readonly options: SiteOptions,
  ) {
    this.base = new URL(`${siteUrl}/`);
  }

  /** The first index of the site, in the order `npx skills` looks for them. */
  async index(): Promise<LocatedIndex> {
    for (const folder of [INDEX_FOLDER, LEGACY_INDEX_FOLDER]) {
      const url = new URL(`${folder}/${INDEX_FILE_NAME}`, this.base);
      const bytes = await this.download(url, MAX_INDEX_BYTES, 'its index');
      if (bytes !== undefined) {
        return { url, ...parseIndex(bytes.toString('utf8'), url.href) };
      }
    }
    throw new NoSiteIndexError(`${this.siteUrl} publishes no skills: neither ${INDEX_FOLDER}/${INDEX_FILE_NAME} nor ${LEGACY_INDEX_FOLDER}/${INDEX_FILE_NAME} is there.`);
  }

  /** A 0.2.0 entry's artifact, its digest checked, unpacked when an archive. */
  async artifact(entry: IndexEntry, indexUrl: URL): Promise<ArchiveFile[]> {
    const url = this.ownUrl(entry.url, indexUrl, entry.name);
    const bytes = await this.required(url, SITE_LIMITS.bytes, `the artifact of "${entry.name}"`);
    const digest = artifactDigest(bytes);
    if (digest !== entry.digest) {
      throw new SiteError(`${url.href}: its digest is ${digest} where the index says ${entry.digest}; "${entry.name}" is refused (the file was changed after the index was written, or on its way).`);
    }
    if (entry.type === 'skill-md') {
      return [{ path: SKILL_FILE_NAME, bytes }];
    }
    try {
      return readArchive(bytes);
    } catch (error) {
      throw error instanceof ArchiveError ? new SiteError(`${url.href}: the archive of "${entry.name}" is refused: ${error.message}`) : error;
    }
  }

  /** A legacy entry's files (which no digest covers), within the same limits as an archive. */
  async legacyFiles(entry: LegacyIndexEntry, indexUrl: URL): Promise<ArchiveFile[]> {
    const skillUrl = new URL(`${entry.name}/`, indexUrl);
    let total = 0;
    const files: ArchiveFile[] = [];
    for (const file of entry.files) {
      const url = new URL(file.split('/').map(encodeURIComponent).join('/'), skillUrl);
      const bytes = await this.required(url, SITE_LIMITS.bytes - total, `"${file}" of "${entry.name}"`);
      total += bytes.length;
      files.push({ path: file, bytes });
    }
    return files;
  }

  /** `url` resolved against the index, refused when it is on another origin. */
  private ownUrl(url: string, indexUrl: URL, name: string): URL {
    let resolved: URL;
    try {
      resolved = new URL(url, indexUrl);
    } catch {
      throw new SiteError(`${indexUrl.href}: the url ${JSON.stringify(url)} of "${name}" is not a URL.`);
    }
    if (resolved.origin !== this.base.origin || resolved.username !== '' || resolved.password !== '') {
      throw new SiteError(`${indexUrl.href}: "${name}" is served from ${resolved.origin}, not from ${this.base.origin}; only the site's own files are read.`);
    }
    return resolved;
  }

  private async required(url: URL, maxBytes: number, what: string): Promise<Buffer> {
    const bytes = await this.download(url, maxBytes, what);
    if (bytes === undefined) {
      throw new SiteError(`${url.href}: not found (404), though the index lists it.`);
    }
    return bytes;
  }

  /** The body at `url` (redirects on the same origin followed), or undefined for 404 and 410. */
  private async download(url: URL, maxBytes: number, what: string): Promise<Buffer | undefined> {
    let current = url;
    for (let redirects = 0; ; redirects++) {
      const response = await this.request(current);
      if (REDIRECT_STATUSES.has(response.status)) {
        await response.body?.cancel();
        const next = redirectTarget(response, current);
        if (next.origin !== this.base.origin || next.username !== '' || next.password !== '') {
          throw new SiteError(`${current.href}: redirects to ${next.origin}, another host; only the site's own files are read.`);
        }
        if (redirects >= MAX_REDIRECTS) {
          throw new SiteError(`${url.href}: more than ${MAX_REDIRECTS} redirects.`);
        }
        current = next;
        continue;
      }
      if (MISSING_STATUSES.has(response.status)) {
        await response.body?.cancel();
        return undefined;
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new SiteError(`${current.href}: the server answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}.`);
      }
      return this.body(response, current, maxBytes, what);
    }
  }

  private async request(url: URL): Promise<Response> {
    const signals = [AbortSignal.timeout(REQUEST_TIMEOUT_MS), ...(this.options.signal ? [this.options.signal] : [])];
    try {
      // Without compression: the digest is of the bytes as published, and no encoding can inflate past the limits.
      return await fetch(url, { redirect: 'manual', signal: AbortSignal.any(signals), headers: { 'accept-encoding': 'identity' } });
    } catch (error) {
      throw this.failure(url, error);
    }
  }

  /**
   * Reads the body, stopping as soon as it passes `maxBytes` or the site's total, whatever the
   * server said its length was.
   */
  private async body(response: Response, url: URL, maxBytes: number, what: string): Promise<Buffer> {
    const tooLarge = (size: number): SiteError | undefined =>
      size > maxBytes
        ? new SiteError(`${url.href}: ${what} is larger than ${describeBytes(maxBytes)}; it is not read.`)
        : this.downloaded + size > MAX_SITE_BYTES
          ? new SiteError(`${url.href}: the skills of ${this.siteUrl} together are larger than ${describeBytes(MAX_SITE_BYTES)}; they are not read.`)
          : undefined;
    const declared = tooLarge(Number(response.headers.get('content-length') ?? 0));
    if (declared) {
      await response.body?.cancel();
      throw declared;
    }
    const chunks: Buffer[] = [];
    let received = 0;
    try {
      for await (const chunk of response.body ?? []) {
        received += chunk.length;
        const refused = tooLarge(received);
        if (refused) {
          throw refused;
        }
        chunks.push(Buffer.from(chunk));
      }
    } catch (error) {
      throw error instanceof SiteError ? error : this.failure(url, error);
    }
    this.downloaded += received;
    return Buffer.concat(chunks);
  }

  private failure(url: URL, error: unknown): SiteError {
    if (this.options.signal?.aborted) {
      return new SiteError('Cancelled.');
    }
    if (error instanceof DOMException && error.name === 'TimeoutError') {
      return new SiteError(`${url.href}: no answer within ${REQUEST_TIMEOUT_MS / 1000} s.`);
    }
    const cause = (error as { cause?: unknown }).cause;
    return new SiteError(`Cannot read ${url.href}: ${errorMessage(cause ?? error)}`);
  }
}

/** Where a redirect leads, or a SiteError when it says nowhere usable. */
function redirectTarget(response: Response, from: URL): URL {
  const location = response.headers.get('location');
  try {
    if (location !== null && location !== '') {
      return new URL(location, from);
    }
  } catch {
    // Told below, as a redirect without a location.
  }
  throw new SiteError(`${from.href}: a redirect without a usable location.`);
}

/** A .tar.gz or a .zip, told apart by their first bytes (what the URL or a server says may be wrong). */
function readArchive(bytes: Buffer): ArchiveFile[] {
  const limits = { files: SITE_LIMITS.files, bytes: SITE_LIMITS.bytes };
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    return readTarGz(bytes, limits);
  }
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) {
    return readZip(bytes, limits);
  }
  throw new ArchiveError('it is neither a .tar.gz nor a .zip archive.');
}
