// A rule-based "model" shared by the fake chat endpoint of the unit tests and the scripted model of
// the integration suites: it loads the skill whose catalog line shares the most words with the
// query (the way a model picks from names and descriptions), and answers a description-tuning
// request by adding the long words of the missed requests to the description.

/** Lowercase words of three letters or more. */
function words(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[a-z][a-z0-9]{2,}/g) ?? []);
}

/** The catalog's `name: description` lines inside <available_skills>. */
function catalogSkills(instructions: string): { name: string; description: string }[] {
  const block = /<available_skills>\n([\s\S]*?)\n<\/available_skills>/.exec(instructions)?.[1] ?? '';
  return block.split('\n').flatMap((line) => {
    const match = /^([a-z0-9-]+): (.+)$/.exec(line);
    return match ? [{ name: match[1], description: match[2] }] : [];
  });
}

/** The skill a word-overlap "model" picks for the query, if any description shares a word with it. */
export function pickSkill(instructions: string, query: string): string | undefined {
  const asked = words(query);
  let best: { name: string; score: number } | undefined;
  for (const skill of catalogSkills(instructions)) {
    const score = [...words(`${skill.name.replace(/-/g, ' ')} ${skill.description}`)].filter((word) => asked.has(word)).length;
    if (score > 0 && (!best || score > best.score)) {
      best = { name: skill.name, score };
    }
  }
  return best?.name;
}

const TUNE_REQUEST = 'You improve the description of an Agent Skill.';

export function isTuneRequest(text: string): boolean {
  return text.startsWith(TUNE_REQUEST);
}

/**
 * The answer to a tuning request: the current description plus the words of five letters or more
 * from the requests that should have loaded the skill and did not.
 */
export function proposeDescription(text: string): string {
  const current = /^Its description now: (.*)$/m.exec(text)?.[1] ?? '';
  const missed = /Requests that should have loaded the skill but did not:\n((?:- .*\n?)+)/.exec(text)?.[1] ?? '';
  const known = words(current);
  const added = [...words(missed)].filter((word) => word.length >= 5 && !known.has(word));
  return `<description>${added.length > 0 ? `${current} Also for: ${added.join(', ')}.` : current}</description>`;
}

/**
 * A skill whose description misses what users call its task ("what shipped"): the tuning fixture of
 * the unit tests and the triggers suite, whose workspace holds the other skills it competes with.
 */
export const TUNE_FIXTURE = {
  name: 'release-notes',
  description: 'Writes release notes from merged pull requests.',
  queries: [
    ['draft release notes for 2.4', true],
    ['what shipped since the last tag', true],
    ['tell customers what shipped in march', true],
    ['announce what shipped this sprint', true],
    ['list what shipped to production today', true],
    ['release notes from the merged changes', true],
    ['minutes of the planning meeting', false],
    ['pivot of signups by region', false],
    ['notes on the meeting with decisions', false],
    ['chart the monthly costs', false],
  ] as [string, boolean][],
  /** Two skills of the triggers suite's workspace, which the fixture's near misses belong to. */
  neighbours: {
    'meeting-notes': 'Writes meeting notes with decisions, owners and open questions. Use when the user asks for notes or minutes of a meeting.',
    sheets: 'Builds charts and pivot tables from spreadsheets (xlsx, csv). Use when the user asks for a chart, a pivot or a summary of a spreadsheet.',
  },
};

/** The fixture's evals/triggers.json text. */
export function tuneFixtureTriggers(): string {
  return `${JSON.stringify(
    TUNE_FIXTURE.queries.map(([query, should]) => ({ query, should_trigger: should })),
    null,
    2,
  )}\n`;
}
