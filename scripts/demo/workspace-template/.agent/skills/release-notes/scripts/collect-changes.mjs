#!/usr/bin/env node
// Prints the commits since a tag (default: the latest tag) as JSON, grouped by
// Conventional Commit type. Read-only: it only runs `git describe` and `git log`.
// Usage: node collect-changes.mjs [since-tag]
import { execFileSync } from 'node:child_process';

function git(...args) {
  return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

try {
  git('rev-parse', '--is-inside-work-tree');
} catch {
  console.error('Not a git repository: run this from the repository root.');
  process.exit(1);
}

let since = process.argv[2];
if (!since) {
  try {
    since = git('describe', '--tags', '--abbrev=0');
  } catch {
    since = null; // no tags yet: take the whole history
  }
}

const range = since ? [`${since}..HEAD`] : [];
const log = git('log', '--no-merges', '--format=%h%x1f%s%x1f%b%x1e', ...range);
const pattern = /^(?<type>\w+)(?:\((?<scope>[^)]+)\))?(?<bang>!)?: (?<summary>.+)$/;

const groups = {};
let count = 0;
for (const record of log.split('\x1e')) {
  const [hash, subject, body = ''] = record.trim().split('\x1f');
  if (!hash) continue;
  const match = pattern.exec(subject);
  const type = match?.groups.type ?? 'other';
  const breaking = Boolean(match?.groups.bang) || /^BREAKING CHANGE:/m.test(body);
  (groups[type] ??= []).push({
    hash,
    scope: match?.groups.scope ?? null,
    summary: match?.groups.summary ?? subject,
    breaking,
  });
  count++;
}

console.log(JSON.stringify({ since, count, commits: groups }, null, 2));
