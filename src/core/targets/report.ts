// Texts made from the host profiles and listings: the one-line summary of what a host cuts, its
// listing as text (CLI `catalog --target`), the Show Budget document, and the host table of docs/targets.md.

import { countByState, type TargetListing, type ListingState } from './budget';
import { TARGET_PROFILES, type BudgetRule, type TargetProfile } from './profiles';

const count = (value: number): string => value.toLocaleString('en-US');

export const STATE_LABELS: Record<ListingState, string> = {
  full: 'in full',
  shortened: 'shortened',
  'name-only': 'by name only',
  dropped: 'not listed',
  'user-only': 'not offered to the model (disable-model-invocation)',
};

function describeRule(rule: BudgetRule): string {
  switch (rule.kind) {
    case 'share':
      return `${rule.contextPercent} % of the context window (${count(rule.fallbackChars)} characters when the window is unknown)${rule.descriptionChars === undefined ? '' : `, at most ${count(rule.descriptionChars)} characters per description`}; past it ${rule.overflow === 'name-only' ? 'skills are listed by name only' : 'descriptions are shortened first, then skills left out'}`;
    case 'none':
      return 'none: every skill is listed in full';
    case 'unknown':
      return 'not documented';
  }
}

/** e.g. "Codex at a 200,000-token context: budget 16,000 characters, 15,230 used; 12 in full, 3 shortened." */
export function describeListing(listing: TargetListing): string {
  const counts = countByState(listing);
  const parts = (Object.keys(STATE_LABELS) as ListingState[]).filter((state) => counts[state] > 0).map((state) => `${count(counts[state])} ${STATE_LABELS[state]}`);
  const states = parts.length > 0 ? parts.join(', ') : 'no skills';
  const at = `${listing.host.name} at a ${count(listing.contextTokens)}-token context`;
  if (listing.budgetChars === undefined) {
    const why = listing.rule.kind === 'none' ? 'lists every skill in full' : 'documents no budget for its list of skills, so all are assumed listed';
    return `${at} ${why}: ${states} (${count(listing.usedChars)} characters).`;
  }
  return `${at}: budget ${count(listing.budgetChars)} characters, ${count(listing.usedChars)} used; ${states}.`;
}

/** The skills a listing leaves short, by what happens to them: "By name only: a, b. Not listed: c." */
export function describeCuts(listing: TargetListing): string {
  const cut: ListingState[] = ['shortened', 'name-only', 'dropped'];
  return cut
    .map((state) => {
      const names = listing.skills.filter((skill) => skill.state === state).map((skill) => skill.name);
      return names.length === 0 ? '' : `${STATE_LABELS[state][0].toUpperCase()}${STATE_LABELS[state].slice(1)}: ${names.join(', ')}.`;
    })
    .filter(Boolean)
    .join(' ');
}

/** The host's list as text, one `name: description` line per listed skill (estimated: targets differ in markup). */
export function listingLines(listing: TargetListing): string[] {
  return listing.skills.filter((skill) => skill.state !== 'dropped' && skill.state !== 'user-only').map((skill) => (skill.descriptionChars === 0 ? skill.name : `${skill.name}: ${skill.description}`));
}

/** The Show Budget document: per target, each skill's fate and cost at that host's budget. */
export function renderBudgetMarkdown(listings: readonly TargetListing[], contextTokens: number): string {
  const lines = [
    '# Skills: budget per target',
    '',
    `What each target lists of this project's skills at a ${count(contextTokens)}-token context, from its documented rule (about four characters per token; targets differ in markup, so costs are estimates). Targets come from \`agentSkills.targets\`.`,
  ];
  if (listings.length === 0) {
    lines.push('', 'No targets: set `agentSkills.targets` (for example `["vscode", "claude-code", "codex"]`).');
  } else if (!listings.some((listing) => listing.rule.kind === 'share')) {
    const budgeted = TARGET_PROFILES.filter((host) => host.budget.value.kind === 'share').map((host) => `${host.name} (\`${host.id}\`)`);
    lines.push(
      '',
      `None of these targets documents a budget for its list of skills, so this report cannot show what a budget cuts. Add a target that documents one to \`agentSkills.targets\` to see it: ${budgeted.join(' or ')}.`,
    );
  }
  for (const listing of listings) {
    const host = listing.host;
    lines.push(
      '',
      `## ${host.name}`,
      '',
      describeListing(listing),
      '',
      `Budget rule: ${describeRule(listing.rule)}. Source: ${host.budget.value.kind === 'unknown' ? 'none found' : formatSource(host.budget.source)} (checked ${host.budget.checked}).`,
    );
    if (listing.rule.kind === 'share' && listing.rule.order) {
      lines.push('', `${host.name} decides the order itself (${listing.rule.order}); this table takes the skills in this project's order.`);
    }
    if (listing.skills.length === 0) {
      continue;
    }
    lines.push('', '| skill | listed | characters |', '| --- | --- | ---: |');
    for (const skill of listing.skills) {
      const listed = skill.state === 'shortened' ? `shortened to ${count(skill.descriptionChars)} characters` : STATE_LABELS[skill.state];
      lines.push(`| \`${skill.name}\` | ${listed} | ${count(skill.chars)} |`);
    }
  }
  return `${lines.join('\n')}\n`;
}

const code = (text: string): string => `\`${text}\``;

/** A source as a link, and what was read there when the source says. */
function formatSource(source: string): string {
  const [link, ...note] = source.split(' ');
  return note.length > 0 ? `<${link}> ${note.join(' ')}` : `<${link}>`;
}

function describeFields(host: TargetProfile): string {
  const fields = host.fields.value;
  const others = { ignored: 'others ignored', 'ignored-with-warning': 'others ignored, with a warning', unknown: 'others not documented' }[fields.others];
  return `${fields.honoured.map(code).join(', ')}; ${others}`;
}

function describeLimits(host: TargetProfile): string {
  const limits = host.limits.value;
  const parts = [limits.nameChars === undefined ? '' : `name ≤ ${limits.nameChars}`, limits.descriptionChars === undefined ? '' : `description ≤ ${count(limits.descriptionChars)}`].filter(Boolean);
  if (parts.length === 0) {
    return 'not documented';
  }
  return `${parts.join(', ')} (${limits.overLimit === 'unknown' ? 'past them: not documented' : `${limits.overLimit} past them`})`;
}

/** The table of hosts in docs/targets.md, generated from the profiles (`npm run docs:tables` writes it). */
export function renderTargetTable(): string {
  const rows = TARGET_PROFILES.map((host) =>
    [
      `${host.name} (${code(host.id)})`,
      `${host.projectFolders.value.map(code).join(', ')}; ${host.userFolders.value.map(code).join(', ')}`,
      describeFields(host),
      describeLimits(host),
      describeRule(host.budget.value),
      host.invocation.value,
    ].join(' | '),
  );
  const sources = TARGET_PROFILES.map((host) => {
    const links = [...new Set([host.projectFolders, host.fields, host.limits, host.budget, host.invocation].map((fact) => fact.source.split(' ')[0]))];
    return `${host.name}: ${links.map((link) => `<${link}>`).join(', ')}`;
  });
  return [
    '| target | folders (project; user) | fields honoured | limits | list budget | invoked by |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows.map((row) => `| ${row} |`),
    '',
    `Sources (checked ${TARGET_PROFILES[0].fields.checked}): ${sources.join('; ')}.`,
  ].join('\n');
}
