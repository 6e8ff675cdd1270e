// The commands a project runs now and then rather than on every edit: `eval` and `tune` (trigger
// tests against a chat endpoint), and `add`, `update`, `check`, `remove`, `install` and `audit`
// (skills from git, and their audit). Bundled apart from dist/cli.js (scripts/side-bundles.mjs) and
// loaded only when one of them runs.

export { auditCommand } from './audit-command';
export { evalCommand } from './eval-command';
export { installCommand } from './install-command';
export { addCommand, checkCommand, removeCommand, updateCommand } from './sources-command';
export { tuneCommand } from './tune-command';
