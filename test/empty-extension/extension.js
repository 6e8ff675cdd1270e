// An extension that does nothing: what any extension costs VS Code to load and activate. It only
// says when its activate() ran, in the clock of VS Code's marks, for the editor benchmark to read
// beside those marks.
'use strict';

const { performance } = globalThis;

function activate() {
  return { calledAt: performance.timeOrigin + performance.now() };
}

module.exports = { activate };
