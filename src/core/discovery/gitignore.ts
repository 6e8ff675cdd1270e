// Which folders a repository's .gitignore files leave out, read without running git: the walk for
// sub-project skill locations skips them, as `git status` would. Only folders are asked about, so
// the rules that matter are gitignore's for directories: `dir/`, `/anchored`, `a/b`, `**`, `*`,
// `?`, `[...]` and `!` re-including what an earlier line of the same walk ignored.

import * as path from 'node:path';
import { relativeInside } from '../util/paths';

interface IgnoreRule {
  pattern: RegExp;
  negated: boolean;
}

/** The rules of one .gitignore file, matched against paths relative to the folder holding it. */
export class IgnoreRules {
  /** The rules of a .gitignore that cannot be read: none. */
  static readonly none = new IgnoreRules([]);

  private constructor(private readonly rules: readonly IgnoreRule[]) {}

  static parse(text: string): IgnoreRules {
    const rules: IgnoreRule[] = [];
    for (const rawLine of text.split(/\r?\n/)) {
      const rule = parseLine(rawLine);
      if (rule) {
        rules.push(rule);
      }
    }
    return new IgnoreRules(rules);
  }

  get empty(): boolean {
    return this.rules.length === 0;
  }

  /**
   * Ignored, re-included (false) or not mentioned (undefined) by these rules: a folder `relative`
   * (`/`-separated) to the .gitignore's folder. The last matching line decides, as in git.
   */
  decide(relative: string): boolean | undefined {
    let verdict: boolean | undefined;
    for (const rule of this.rules) {
      if (rule.pattern.test(relative)) {
        verdict = !rule.negated;
      }
    }
    return verdict;
  }
}

/** A stack of .gitignore files from the top folder down; a deeper file overrides a higher one. */
export interface IgnoreScope {
  /** Absolute folder of the .gitignore. */
  dir: string;
  rules: IgnoreRules;
}

/** True when the folder `dir` is ignored by the .gitignore files in `scopes` (top folder first). */
export function isIgnoredFolder(dir: string, scopes: readonly IgnoreScope[]): boolean {
  for (let index = scopes.length - 1; index >= 0; index--) {
    const scope = scopes[index];
    const relative = relativeInside(scope.dir, dir);
    if (relative === undefined || relative === '') {
      continue; // A .gitignore speaks only of what lies below its folder.
    }
    const verdict = scope.rules.decide(relative.split(path.sep).join('/'));
    if (verdict !== undefined) {
      return verdict;
    }
  }
  return false;
}

function parseLine(rawLine: string): IgnoreRule | undefined {
  // Trailing spaces are dropped unless escaped; a line starting with # is a comment.
  let line = rawLine.replace(/(?<!\\)\s+$/, '');
  if (line.startsWith('#')) {
    return undefined;
  }
  const negated = line.startsWith('!');
  if (negated) {
    line = line.slice(1);
  }
  line = line.replace(/^\\(?=[#!])/, '');
  // `dir/` matches folders only, which is all that is ever asked about here.
  line = line.replace(/\/+$/, '');
  if (line === '') {
    return undefined; // Nothing left: a blank line, a lone `!`, or only slashes.
  }
  // A slash at the start or in the middle anchors the pattern to the .gitignore's folder.
  const anchored = line.includes('/');
  line = line.replace(/^\//, '');
  const body = globToRegExp(line);
  // A pattern naming a folder also covers everything below it.
  return { pattern: new RegExp(`^${anchored ? '' : '(?:.*/)?'}${body}(?:/.*)?$`), negated };
}

function globToRegExp(glob: string): string {
  let out = '';
  for (let index = 0; index < glob.length; index++) {
    const character = glob[index];
    if (character === '*') {
      // `**/` opening a segment: any number of folders, none included. Any other `*` stays within
      // a folder name; a final `/**` needs nothing more, as every pattern covers what lies below.
      if (glob[index + 1] === '*' && glob[index + 2] === '/' && (index === 0 || glob[index - 1] === '/')) {
        out += '(?:.*/)?';
        index += 2;
        continue;
      }
      out += '[^/]*';
    } else if (character === '?') {
      out += '[^/]';
    } else if (character === '[') {
      const set = characterClass(glob, index);
      if (set) {
        out += set.pattern;
        index = set.end;
      } else {
        out += '\\['; // Unclosed: a plain `[`.
      }
    } else if (character === '\\' && index + 1 < glob.length) {
      out += escapeRegExp(glob[++index]);
    } else {
      out += escapeRegExp(character);
    }
  }
  return out;
}

/**
 * The `[...]` set opening at `open`, read as git reads it: `!` or `^` first negates it, the
 * character after that is a member even when it is `]`, and `\` makes the next one a member.
 * Undefined when no `]` closes it.
 */
function characterClass(glob: string, open: number): { pattern: string; end: number } | undefined {
  let index = open + 1;
  let pattern = '[';
  if (glob[index] === '!' || glob[index] === '^') {
    pattern += '^';
    index++;
  }
  const first = index;
  for (; index < glob.length; index++) {
    let member = glob[index];
    if (member === ']' && index > first) {
      return { pattern: `${pattern}]`, end: index };
    }
    if (member === '\\') {
      member = glob[++index] ?? '';
      // Escaped, a member stands for itself (`-` too); in a RegExp set, `\` before a letter or
      // digit would make a class such as `\d`.
      pattern += /[a-z0-9]/i.test(member) ? member : `\\${member}`;
    } else {
      pattern += member === ']' ? '\\]' : member;
    }
  }
  return undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
