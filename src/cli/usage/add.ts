import type { CommandUsage } from './command-usage';

export const ADD_USAGE = {
  name: 'add',
  synopses: [['agent-skills add SOURCE [--skill NAME]… [--to DIR] [--yes]']],
  summary: 'Install skills from git, a folder or a site, pinned in skills-lock.json.',
  options: { skill: 'repeated', to: 'value', yes: 'flag' },
  description: `Install skills from SOURCE into DIR (default .agent/skills) and pin them in the working
             folder's skills-lock.json (the format npx skills writes; ref is the exact commit).
             SOURCE is a git URL (https://, ssh://, git@host:, file://), a local repository or
             folder, or GitHub's owner/repo[/sub/path], each with an optional #REF[:SUB/PATH]; or
             a site publishing the Agent Skills discovery index, https://HOST[/PATH] (http:// on
             this machine only), each artifact checked against its digest and size limits before
             anything is written (a URL with no index there is read as git).
             Git runs as the user's own git, shallow. Lists the skills SOURCE holds and asks which
             to install, with each one's audit verdict; a skill with a high finding, replacing a
             folder not installed from SOURCE, or one edited since, asks first.
               --skill NAME  install this one (repeatable; * for all) without asking
               --to DIR      the folder skills go in
               --yes         install all without --skill, and replace without asking (scripts, CI)`,
} as const satisfies CommandUsage;
