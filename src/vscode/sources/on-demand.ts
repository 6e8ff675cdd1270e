// What installing from elsewhere needs only when used: Add Skills from Git, Check for Updates,
// Update Skill, Keep Edits, Remove and the audit of an installed skill. Bundled apart (dist/extension-sources.js) and
// imported with import() on first use, so activation does not load the git, install and audit code.

export { addSkillsFromGit } from './add-from-git';
export { auditSkillDiagnostics } from './audit-diagnostics';
export { keepSkillEdits, removeInstalledSkill } from './installed-actions';
export { checkForUpdates, updateSkill } from './updates';
