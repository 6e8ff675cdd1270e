// `npm run docs:hosts`: rewrites the host table of docs/hosts.md (between its hosts:start and
// hosts:end markers) from the host profiles; a unit test fails while the two differ.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { renderHostTable } from '../src/core/hosts/report';

const HOSTS_PAGE = path.join(__dirname, '..', 'docs', 'hosts.md');
const START = '<!-- hosts:start -->\n';
const END = '\n<!-- hosts:end -->';

const text = fs.readFileSync(HOSTS_PAGE, 'utf8');
const start = text.indexOf(START);
const end = text.indexOf(END);
if (start < 0 || end < start) {
  throw new Error(`docs/hosts.md needs the markers ${START.trim()} and ${END.trim()} around the host table.`);
}
const updated = `${text.slice(0, start + START.length)}${renderHostTable()}${text.slice(end)}`;
if (updated !== text) {
  fs.writeFileSync(HOSTS_PAGE, updated);
}
console.log(updated === text ? 'The host table of docs/hosts.md is up to date.' : 'The host table of docs/hosts.md rewritten.');
