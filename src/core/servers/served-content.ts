// The body and files of a skill server's skill, read on use: from the cache when the cached copy
// still has the listed digest, otherwise fetched from the server, verified (size, SHA-256 digest,
// and for SKILL.md the frontmatter against the listed one) and only then kept and used. Content that
// fails a check is refused whole, with a message naming the server, the skill and the file.

import { SKILL_FILE_NAME } from '../skill-file/load';
import { extractSkillBody, frontmatterYaml, parseSkillText } from '../skill-file/parse';
import { parseYamlCore } from '../skill-file/yaml-core';
import type { SkillRecord } from '../model/types';
import { closestNames } from '../use/find';
import { DEFAULT_MAX_LISTED_RESOURCES, normalizeResourcePath, readSkillResource, ResourceError, type ResourceListing } from '../use/resources';
import type { SkillContent } from '../use/skill-content';
import { errorMessage } from '../util/errors';
import { isPlainObject } from '../util/objects';
import { readCachedEntry, readVerifiedCachedFile, storeCachedFile } from './server-cache';
import { contentMismatch, servedFilePath, type ServedFile, type ServedSkill } from './served-skill';

/** What reading a skill's files needs of a connected server. */
export interface SkillFileSource {
  /** The bytes of the resource at `uri` (`resources/read`). */
  readFile(uri: string): Promise<Uint8Array>;
}

/** A file of a served skill could not be used: refused (verification) or unavailable (offline, unreadable). */
export class ServedSkillError extends Error {
  constructor(
    readonly reason: 'refused' | 'unavailable',
    message: string,
  ) {
    super(message);
    this.name = 'ServedSkillError';
  }
}

/** Values that JSON keeps alike compare alike (a YAML date and its ISO text), whatever the key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    isPlainObject(item)
      ? Object.fromEntries(
          Object.keys(item)
            .sort()
            .map((key) => [key, item[key]]),
        )
      : item,
  );
}

/**
 * The file's frontmatter as the YAML 1.2 core schema reads it: how JSON-minded servers (this
 * product's, the Skills extension's reference SDK) render it, where YAML 1.1 would read
 * `2024-01-15` as a date and `010` as octal.
 */
function coreReading(text: string): Record<string, unknown> | undefined {
  const yaml = frontmatterYaml(text);
  try {
    const value = yaml === undefined ? undefined : parseYamlCore(yaml);
    return isPlainObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The fields whose values differ between a fetched SKILL.md's frontmatter and the listed one. The
 * listing renders the frontmatter as JSON, and servers read YAML either way: a listed value matches
 * when it is the file's value as YAML 1.1 reads it (a date as its ISO text) or as YAML 1.2 does.
 */
export function frontmatterDifferences(text: string, listed: ServedSkill['frontmatter']): string[] {
  const parsed = parseSkillText(text, { file: SKILL_FILE_NAME }).data;
  if (!parsed) {
    return ['(the file has no readable frontmatter)'];
  }
  const core = coreReading(text) ?? parsed;
  const keys = [...new Set([...Object.keys(parsed), ...Object.keys(core), ...Object.keys(listed)])].sort();
  return keys.filter((key) => {
    const value = canonical(listed[key]);
    return value !== canonical(parsed[key]) && value !== canonical(core[key]);
  });
}

function serverName(record: SkillRecord): string {
  return record.root.server ?? record.root.label;
}

export class ServedSkillFiles {
  /**
   * `source(server)` is the server's connection, or undefined while it cannot be reached; `log`
   * hears every refusal.
   */
  constructor(
    private readonly source: (server: string) => Promise<SkillFileSource | undefined>,
    private readonly log: (message: string) => void,
  ) {}

  /** The skill's entry as last listed. */
  async entry(record: SkillRecord): Promise<ServedSkill> {
    const cached = await readCachedEntry(record.dir).catch((error: unknown) => ({ reason: errorMessage(error) }));
    if (!cached || 'reason' in cached) {
      throw new ServedSkillError(
        'unavailable',
        `The entry of skill "${record.name}" from skill server "${serverName(record)}" is not cached${cached ? ` (${cached.reason})` : ''}; refresh the skills.`,
      );
    }
    return cached.skill;
  }

  /** The verified bytes of one listed file (`SKILL.md`, `references/guide.md`). */
  async read(record: SkillRecord, relativePath: string): Promise<Buffer> {
    const skill = await this.entry(record);
    const listed = skill.resources.map((file): [string, ServedFile] => [servedFilePath(skill, file), file]);
    const file = listed.find(([filePath]) => filePath === relativePath)?.[1];
    if (!file) {
      const suggestions = closestNames(
        relativePath,
        listed.map(([filePath]) => filePath),
        3,
      );
      throw new ResourceError(
        'not-found',
        `Skill "${record.name}" from skill server "${serverName(record)}" has no file "${relativePath}".${suggestions.length > 0 ? ` Did you mean: ${suggestions.join(', ')}?` : ''}`,
      );
    }
    const cached = await readVerifiedCachedFile(record.dir, relativePath, file);
    if (cached) {
      return cached;
    }
    const server = serverName(record);
    const source = await this.source(server);
    if (!source) {
      throw new ServedSkillError('unavailable', `Skill server "${server}" cannot be reached, and no verified copy of ${relativePath} of skill "${record.name}" is cached.`);
    }
    let bytes: Uint8Array;
    try {
      bytes = await source.readFile(file.uri);
    } catch (error) {
      throw new ServedSkillError('unavailable', `Skill server "${server}" did not send ${relativePath} of skill "${record.name}": ${errorMessage(error)}`);
    }
    let mismatch = contentMismatch(bytes, file);
    if (mismatch === undefined && relativePath === SKILL_FILE_NAME) {
      const differences = frontmatterDifferences(Buffer.from(bytes).toString('utf8'), skill.frontmatter);
      mismatch = differences.length > 0 ? `its frontmatter differs from the listed one (${differences.join(', ')})` : undefined;
    }
    if (mismatch !== undefined) {
      const message = `Refused ${relativePath} of skill "${record.name}" from skill server "${server}" (${file.uri}): ${mismatch}. It was not used or kept.`;
      this.log(message);
      throw new ServedSkillError('refused', message);
    }
    await storeCachedFile(record.dir, relativePath, bytes);
    return Buffer.from(bytes);
  }

  /** Reads served skills for activation and the read-resource tool. */
  get content(): SkillContent {
    return {
      readBody: async (record) => {
        const text = (await this.read(record, SKILL_FILE_NAME)).toString('utf8');
        const body = extractSkillBody(text);
        if (!body) {
          throw new ServedSkillError('refused', `${SKILL_FILE_NAME} of skill "${record.name}" from skill server "${serverName(record)}" has no complete frontmatter.`);
        }
        return body.text;
      },
      listResources: async (record, limit): Promise<ResourceListing> => {
        const skill = await this.entry(record).catch(() => undefined);
        const files = (skill?.resources ?? [])
          .map((file) => servedFilePath(skill!, file))
          .filter((file) => file !== SKILL_FILE_NAME)
          .sort();
        return { files: files.slice(0, limit ?? DEFAULT_MAX_LISTED_RESOURCES), total: files.length, complete: true };
      },
      readResource: async (record, requestedPath, options) => {
        const relative = normalizeResourcePath(requestedPath);
        await this.read(record, relative);
        // Verified and kept just now: read as any skill file is (size cap, binary files described).
        return readSkillResource(record.dir, relative, options);
      },
    };
  }
}
