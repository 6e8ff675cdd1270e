// The commands that fetch, install and audit skills, in one module the build bundles apart
// (dist/cli-sources.js): the other commands and --help do not load their code.

export { addCommand, checkCommand, removeCommand, updateCommand } from './sources-command';
export { auditCommand } from './audit-command';
