import * as assert from 'node:assert/strict';
import { formatTable } from '../../../src/cli/list-command';

describe('formatTable', () => {
  const rows = [
    ['NAME', 'DETAILS'],
    ['pdf', 'hello'],
  ];

  it('pads every column but the last to its widest cell', () => {
    assert.equal(formatTable(rows, undefined), 'NAME  DETAILS\npdf   hello\n');
  });

  it('keeps a last cell that fills the width exactly, and cuts a longer one with an ellipsis', () => {
    assert.equal(formatTable(rows, 11), 'NAME  DETA…\npdf   hello\n');
    assert.equal(formatTable(rows, 10), 'NAME  DET…\npdf   hel…\n');
    assert.equal(formatTable(rows, 8), 'NAME  D…\npdf   h…\n');
  });

  it('drops the last cell, and the gap before it, when at most one character would fit', () => {
    assert.equal(formatTable(rows, 7), 'NAME\npdf\n');
    assert.equal(formatTable(rows, 6), 'NAME\npdf\n');
  });

  it('shortens a wide middle column from its start so the last one keeps room on a terminal', () => {
    const wide = [
      ['NAME', 'STATUS', 'SOURCE', 'DETAILS'],
      ['pdf', 'available', `/home/me/${'projects/'.repeat(8)}app/.agent/skills`, 'Fills PDF forms and extracts their tables.'],
    ];
    const text = formatTable(wide, 80, 2);
    const [heading, row] = text.split('\n');
    assert.ok(row.length === 80, row);
    // The end of a path tells the folders apart, so that is what stays.
    assert.match(row, /^pdf {3}available {2}…[^ ]*app\/\.agent\/skills {2}Fills PDF forms and [a-z ]+…$/);
    assert.equal(heading.indexOf('DETAILS'), row.indexOf('Fills'));
    // Never shorter than 20 characters: on a narrower terminal the last column is cut instead.
    assert.match(formatTable(wide, 50, 2).split('\n')[1], /^pdf {3}available {2}…s\/app\/\.agent\/skills {2}Fills PDF …$/);
    // Piped (no width), nothing is cut.
    assert.equal(formatTable(wide, undefined, 2).split('\n')[1], `pdf   ${wide[1].slice(1).join('  ')}`);
  });

  it('shortens the wide column only as far as the last column needs, for a short last column too', () => {
    const rows = [
      ['NAME', 'SOURCE', 'DESCRIPTION'],
      ['alpha', '/very/long/path/to/the/project/app/.agent/skills', 'Short.'],
    ];
    // The last column needs 11 characters (its heading): the path gives up just enough for the lines to fit 50.
    assert.equal(formatTable(rows, 50, 1), 'NAME   SOURCE                          DESCRIPTION\nalpha  …the/project/app/.agent/skills  Short.\n');
    // Wide enough for everything: nothing is shortened.
    assert.equal(formatTable(rows, 70, 1), formatTable(rows, undefined, 1));
    assert.equal(formatTable(rows, undefined, 1), 'NAME   SOURCE                                            DESCRIPTION\nalpha  /very/long/path/to/the/project/app/.agent/skills  Short.\n');
  });
});
