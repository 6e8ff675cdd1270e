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
});
