// The docs show the command line's synopses as its help prints them, so the two cannot drift.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { usageSynopses } from '../../../src/cli/help';
import { documentationPages } from './markdown-links';

const REPOSITORY = path.join(__dirname, '..', '..', '..');

/** Each `agent-skills COMMAND … [OPTION] …` line of the page's code blocks (a synopsis, not an example), its continued lines joined, its `#` comment left out. */
function synopsesIn(markdown: string, commands: ReadonlySet<string>): string[] {
  const found: string[] = [];
  let inCode = false;
  let last: string | undefined;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) {
      inCode = !inCode;
      last = undefined;
      continue;
    }
    const text = line.replace(/\s+# .*$/, '').trimEnd();
    if (inCode && last !== undefined && /^\s+\[/.test(text)) {
      found[found.length - 1] = `${found[found.length - 1]} ${text.trim()}`;
      continue;
    }
    const command = /^agent-skills ([a-z]+)\b/.exec(text)?.[1];
    last = inCode && command !== undefined && commands.has(command) && text.includes('[') ? text : undefined;
    if (last !== undefined) {
      found.push(last);
    }
  }
  return found;
}

describe('the command line in the README and docs/', () => {
  it('shows each synopsis exactly as agent-skills --help prints it', () => {
    const synopses = usageSynopses();
    const commands = new Set(synopses.map((synopsis) => synopsis.split(' ')[1]).filter((word) => !word.startsWith('-')));
    const shown = documentationPages(REPOSITORY).flatMap((file) => synopsesIn(fs.readFileSync(file, 'utf8'), commands).map((synopsis) => ({ file: path.relative(REPOSITORY, file), synopsis })));
    assert.ok(shown.length >= 15, `${shown.length} synopses found`);
    assert.deepEqual(
      shown.filter(({ synopsis }) => !synopses.includes(synopsis)).map(({ file, synopsis }) => `${file}: ${synopsis}`),
      [],
    );
  });

  it('catches a synopsis that differs from the help, continued lines included', () => {
    const commands = new Set(['eval', 'mcp']);
    const page =
      '```\nagent-skills eval --endpoint URL [--runs N] ROOT…  # run\nagent-skills mcp --http PORT [--x]\n                 [--user]\nagent-skills eval --endpoint http://localhost:11434/v1 skills\n```\n';
    assert.deepEqual(synopsesIn(page, commands), ['agent-skills eval --endpoint URL [--runs N] ROOT…', 'agent-skills mcp --http PORT [--x] [--user]']);
  });
});
