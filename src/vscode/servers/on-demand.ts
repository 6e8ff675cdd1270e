// The skill servers' client and glue, bundled apart (dist/extension-servers.js): loaded only once
// agentSkills.servers names a server or Set Skill Server Token runs (see server-loader.ts).

export { SkillServers } from './skill-servers';
export { askForServerToken } from './server-token';
