// Telling a JSON object from the other values JSON.parse or YAML can give.

/** A non-null object that is not an array: what a JSON object or a YAML mapping parses to. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
