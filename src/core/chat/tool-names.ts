/** Tool names as contributed in package.json; the texts the model reads refer to them. */
export const TOOL_NAMES = {
  activate: 'skills_activate',
  find: 'skills_find',
  readResource: 'skills_readResource',
} as const;
