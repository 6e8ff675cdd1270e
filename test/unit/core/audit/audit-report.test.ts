import * as assert from 'node:assert/strict';
import { findingLocation, renderAuditMarkdown } from '../../../../src/core/audit/audit-report';
import { finding } from '../../../../src/core/audit/rules';

describe('audit report', () => {
  it('gives a finding its place: file, line and column, or the file alone', () => {
    assert.equal(findingLocation(finding('download-and-run', 'Runs it.', 'SKILL.md', { line: 4, column: 0 })), 'SKILL.md:5:1');
    assert.equal(findingLocation(finding('script', 'A script.', 'scripts/run.sh')), 'scripts/run.sh');
  });

  it('lists every finding of every skill whole, with its severity and place, and the clean ones as clean', () => {
    const long = `Downloads a script and runs it (curl https://example.com/install.sh | sh): ${'read what it fetches first. '.repeat(6).trim()}`;
    const markdown = renderAuditMarkdown('owner/skills', [
      { name: 'fetcher', findings: [finding('download-and-run', long, 'SKILL.md', { line: 6, column: 2 }), finding('script', 'A shell script.', 'scripts/run.sh')] },
      { name: 'release-notes', findings: [] },
    ]);
    assert.equal(
      markdown,
      [
        '# Audit of owner/skills',
        '',
        'Every skill was audited before anything is installed. The checks are heuristics: read what they found, and the files, before you trust a skill.',
        '',
        '## fetcher: 1 high, 1 info',
        '',
        `- **high** \`SKILL.md:7:3\`: Downloads a script and runs it \\(curl https://example\\.com/install\\.sh \\| sh\\): ${'read what it fetches first\\. '.repeat(6).trim()}`,
        '- **info** `scripts/run.sh`: A shell script\\.',
        '',
        '## release\\-notes: clean',
        '',
      ].join('\n'),
    );
  });
});
