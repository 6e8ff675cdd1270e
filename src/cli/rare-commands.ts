// The commands a project runs now and then rather than on every edit: `eval` and `tune` (trigger
// tests against a chat endpoint), `add`, `update`, `check`, `remove`, `install` and `audit` (skills
// from git or a site, and their audit), and `publish` (a static site of skills). Bundled apart from
// dist/cli.js (scripts/side-bundles.mjs) and loaded only when one of them runs.

export { auditCommand } from './audit-command';
export { evalCommand } from './eval-command';
export { installCommand } from './install-command';
export { publishCommand } from './publish-command';
export { addCommand, checkCommand, removeCommand, updateCommand } from './sources-command';
export { tuneCommand } from './tune-command';
