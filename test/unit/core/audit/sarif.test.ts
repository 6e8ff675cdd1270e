// Audit findings as SARIF 2.1.0: the whole document for a small set of findings, so every rule
// text, level and security severity a viewer reads is pinned down.

import * as assert from 'node:assert/strict';
import { toSarif } from '../../../../src/core/audit/sarif';
import { finding } from '../../../../src/core/audit/rules';

describe('toSarif', () => {
  it('lists the rules found, in a fixed order, with levels and security severities, and each result with its region', () => {
    const findings = [
      { finding: finding('script', 'A script, run by sh.', 'run.sh'), uri: 'alpha/run.sh' },
      { finding: finding('model-directed-text', 'Heuristic.', 'SKILL.md', { line: 4, column: 2 }), uri: 'alpha/SKILL.md' },
      { finding: finding('encoded-blob', 'A blob.', 'notes.md', { line: 0, column: 0 }), uri: 'alpha/notes.md' },
      { finding: finding('invisible-character', 'Hidden.', 'SKILL.md', { line: 1, column: 9 }), uri: 'alpha/SKILL.md' },
    ];
    assert.deepEqual(toSarif({ findings, toolVersion: '1.2.3' }), {
      $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
      version: '2.1.0',
      runs: [
        {
          tool: {
            driver: {
              name: 'agent-skills audit',
              version: '1.2.3',
              rules: [
                {
                  id: 'invisible-character',
                  shortDescription: { text: 'Invisible or direction-changing characters (bidi controls, zero-width characters, Unicode tags)' },
                  defaultConfiguration: { level: 'error' },
                  properties: { tags: ['security'], 'security-severity': '8.0' },
                },
                {
                  id: 'encoded-blob',
                  shortDescription: { text: 'A long base64 or hex blob in text' },
                  defaultConfiguration: { level: 'warning' },
                  properties: { tags: ['security'], 'security-severity': '5.0' },
                },
                {
                  id: 'script',
                  shortDescription: { text: 'A script, with its interpreter' },
                  defaultConfiguration: { level: 'note' },
                  properties: { tags: ['security'], 'security-severity': '0.0' },
                },
                {
                  id: 'model-directed-text',
                  shortDescription: { text: 'Heuristic: text asking the model to ignore its instructions or hide something from the user' },
                  defaultConfiguration: { level: 'note' },
                  properties: { tags: ['security'], 'security-severity': '2.0' },
                },
              ],
            },
          },
          results: [
            { ruleId: 'script', ruleIndex: 2, level: 'note', message: { text: 'A script, run by sh.' }, locations: [{ physicalLocation: { artifactLocation: { uri: 'alpha/run.sh' } } }] },
            {
              ruleId: 'model-directed-text',
              ruleIndex: 3,
              level: 'note',
              message: { text: 'Heuristic.' },
              locations: [{ physicalLocation: { artifactLocation: { uri: 'alpha/SKILL.md' }, region: { startLine: 5, startColumn: 3 } } }],
            },
            {
              ruleId: 'encoded-blob',
              ruleIndex: 1,
              level: 'warning',
              message: { text: 'A blob.' },
              locations: [{ physicalLocation: { artifactLocation: { uri: 'alpha/notes.md' }, region: { startLine: 1, startColumn: 1 } } }],
            },
            {
              ruleId: 'invisible-character',
              ruleIndex: 0,
              level: 'error',
              message: { text: 'Hidden.' },
              locations: [{ physicalLocation: { artifactLocation: { uri: 'alpha/SKILL.md' }, region: { startLine: 2, startColumn: 10 } } }],
            },
          ],
        },
      ],
    });
  });

  it('names every rule in words a viewer shows', () => {
    const codes = ['download-and-run', 'native-binary', 'link-outside', 'link-to-neighbour', 'file-too-large', 'archive', 'unrestricted-shell'] as const;
    const sarif = toSarif({ findings: codes.map((code) => ({ finding: finding(code, 'm', 'f'), uri: 'f' })), toolVersion: '1' }) as {
      runs: { tool: { driver: { rules: { id: string; shortDescription: { text: string }; defaultConfiguration: { level: string } }[] } } }[];
    };
    assert.deepEqual(
      sarif.runs[0].tool.driver.rules.map((rule) => [rule.id, rule.shortDescription.text, rule.defaultConfiguration.level]),
      [
        ['download-and-run', 'An instruction that downloads code and runs it at once', 'error'],
        ['native-binary', 'A native executable or library (ELF, Mach-O, PE)', 'error'],
        ['link-outside', "A symbolic link leaving the skill folder, or a Markdown link to the user's own files", 'error'],
        ['link-to-neighbour', 'A Markdown link to a neighbouring folder of the source', 'warning'],
        ['file-too-large', 'A file or folder over the size caps', 'warning'],
        ['archive', 'An archive, whose content is not audited', 'warning'],
        ['unrestricted-shell', 'allowed-tools grants an unrestricted shell', 'warning'],
      ],
    );
  });
});
