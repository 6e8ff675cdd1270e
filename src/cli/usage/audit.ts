import type { CommandUsage } from './command-usage';

export const AUDIT_USAGE = {
  name: 'audit',
  synopses: [['agent-skills audit [--json | --sarif] [PATH…]']],
  summary: 'Look for what a skill could do against its user (text, JSON or SARIF).',
  options: { json: 'flag', sarif: 'flag' },
  description: `Look for what a skill could do against its user, in each skill at or under PATH
             (without PATH, the project's skills):
             high: invisible or direction-changing characters, download-and-run instructions,
             native binaries, links to the user's own files, hidden Markdown asking for
             credentials or a web address, secrets in link addresses, install hooks (.pth,
             npm install scripts), archive entries that unpack outside their folder; medium:
             unrestricted shell in allowed-tools, long base64/hex blobs (pictures aside),
             archives, hard links, files over the size caps, links to neighbouring folders; low
             (heuristic): text asking the model to ignore its instructions or keep something
             from the user; info: scripts and their interpreter. Exit 1 when a finding is high.
               --json     print {"skills":[{"path","verdict","findings":[{"severity","code",
                          "message","file","line","column"}]}]} instead
               --sarif    print SARIF 2.1.0 (for GitHub code scanning) instead`,
} as const satisfies CommandUsage;
