// Features used rarely are bundled apart from dist/extension.js (scripts/side-bundles.mjs) and
// loaded the first time they are used, through these: activation reads none of their code.
// Everything else imports only their types.

/* eslint-disable @typescript-eslint/no-require-imports -- loading on first use is the point */

/** Add Skills from Git, Check for Updates, Update Skill, the audit of installed skills. */
export const sourcesOnDemand = (): typeof import('./sources/on-demand') => require('./sources/on-demand') as typeof import('./sources/on-demand');

/** Draft Trigger Tests, Improve Description, the Routing Report. */
export const triggerToolsOnDemand = (): typeof import('./testing/on-demand') => require('./testing/on-demand') as typeof import('./testing/on-demand');

/** The skill servers' client (agentSkills.servers) and Set Skill Server Token. */
export const serversOnDemand = (): typeof import('./servers/on-demand') => require('./servers/on-demand') as typeof import('./servers/on-demand');
/* eslint-enable @typescript-eslint/no-require-imports */
