// An extension that does nothing: what any extension costs VS Code to load and activate. The
// editor benchmark reads VS Code's own marks for it and for the product in the same window.
'use strict';

function activate() {}

module.exports = { activate };
