// The result of a description tuning as Markdown: the split, a table of scores per round, and the
// change as a diff. The editor previews it; the command line prints it.

import { formatPercent } from './verdict';
import { rateOf, type HalfScore, type TuneResult } from './tune';

const score = (half: HalfScore): string => (half.judged === 0 ? 'n/a' : `${half.passed}/${half.judged} (${formatPercent(rateOf(half))})`);

/** Text in a table cell: one line, pipes escaped. */
const cell = (text: string): string => text.replace(/\s+/g, ' ').replace(/\|/g, '\\|');

const kinds = (queries: TuneResult['split']['train']): string => {
  const should = queries.filter((query) => query.shouldTrigger).length;
  return `${queries.length} (${should} should trigger, ${queries.length - should} should not)`;
};

/** Whether the pick differs from the current description. */
export function isImprovement(result: TuneResult): boolean {
  return result.best.round !== 0;
}

export function renderTuneReport(skill: string, result: TuneResult, details: { model: string; runs: number; seed: number }): string {
  const lines = [
    `# Improve Description: ${skill}`,
    '',
    `On ${details.model}, ${details.runs} run${details.runs === 1 ? '' : 's'} per query. Train queries: ${kinds(result.split.train)}; test queries: ${kinds(result.split.test)} (split with seed ${details.seed}). The model saw only the train queries that failed; only a proposal that beats the current description on the test queries is picked (the best, ties to the shorter).`,
    '',
    '| Round | Train | Test | Characters | Description |',
    '| --- | --- | --- | ---: | --- |',
    ...result.rounds.map((round) => {
      const label = `${round.round === 0 ? 'current' : String(round.round)}${round === result.best ? ' (picked)' : ''}`;
      return `| ${round === result.best ? `**${label}**` : label} | ${score(round.train)} | ${score(round.test)} | ${round.description.length} | ${cell(round.description)} |`;
    }),
    '',
  ];
  for (const refused of result.rejected) {
    lines.push(`Round ${refused.round}'s proposal was refused (${cell(refused.reason)}): ${cell(refused.description)}`, '');
  }
  if (!isImprovement(result)) {
    lines.push('No proposal scored better on the test queries than the current description: keep it.', '');
    return lines.join('\n');
  }
  const before = result.rounds[0];
  lines.push(
    `## Proposed change (test ${score(before.test)} → ${score(result.best.test)})`,
    '',
    '```diff',
    `- description: ${before.description}`,
    `+ description: ${result.best.description}`,
    '```',
    '',
  );
  return lines.join('\n');
}
