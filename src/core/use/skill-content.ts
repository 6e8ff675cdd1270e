// Where a skill's body and files are read from: its folder on disk, or for a skill server's skill,
// the server (through the verified cache). Activation and the read-resource tool go through this.

import { servedSkillFile } from './served-skill-file';
import type { SkillRecord } from '../model/types';
import { listSkillResources, readSkillResource, type ReadResourceOptions, type ResourceListing, type SkillResource } from './resources';

export interface SkillContent {
  /** The instructions after the frontmatter. Throws an Error whose message says what went wrong, naming the file. */
  readBody(record: SkillRecord): Promise<string>;
  /** The skill's other files, relative to its folder. */
  listResources(record: SkillRecord, limit?: number): Promise<ResourceListing>;
  /** One file by relative path; throws ResourceError for a path the skill does not have. */
  readResource(record: SkillRecord, requestedPath: string, options?: ReadResourceOptions): Promise<SkillResource>;
}

/** Skills in folders on disk: the body read fresh, so edits show up at once. */
export const FOLDER_CONTENT: SkillContent = {
  readBody: async (record) => {
    const served = await servedSkillFile(record);
    if (!served.ok) {
      throw new Error(served.message);
    }
    return served.body;
  },
  listResources: (record, limit) => listSkillResources(record.dir, { limit }),
  readResource: (record, requestedPath, options) => readSkillResource(record.dir, requestedPath, options),
};

/** Reads each skill where it comes from: a skill server's through `served`, every other from its folder. */
export function contentByOrigin(served: SkillContent): SkillContent {
  const pick = (record: SkillRecord): SkillContent => (record.root.kind === 'server' ? served : FOLDER_CONTENT);
  return {
    readBody: (record) => pick(record).readBody(record),
    listResources: (record, limit) => pick(record).listResources(record, limit),
    readResource: (record, requestedPath, options) => pick(record).readResource(record, requestedPath, options),
  };
}
