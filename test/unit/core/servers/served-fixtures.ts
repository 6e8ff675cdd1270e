// Skill server entries and cached skill folders for the tests of src/core/servers.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sha256Digest, type ServedSkill } from '../../../../src/core/servers/served-skill';

export function temporaryFolder(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'served-skills-'));
}

export function skillText(name: string, description: string, body = `Instructions for ${name}.`): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;
}

/** An entry as a server lists it, with the digests of `files` (relative path → content). */
export function servedSkill(name: string, files: Record<string, string>, description = `Use ${name}.`, prefix = ''): ServedSkill {
  const root = `skill://${prefix}${name}`;
  return {
    uri: `${root}/SKILL.md`,
    frontmatter: { name, description },
    resources: Object.entries(files).map(([file, text]) => ({ uri: `${root}/${file}`, digest: sha256Digest(Buffer.from(text)), size: Buffer.byteLength(text) })),
  };
}
