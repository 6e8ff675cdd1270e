// `npm run docs:tables`: rewrites the tables the documentation takes from the code, each between
// its `<!-- NAME:start -->` and `<!-- NAME:end -->` markers; a unit test fails while one differs.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { renderTargetTable } from '../src/core/targets/report';
import { renderFieldTable } from '../src/core/skill-file/schema';

export interface GeneratedTable {
  /** The page, relative to the repository. */
  file: string;
  marker: string;
  render(): string;
}

export const GENERATED_TABLES: readonly GeneratedTable[] = [
  { file: 'docs/targets.md', marker: 'targets', render: renderTargetTable },
  { file: 'README.md', marker: 'fields', render: renderFieldTable },
];

const REPOSITORY = path.join(__dirname, '..');

/** The table as the page holds it now, between its markers. */
export function pageTable(table: GeneratedTable): string {
  const text = fs.readFileSync(path.join(REPOSITORY, table.file), 'utf8');
  const [start, end] = markers(table);
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) {
    throw new Error(`${table.file} needs the markers ${start.trim()} and ${end.trim()} around its table.`);
  }
  return text.slice(from + start.length, to);
}

function markers(table: GeneratedTable): [start: string, end: string] {
  return [`<!-- ${table.marker}:start -->\n`, `\n<!-- ${table.marker}:end -->`];
}

if (require.main === module) {
  for (const table of GENERATED_TABLES) {
    const current = pageTable(table);
    const wanted = table.render();
    if (current !== wanted) {
      const file = path.join(REPOSITORY, table.file);
      const [start] = markers(table);
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(`${start}${current}`, `${start}${wanted}`));
    }
    console.log(`${table.file}: the ${table.marker} table ${current === wanted ? 'is up to date' : 'rewritten'}.`);
  }
}
