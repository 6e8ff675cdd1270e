// The least an extension can do to show rows in a tree view: 10 fixed rows, handed over when VS Code
// asks. It says when it handed them over, in the clock of VS Code's marks, for the editor benchmark
// to set the Skills view's first rows against.
'use strict';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- VS Code loads extensions with require()
const vscode = require('vscode');

const { performance } = globalThis;
const ROWS = Array.from({ length: 10 }, (_, index) => `Row ${index + 1}`);

function activate(context) {
  let rowsServedAt;
  const provider = {
    getTreeItem: (label) => new vscode.TreeItem(label),
    getChildren: (parent) => {
      if (parent) {
        return [];
      }
      rowsServedAt ??= performance.timeOrigin + performance.now();
      return ROWS;
    },
  };
  context.subscriptions.push(vscode.window.registerTreeDataProvider('treeBaseline.rows', provider));
  return { rowsServedAt: () => rowsServedAt };
}

module.exports = { activate };
