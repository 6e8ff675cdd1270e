// Audit findings as SARIF 2.1.0, the format GitHub code scanning and other viewers read.

import type { AuditCode, AuditFinding, AuditSeverity } from './rules';

const RULE_TEXTS: Readonly<Record<AuditCode, string>> = {
  'invisible-character': 'Invisible or direction-changing characters (bidi controls, zero-width characters, Unicode tags)',
  'download-and-run': 'An instruction that downloads code and runs it at once',
  'encoded-blob': 'A long base64 or hex blob in text',
  script: 'A script, with its interpreter',
  'native-binary': 'A native executable or library (ELF, Mach-O, PE)',
  'link-outside': "A symbolic link leaving the skill folder, or a Markdown link to the user's own files",
  'link-to-neighbour': 'A Markdown link to a neighbouring folder of the source',
  'file-too-large': 'A file or folder over the size caps',
  archive: 'An archive, whose content is not audited',
  'unrestricted-shell': 'allowed-tools grants an unrestricted shell',
  'model-directed-text': 'Heuristic: text asking the model to ignore its instructions or hide something from the user',
  'hidden-instruction': 'Heuristic: hidden Markdown or HTML (a comment, a hidden element) that asks the model for credentials or to contact a web address',
  'secret-in-url': 'An image or link whose web address holds a placeholder for a secret',
  'install-hook': 'A file that runs code on install: a Python .pth file, an npm install-time script',
  'archive-entry-outside': 'An archive entry that unpacks outside its folder (an absolute path, "..", or a link leaving it)',
  'hard-link': 'A hard link, whose content may be a file outside the skill folder',
};

const LEVELS: Readonly<Record<AuditSeverity, 'error' | 'warning' | 'note'>> = { high: 'error', medium: 'warning', low: 'note', info: 'note' };
/** GitHub code scanning ranks security results by this property (0–10). */
const SECURITY_SEVERITY: Readonly<Record<AuditSeverity, string>> = { high: '8.0', medium: '5.0', low: '2.0', info: '0.0' };

export interface SarifInput {
  /** Each finding with the path of its file as the report should name it (relative, `/`-separated). */
  findings: readonly { finding: AuditFinding; uri: string }[];
  toolVersion: string;
}

export function toSarif({ findings, toolVersion }: SarifInput): object {
  const codes = (Object.keys(RULE_TEXTS) as AuditCode[]).filter((code) => findings.some(({ finding }) => finding.code === code));
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'agent-skills audit',
            version: toolVersion,
            rules: codes.map((code) => {
              const severity = findings.find(({ finding }) => finding.code === code)?.finding.severity ?? 'info';
              return {
                id: code,
                shortDescription: { text: RULE_TEXTS[code] },
                defaultConfiguration: { level: LEVELS[severity] },
                properties: { tags: ['security'], 'security-severity': SECURITY_SEVERITY[severity] },
              };
            }),
          },
        },
        results: findings.map(({ finding, uri }) => ({
          ruleId: finding.code,
          ruleIndex: codes.indexOf(finding.code),
          level: LEVELS[finding.severity],
          message: { text: finding.message },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri },
                ...(finding.position ? { region: { startLine: finding.position.line + 1, startColumn: finding.position.column + 1 } } : {}),
              },
            },
          ],
        })),
      },
    ],
  };
}
