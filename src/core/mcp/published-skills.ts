// The skills the MCP server publishes through the Skills extension, over the registry: every usable
// skill (available or active: not invalid, shadowed, not allowed or untrusted), each built once
// and kept until one of its files changes. While an edit leaves SKILL.md broken, its last valid
// version is published, as every surface serves it (see served-skill-file.ts), whether or not a
// client asked for the skill before the edit.

import { relativeInside } from '../util/paths';
import { isUsableStatus } from '../model/status';
import { publishSkill, SKILL_LIMITS, type SkillEntry, type SkillLimits, type SkillPublication } from './skill-publication';
import { parseSkillUri, skillEntryUri, skillUri, SKILL_FILE_URI_NAME } from './skill-uri';
import type { RegistrySnapshot } from '../discovery/registry';
import type { SkillRecord } from '../model/types';
import { authorOnlyMessage, isAuthorOnlyPath } from '../use/resources';
import { invalidRecordMessage } from '../use/served-skill-file';

export const DEFAULT_PAGE_SIZE = 100;
export const DIRECTORY_MIME_TYPE = 'inode/directory';

export interface PublishedSkillsOptions {
  limits?: SkillLimits;
  pageSize?: number;
  /** Told once per problem (a skill over the limits, a SKILL.md that no longer parses). */
  onProblem?(message: string): void;
}

/** A resource as `resources/list` and `resources/directory/read` describe it. */
export interface ResourceDescription {
  uri: string;
  name: string;
  description?: string;
  mimeType: string;
  size?: number;
}

export type FileContent = { text: string; mimeType: string } | { bytes: Uint8Array; mimeType: string };

export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

interface CachedSkill {
  /** The registry record the publication was built for; another record means the skill was reloaded. */
  record: SkillRecord;
  publication?: SkillPublication;
  /** Set by a file change; the next request builds a new publication. */
  dirty: boolean;
  building?: Promise<SkillPublication | undefined>;
  reportedProblem?: string;
}

export class InvalidCursorError extends Error {}

/** A request for a file or folder of a skill's authors' folder (`evals/`), which is never served. */
export class AuthorOnlyResourceError extends Error {}

/** The parsed URI, refusing one in an authors' folder with the reason rather than as missing. */
function parseServableUri(uri: string): ReturnType<typeof parseSkillUri> {
  const parsed = parseSkillUri(uri);
  if (parsed && isAuthorOnlyPath(parsed.path)) {
    throw new AuthorOnlyResourceError(`${uri}: ${authorOnlyMessage(parsed.path)}`);
  }
  return parsed;
}

export class PublishedSkills {
  private readonly cache = new Map<string, CachedSkill>();
  private readonly limits: SkillLimits;
  private readonly pageSize: number;

  constructor(
    private readonly source: { readonly snapshot: RegistrySnapshot },
    private readonly options: PublishedSkillsOptions = {},
  ) {
    this.limits = options.limits ?? SKILL_LIMITS;
    this.pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  }

  /** The usable skills (a usable record always has metadata), in precedence order: one per name. */
  served(): SkillRecord[] {
    return this.source.snapshot.skills.filter((record) => isUsableStatus(record.status));
  }

  /** Marks the skills holding any of these paths as changed; returns whether any was. */
  invalidate(paths: readonly string[]): boolean {
    let changed = false;
    for (const cached of this.cache.values()) {
      if (!cached.dirty && paths.some((changedPath) => relativeInside(cached.record.dir, changedPath) !== undefined || relativeInside(cached.record.realDir, changedPath) !== undefined)) {
        cached.dirty = true;
        changed = true;
      }
    }
    return changed;
  }

  /** One page of entries, in precedence order; skills that cannot be published are left out. */
  async list(cursor?: string): Promise<Page<SkillEntry>> {
    const page = this.page(this.served(), cursor);
    const publications = await Promise.all(page.items.map((record) => this.publication(record)));
    const items = publications.filter((publication) => publication !== undefined).map((publication) => publication.entry);
    return { ...page, items };
  }

  /** The entry whose SKILL.md is at `uri`, if that skill is published. */
  async get(uri: string): Promise<SkillEntry | undefined> {
    const parsed = parseSkillUri(uri);
    if (!parsed || parsed.path !== SKILL_FILE_URI_NAME) {
      return undefined;
    }
    return (await this.publicationByName(parsed.name))?.entry;
  }

