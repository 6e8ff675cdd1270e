// Trigger-test results as JUnit XML, the format CI systems show as test reports: a test suite per
// skill, a test case per query; a failed threshold is a <failure>, a query no request could answer
// an <error>.

import type { QueryVerdict } from './verdict';

export interface JunitCase {
  skill: string;
  query: string;
  verdict: QueryVerdict;
  /** Seconds the query's runs took. */
  seconds: number;
}

export function junitXml(name: string, cases: readonly JunitCase[]): string {
  const suites = new Map<string, JunitCase[]>();
  for (const entry of cases) {
    suites.set(entry.skill, [...(suites.get(entry.skill) ?? []), entry]);
  }
  const count = (list: readonly JunitCase[], kind: QueryVerdict['kind']): number => list.filter((entry) => entry.verdict.kind === kind).length;
  const seconds = (list: readonly JunitCase[]): string => list.reduce((sum, entry) => sum + entry.seconds, 0).toFixed(3);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${escapeXml(name)}" tests="${cases.length}" failures="${count(cases, 'failed')}" errors="${count(cases, 'errored')}" time="${seconds(cases)}">`,
  ];
  for (const [skill, list] of suites) {
    lines.push(`  <testsuite name="${escapeXml(skill)}" tests="${list.length}" failures="${count(list, 'failed')}" errors="${count(list, 'errored')}" time="${seconds(list)}">`);
    for (const entry of list) {
      const open = `    <testcase classname="${escapeXml(skill)}" name="${escapeXml(entry.query)}" time="${entry.seconds.toFixed(3)}"`;
      if (entry.verdict.kind === 'passed') {
        lines.push(`${open}/>`);
      } else {
        const tag = entry.verdict.kind === 'failed' ? 'failure' : 'error';
        lines.push(`${open}>`, `      <${tag} message="${escapeXml(entry.verdict.message)}"/>`, '    </testcase>');
      }
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}

/** Text as an XML attribute value; characters XML 1.0 cannot carry at all are dropped. */
export function escapeXml(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- these are exactly the characters XML 1.0 forbids
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/\n/g, '&#10;')
  );
}
