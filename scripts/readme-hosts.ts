// `npm run readme:hosts`: rewrites the README's host table (between its hosts:start and hosts:end
// markers) from the host profiles; a unit test fails while the two differ.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { renderHostTable } from '../src/core/hosts/report';

const README = path.join(__dirname, '..', 'README.md');
const START = '<!-- hosts:start -->\n';
const END = '\n<!-- hosts:end -->';

const text = fs.readFileSync(README, 'utf8');
const start = text.indexOf(START);
const end = text.indexOf(END);
if (start < 0 || end < start) {
  throw new Error(`README.md needs the markers ${START.trim()} and ${END.trim()} around the host table.`);
}
const updated = `${text.slice(0, start + START.length)}${renderHostTable()}${text.slice(end)}`;
if (updated !== text) {
  fs.writeFileSync(README, updated);
}
console.log(updated === text ? 'README host table is up to date.' : 'README host table rewritten.');
