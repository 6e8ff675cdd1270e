import type { CommandUsage } from './command-usage';

export const INSTALL_USAGE = {
  name: 'install',
  synopses: [['agent-skills install [--frozen] [--to DIR] [--yes]']],
  summary: 'Install every skill skills-lock.json lists, as npm ci does.',
  options: { frozen: 'flag', to: 'value', yes: 'flag' },
  description: `Install every skill skills-lock.json lists, as npm ci does: each missing one at the
             commit the lock pins (a lock without one: at its ref), audited, and only when its copy
             hashes to the lock's computedHash; one already as locked is left alone; a folder that
             differs (edited, a file added or removed) is replaced only once confirmed. The lock is
             never written; skill folders it does not list are left as they are, and named.
               --frozen   write nothing: exit 1 naming each skill missing or different, and
                          whether install could restore it; 0 when the folder is exactly the lock
               --to DIR   the folder skills go in, inside the project (default .agent/skills)
               --yes      replace folders that differ, and install past a high audit finding
             add, update and install verify what skills-trust.json requires of a source:
             {"version": 1, "sources": [{"match": "team/*", "require": "signed", "allowedSigners":
             "PATH"}]}, the first entry whose pattern matches the source (* for any run of
             characters) naming a file in git's allowed-signers format (SSH keys). The commit (or
             the tag asked for) must be signed by a key it lists; else nothing is written.`,
} as const satisfies CommandUsage;
