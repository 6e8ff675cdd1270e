// The tables the documentation takes from the code (the host profiles, the frontmatter fields) are
// as the code renders them; `npm run docs:tables` rewrites them.

import * as assert from 'node:assert/strict';
import { GENERATED_TABLES, pageTable } from '../../../scripts/docs-tables';

describe('generated tables of the documentation', () => {
  for (const table of GENERATED_TABLES) {
    it(`${table.file} holds the ${table.marker} table as the code renders it`, () => {
      assert.equal(pageTable(table), table.render(), `the ${table.marker} table of ${table.file} is out of date: run npm run docs:tables`);
    });
  }
});
