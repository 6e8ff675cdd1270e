// `skill://` URIs of the MCP Skills extension (SEP-2640): `skill://<name>/<file path>` names a file
// of a skill, `skill://<name>` and `skill://<name>/<folder>` its folders. Parsing never touches the
// disk: a URI only ever selects a file the server already published for that skill.

export const SKILL_URI_SCHEME = 'skill://';
export const SKILL_FILE_URI_NAME = 'SKILL.md';

/** A skill-relative POSIX path as a URI path: each segment percent-encoded, `/` kept. */
function encodePath(relativePath: string): string {
  return relativePath.split('/').map(encodeURIComponent).join('/');
}

/** `skill://<name>/<path>`; an empty path names the skill's root folder. */
export function skillUri(name: string, relativePath = ''): string {
  return relativePath === '' ? `${SKILL_URI_SCHEME}${name}` : `${SKILL_URI_SCHEME}${name}/${encodePath(relativePath)}`;
}

/** The URI of a skill's SKILL.md, which identifies the skill. */
export function skillEntryUri(name: string): string {
  return skillUri(name, SKILL_FILE_URI_NAME);
}

export interface ParsedSkillUri {
  name: string;
  /** Decoded skill-relative POSIX path; '' for the skill's root folder. */
  path: string;
}

/**
 * Splits a `skill://` URI into skill name and relative path, or undefined when it is not one this
 * server could have published: another scheme, a query or fragment, an empty, `.` or `..`
 * segment, a backslash or NUL, or a trailing slash (folder URIs have none).
 */
export function parseSkillUri(uri: string): ParsedSkillUri | undefined {
  if (!uri.startsWith(SKILL_URI_SCHEME) || /[?#\\]/.test(uri)) {
    return undefined;
  }
  const segments = uri.slice(SKILL_URI_SCHEME.length).split('/');
  const decoded: string[] = [];
  for (const segment of segments) {
    let value: string;
    try {
      value = decodeURIComponent(segment);
    } catch {
      return undefined;
    }
    if (value === '' || value === '.' || value === '..' || /[/\\\0]/.test(value)) {
      return undefined;
    }
    decoded.push(value);
  }
  const [name, ...rest] = decoded;
  return { name, path: rest.join('/') };
}