  /**
   * Why nothing is served at `uri` when its skill is invalid (broken since this process first saw
   * it): the message every surface gives. undefined for any other reason (unknown, not allowed…).
   */
  refusal(uri: string): string | undefined {
    const parsed = parseSkillUri(uri);
    const records = parsed ? this.source.snapshot.byName(parsed.name) : [];
    const invalid = records.find((record) => record.status === 'invalid');
    return invalid && !records.some((record) => isUsableStatus(record.status)) ? invalidRecordMessage(invalid) : undefined;
  }

  /** A published file's bytes: text when they are UTF-8, else binary. */
  async read(uri: string): Promise<FileContent | undefined> {
    const parsed = parseServableUri(uri);
    const file = parsed && (await this.publicationByName(parsed.name))?.files.get(parsed.path);
    if (!file) {
      return undefined;
    }
    return file.isText ? { text: file.bytes.toString('utf8'), mimeType: file.mimeType } : { bytes: file.bytes, mimeType: file.mimeType };
  }

  /** The direct children of a folder of a published skill, or undefined when `uri` names no folder. */
  async readDirectory(uri: string, cursor?: string): Promise<Page<ResourceDescription> | undefined> {
    const parsed = parseServableUri(uri);
    const publication = parsed && (await this.publicationByName(parsed.name));
    const children = publication && publication.folders.get(parsed.path);
    if (!children) {
      return undefined;
    }
    const page = this.page(children, cursor);
    const items = page.items.map((child): ResourceDescription => {
      const childPath = parsed.path === '' ? child.name : `${parsed.path}/${child.name}`;
      if (child.kind === 'folder') {
        return { uri: skillUri(publication.name, childPath), name: child.name, mimeType: DIRECTORY_MIME_TYPE };
      }
      const file = publication.files.get(childPath)!;
      return { uri: file.uri, name: child.name, mimeType: file.mimeType, size: file.bytes.length };
    });
    return { ...page, items };
  }

  /** The SKILL.md of each skill that is published, as `resources/list` shows it: never one that `resources/read` would refuse. */
  async listSkillFiles(): Promise<ResourceDescription[]> {
    const served = this.served();
    const publications = await Promise.all(served.map((record) => this.publication(record)));
    return served
      .filter((_record, index) => publications[index] !== undefined)
      .map((record) => ({
        uri: skillEntryUri(record.name),
        name: record.name,
        description: record.metadata!.description,
        mimeType: 'text/markdown',
      }));
  }

  /** The page of `items` a cursor (a position this server handed out) starts. */
  private page<T>(items: readonly T[], cursor: string | undefined): Page<T> {
    const start = cursor === undefined ? 0 : Number(cursor);
    if (!Number.isSafeInteger(start) || start < 0 || String(start) !== (cursor ?? '0')) {
      throw new InvalidCursorError(`Invalid cursor "${cursor}": pass back the nextCursor of the previous page.`);
    }
    const end = Math.min(items.length, start + this.pageSize);
    const page = items.slice(start, end);
    return end < items.length ? { items: page, nextCursor: String(end) } : { items: page };
  }

  private async publicationByName(name: string): Promise<SkillPublication | undefined> {
    const record = this.source.snapshot.usable(name);
    return record?.metadata ? this.publication(record) : undefined;
  }

  private publication(record: SkillRecord): Promise<SkillPublication | undefined> {
    let cached = this.cache.get(record.dir);
    if (!cached || cached.record.name !== record.name) {
      cached = { record, dirty: true };
      this.cache.set(record.dir, cached);
    } else if (cached.record !== record) {
      cached.record = record;
      cached.dirty = true;
    }
    if (cached.building) {
      return cached.building;
    }
    if (!cached.dirty) {
      return Promise.resolve(cached.publication);
    }
    const entry = cached;
    entry.dirty = false;
    entry.building = publishSkill(record, this.limits).then((result) => {
      entry.building = undefined;
      if (result.ok) {
        entry.publication = result.publication;
        entry.reportedProblem = undefined;
      } else {
        // Limits are a decision about the current files; a broken or vanishing file is a moment in an edit.
        if (result.reason === 'limits') {
          entry.publication = undefined;
        }
        if (entry.reportedProblem !== result.message) {
          entry.reportedProblem = result.message;
          this.options.onProblem?.(entry.publication ? `${result.message} Serving its last published version.` : result.message);
        }
      }
      return entry.publication;
    });
    return entry.building;
  }

  /** Forgets skills that are no longer usable, so their bytes are not kept. */
  forgetUnserved(): void {
    const dirs = new Set(this.served().map((record) => record.dir));
    for (const dir of this.cache.keys()) {
      if (!dirs.has(dir)) {
        this.cache.delete(dir);
      }
    }
  }
}
