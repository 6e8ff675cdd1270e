// The Show Usage document: per skill, how often and by whom it was activated in this workspace,
// when last, and what its text cost; then the skills no one used lately.

import { MCP_TOOL_NAMES } from '../chat/tool-names';
import { escapeMarkdown } from '../util/text';
import { ORIGIN_LABELS, UNUSED_AFTER_DAYS_OF_USE, USAGE_ORIGINS, type SkillUsageRow, type UsageSummary } from './usage';

const count = (value: number): string => value.toLocaleString('en-US');
/** A skill name as code; a name that could break out of it (valid names cannot) is escaped instead. */
const skillName = (name: string): string => (/[`|\n]/.test(name) ? escapeMarkdown(name) : `\`${name}\``);
const DAY_MS = 24 * 60 * 60 * 1000;

/** "2026-11-26 18:05 UTC (3 days ago)" against `now`. */
export function describeWhen(at: number, now: number): string {
  const days = Math.floor((now - at) / DAY_MS);
  const ago = days <= 0 ? 'today' : days === 1 ? 'yesterday' : `${count(days)} days ago`;
  return `${new Date(at).toISOString().replace('T', ' ').slice(0, 16)} UTC (${ago})`;
}

function describeOrigins(row: SkillUsageRow): string {
  return USAGE_ORIGINS.filter((origin) => row.byOrigin[origin] > 0)
    .map((origin) => `${ORIGIN_LABELS[origin]} ${count(row.byOrigin[origin])}`)
    .join(', ');
}

export function renderUsageMarkdown(summary: UsageSummary, now: number): string {
  const lines = [
    '# Skills: usage in this workspace',
    '',
    "Activations of each skill in this workspace, by who asked for it, and the characters (about four per token) each activation's text added to the conversation. Kept in the workspace's storage on this machine and never sent anywhere; **Skills: Clear Usage** empties it.",
    '',
  ];
  if (summary.rows.length === 0) {
    lines.push('No skill has been activated in this workspace yet (or since usage was cleared).');
  } else {
    lines.push('| skill | activations | by | last | characters (total · average) | ~tokens (total · average) |', '| --- | ---: | --- | --- | ---: | ---: |');
    for (const row of summary.rows) {
      lines.push(
        `| ${skillName(row.skill)} | ${count(row.activations)} | ${describeOrigins(row)} | ${describeWhen(row.lastAt, now)} | ${count(row.chars)} · ${count(row.averageChars)} | ${count(row.estimatedTokens)} · ${count(row.averageTokens)} |`,
      );
    }
  }
  if (summary.daysOfUse > 0 && summary.unused.length > 0) {
    const period =
      summary.daysOfUse >= UNUSED_AFTER_DAYS_OF_USE
        ? `the last ${UNUSED_AFTER_DAYS_OF_USE} days of use (since ${summary.since})`
        : `the ${count(summary.daysOfUse)} day${summary.daysOfUse === 1 ? '' : 's'} of use recorded (since ${summary.since})`;
    lines.push(
      '',
      '## Not activated lately',
      '',
      `Available now, but not activated on any of ${period}; a day of use is a day on which some skill was activated here. Their descriptions may never match what people ask, or they may no longer be needed:`,
      '',
      ...summary.unused.map((skill) => `- ${skillName(skill)}`),
    );
    if (summary.addedSince.length > 0) {
      lines.push('', `Not counted, as they were installed or created since those days began: ${summary.addedSince.map(skillName).join(', ')}.`);
    }
  }
  lines.push(
    '',
    '---',
    '',
    `Counted here: the language-model tools called by a chat model (${ORIGIN_LABELS.model}: @skills or another participant; ${ORIGIN_LABELS.agent}: with \`agentSkills.agentMode: tools\`), the \`agent-skills mcp\` server this extension starts for agent mode (${ORIGIN_LABELS.mcp}: its \`${MCP_TOOL_NAMES.activate}\` tool; ${ORIGIN_LABELS.mcpPrompt}: a skill's prompt), \`/use\` in @skills, Activate in the Skills view and other extensions. Not counted: \`agent-skills mcp\` servers started by other programs, and trigger tests, which only watch what a model asks for.`,
  );
  return `${lines.join('\n')}\n`;
}
