// Command ids as contributed in package.json, in one place so code and manifest stay in step.

export const COMMANDS = {
  validate: 'agentSkills.validate',
  createSkill: 'agentSkills.createSkill',
  refresh: 'agentSkills.refresh',
  showCatalog: 'agentSkills.showCatalog',
  deactivateAll: 'agentSkills.deactivateAll',
  showLog: 'agentSkills.showLog',
  openSkill: 'agentSkills.openSkill',
  activate: 'agentSkills.activate',
  deactivate: 'agentSkills.deactivate',
  allow: 'agentSkills.allow',
  removeFromAllowlist: 'agentSkills.removeFromAllowlist',
  reveal: 'agentSkills.reveal',
  copyName: 'agentSkills.copyName',
  manageTrust: 'agentSkills.manageTrust',
} as const;
