// Trigger-test results as JUnit XML: the whole document for a small set, so what a CI system reads
// (counts, times, failures and errors, escaping) is pinned down.

import * as assert from 'node:assert/strict';
import { escapeXml, junitXml } from '../../../../src/core/evals/junit';

describe('junitXml', () => {
  it('writes a suite per skill and a case per query, with failures, errors and times summed', () => {
    const passed = { kind: 'passed', rate: 1, triggeredRuns: 3, runs: 3, message: 'ok' } as const;
    const failed = { kind: 'failed', rate: 0, triggeredRuns: 0, runs: 3, message: 'Triggered in 0 of 3 runs.' } as const;
    const errored = { kind: 'errored', message: 'HTTP 500 <boom>' } as const;
    const xml = junitXml('triggers & "more"', [
      { skill: 'pdf', query: 'fill the form', verdict: passed, seconds: 1.25 },
      { skill: 'notes', query: 'write <notes>', verdict: failed, seconds: 0.5 },
      { skill: 'pdf', query: 'merge', verdict: errored, seconds: 2 },
      { skill: 'pdf', query: 'split', verdict: failed, seconds: 0.0004 },
    ]);
    assert.equal(
      xml,
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites name="triggers &amp; &quot;more&quot;" tests="4" failures="2" errors="1" time="3.750">',
        '  <testsuite name="pdf" tests="3" failures="1" errors="1" time="3.250">',
        '    <testcase classname="pdf" name="fill the form" time="1.250"/>',
        '    <testcase classname="pdf" name="merge" time="2.000">',
        '      <error message="HTTP 500 &lt;boom&gt;"/>',
        '    </testcase>',
        '    <testcase classname="pdf" name="split" time="0.000">',
        '      <failure message="Triggered in 0 of 3 runs."/>',
        '    </testcase>',
        '  </testsuite>',
        '  <testsuite name="notes" tests="1" failures="1" errors="0" time="0.500">',
        '    <testcase classname="notes" name="write &lt;notes&gt;" time="0.500">',
        '      <failure message="Triggered in 0 of 3 runs."/>',
        '    </testcase>',
        '  </testsuite>',
        '</testsuites>',
        '',
      ].join('\n'),
    );
  });

  it('writes an empty report', () => {
    assert.equal(junitXml('none', []), '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="none" tests="0" failures="0" errors="0" time="0.000">\n</testsuites>\n');
  });

  it('escapes what an attribute cannot hold, and drops what XML cannot carry at all', () => {
    assert.equal(escapeXml('a & b < c > d "e"\nf'), 'a &amp; b &lt; c &gt; d &quot;e&quot;&#10;f');
    assert.equal(escapeXml('\u0000\u0008\u0009\u000B\u000C\u000D\u000E\u001F\uFFFE\uFFFF ok'), '\u0009\u000D ok');
    assert.equal(escapeXml('&&<<'), '&amp;&amp;&lt;&lt;');
    assert.equal(escapeXml("it's"), "it's");
  });
});
