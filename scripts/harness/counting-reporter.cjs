// Mocha's spec reporter, which also writes the run's totals to the file named by
// MOCHA_COUNTS_FILE, so `npm test` can add them up without parsing console output.
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- mocha loads reporters with require() */
const fs = require('node:fs');
const Mocha = require('mocha');

class CountingSpecReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once('end', () => {
      const countsFile = process.env.MOCHA_COUNTS_FILE;
      if (countsFile) {
        const stats = runner.stats;
        fs.writeFileSync(countsFile, JSON.stringify({ passed: stats.passes, failed: stats.failures, pending: stats.pending }));
      }
    });
  }
}

module.exports = CountingSpecReporter;
