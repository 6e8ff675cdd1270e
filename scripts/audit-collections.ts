// `npx tsx scripts/audit-collections.ts DIR [--list]`: audits every skill of each collection in DIR
// (one folder per collection, e.g. a clone of each public skill repository) and prints how many
// skills each holds, then the findings counted per severity and rule. `--list` also prints each high
// and medium finding on a line of its own, to be read and judged true or a false alarm.

import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { auditSkillFolder } from '../src/core/audit/audit-folder';
import { SEVERITY_ORDER, type AuditFinding } from '../src/core/audit/rules';
import { findSkillFolders } from '../src/core/sources/checkout';
import { plural } from '../src/core/util/text';

/** The report's lines: skills per collection, counts per severity and rule, and with `list` each high and medium finding. */
export async function auditCollections(base: string, list: boolean): Promise<string[]> {
  const collections = (await fs.readdir(base, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  const lines: string[] = [];
  const counts = new Map<string, number>();
  const listed: string[] = [];
  let skills = 0;
  for (const collection of collections.sort()) {
    const folders = await findSkillFolders(path.join(base, collection));
    lines.push(`${collection}: ${plural(folders.length, 'skill')}`);
    skills += folders.length;
    for (const folder of folders) {
      for (const found of (await auditSkillFolder(folder)).findings) {
        const key = `${found.severity} ${found.code}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
        if (list && (found.severity === 'high' || found.severity === 'medium')) {
          const where = found.position ? `:${found.position.line + 1}:${found.position.column + 1}` : '';
          listed.push(`${path.relative(base, path.join(folder, found.file)).split(path.sep).join('/')}${where}: ${key}: ${found.message}`);
        }
      }
    }
  }
  lines.push('', `${plural(skills, 'skill')}; findings by severity and rule:`);
  const rank = (key: string): number => SEVERITY_ORDER.indexOf(key.split(' ')[0] as AuditFinding['severity']);
  for (const [key, count] of [...counts].sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))) {
    lines.push(`${String(count).padStart(6)}  ${key}`);
  }
  return list ? [...lines, '', `High and medium findings (${listed.length}):`, ...listed] : lines;
}

async function main(args: readonly string[]): Promise<number> {
  const list = args.includes('--list');
  const [base, ...extra] = args.filter((arg) => arg !== '--list');
  if (base === undefined || extra.length > 0) {
    console.error('Usage: npx tsx scripts/audit-collections.ts DIR [--list]   (DIR holds one folder per collection)');
    return 1;
  }
  (await auditCollections(base, list)).forEach((line) => console.log(line));
  return 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
