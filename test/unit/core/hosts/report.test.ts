// Texts from the host listings and profiles: summaries, cuts, Show Budget, the README table.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { hostListing } from '../../../../src/core/hosts/budget';
import { hostProfile } from '../../../../src/core/hosts/profiles';
import { describeCuts, describeListing, listingLines, renderBudgetMarkdown, renderHostTable } from '../../../../src/core/hosts/report';
import { fakeRecord } from '../../../fixtures/trees/tree';

describe('host reports', function () {
  const records = Array.from({ length: 12 }, (_, index) => fakeRecord(`skill-${index}`, 'd'.repeat(900)));

  it('sum up a listing and name what it cuts', function () {
    const listing = hostListing(records, hostProfile('claude-code')!, 200_000);
    assert.equal(describeListing(listing), 'Claude Code at a 200,000-token context: budget 8,000 characters, 7,314 used; 8 in full, 4 by name only.');
    assert.equal(describeCuts(listing), 'By name only: skill-8, skill-9, skill-10, skill-11.');
    assert.deepEqual(listingLines(listing).slice(7), [`skill-7: ${'d'.repeat(900)}`, 'skill-8', 'skill-9', 'skill-10', 'skill-11']);
    assert.equal(describeListing(hostListing(records, hostProfile('gemini-cli')!)), 'Gemini CLI at a 200,000-token context lists every skill in full: 12 in full (10,922 characters).');
    assert.match(
      describeListing(hostListing(records, hostProfile('vscode')!)),
      /^VS Code at a 200,000-token context documents no budget for its list of skills, so all are assumed listed: 12 in full/,
    );
  });

  it('render Show Budget as a table per target with each skill and its cost', function () {
    const markdown = renderBudgetMarkdown([hostListing(records, hostProfile('codex')!, 100_000), hostListing(records, hostProfile('vscode')!, 100_000)], 100_000);
    assert.match(markdown, /^# Skills: budget per host\n/);
    assert.match(markdown, /## Codex\n\nCodex at a 100,000-token context: budget 8,000 characters/);
    assert.match(markdown, /\| `skill-0` \| shortened to 656 characters \| 666 \|/);
    assert.match(markdown, /## VS Code\n[\s\S]*\| `skill-11` \| in full \| 911 \|/);
    assert.match(markdown, /Source: none found/);
    assert.match(renderBudgetMarkdown([], 200_000), /No target hosts/);
  });

  it('keep the README host table in step with the profiles (npm run readme:hosts rewrites it)', function () {
    const readme = fs.readFileSync(path.join(__dirname, '../../../../README.md'), 'utf8');
    const start = readme.indexOf('<!-- hosts:start -->\n');
    const end = readme.indexOf('\n<!-- hosts:end -->');
    assert.ok(start >= 0 && end > start, 'README.md has the hosts:start and hosts:end markers');
    assert.equal(readme.slice(start + '<!-- hosts:start -->\n'.length, end), renderHostTable(), 'README host table is out of date: run npm run readme:hosts');
  });

  it('list every host in the README table with its folders and sources', function () {
    const table = renderHostTable();
    for (const id of ['vscode', 'copilot-cli', 'claude-code', 'codex', 'gemini-cli', 'cursor', 'opencode']) {
      assert.match(table, new RegExp(`\\(\`${id}\`\\)`));
    }
    assert.match(
      table,
      /\| Codex \(`codex`\) \| `\.agents\/skills`; `~\/\.agents\/skills`, `~\/\.codex\/skills` \| `name`, `description`, `metadata`; others ignored \| name ≤ 64, description ≤ 1,024 \(rejected past them\) \| 2 % of the context window/,
    );
    assert.match(table, /Sources \(checked 2026-11-26\): VS Code: <https:\/\/github.com\/microsoft\/vscode\/tree\/1.139.1>/);
  });
});
