/** Folders never treated as skills (nor listed as resources, nor watched). */
export const IGNORED_FOLDER_NAMES: ReadonlySet<string> = new Set(['.git', 'node_modules']);
