// The demo model's answer to Skills: Draft Trigger Tests…: queries made by rule from the skill's
// description (what it does, and the "Use when …" cases it names) and, as near misses, from what
// the other installed skills do. Deterministic, so the same skill always gets the same draft.

export interface DescribedSkill {
  readonly name: string;
  readonly description: string;
}

export interface DraftRequest {
  readonly skill: DescribedSkill;
  readonly others: readonly DescribedSkill[];
}

export interface DraftedQuery {
  readonly query: string;
  readonly should_trigger: boolean;
}

const maxQueriesOfAKind = 10;
const minQueriesOfAKind = 8;
const maxObjectWords = 12;

/** Requests no skill of a software project covers: the unrelated half of the near misses. */
const unrelatedRequests = [
  'what is the capital of Australia?',
  'write a haiku about autumn leaves',
  'convert 5 miles to kilometres',
  'suggest a name for a pet turtle',
  'how long should I boil an egg?',
  'recommend a book about the history of Rome',
  'what time zone is Tokyo in?',
  'give me a recipe for pancakes',
];

/**
 * The skill and the other skills of a Draft Trigger Tests request, recognised by the lines the
 * extension writes (`The skill: …`, `Its description: …`, `- name: description`); undefined for
 * any other request.
 */
export function readDraftRequest(text: string): DraftRequest | undefined {
  if (!/trigger tests/i.test(text) || !/JSON array/.test(text)) {
    return undefined;
  }
  const name = /^The skill: (\S+)\s*$/m.exec(text)?.[1];
  const description = /^Its description: (.+)$/m.exec(text)?.[1]?.trim();
  if (!name || !description) {
    return undefined;
  }
  const othersBlock = /^Other installed skills:\n((?:- .*(?:\n|$))+)/m.exec(text)?.[1] ?? '';
  const others = [...othersBlock.matchAll(/^- ([a-z0-9-]+): (.+)$/gm)].map((match) => ({ name: match[1], description: match[2].trim() }));
  return { skill: { name, description }, others };
}

/** 8 to 10 queries that should load the skill, then 8 to 10 near misses that should not. */
export function draftQueries(request: DraftRequest): DraftedQuery[] {
  const should = distinct([...whatItDoes(request.skill.description), ...useWhenRequests(request.skill.description)]);
  const padding = paddingRequests(request.skill);
  while (should.length < minQueriesOfAKind && padding.length > 0) {
    pushDistinct(should, padding.shift()!);
  }
  const nearMisses = distinct([
    ...request.others.flatMap((other) => whatItDoes(other.description).slice(0, 1)),
    ...request.others.flatMap((other) => useWhenRequests(other.description).slice(0, 1)),
  ]).filter((query) => !should.includes(query));
  // Mostly other skills' tasks, and always a couple of requests no skill covers.
  const shouldNot = nearMisses.slice(0, maxQueriesOfAKind - 3);
  const wanted = Math.max(minQueriesOfAKind, Math.min(maxQueriesOfAKind, shouldNot.length + 2));
  for (const unrelated of unrelatedRequests.slice(0, wanted - shouldNot.length)) {
    pushDistinct(shouldNot, unrelated);
  }
  return [...should.slice(0, maxQueriesOfAKind).map((query) => ({ query, should_trigger: true })), ...shouldNot.map((query) => ({ query, should_trigger: false }))];
}

/** The description's first sentence as requests: "Drafts release notes …" → "draft release notes …". */
function whatItDoes(description: string): string[] {
  const sentence = description.split(/(?<=\.)\s+/)[0].replace(/\.$/, '');
  // "Generates or updates docs/api.md …": every verb of the opening, as a request says it.
  const opening = /^([A-Z][a-z]+s(?:\s+(?:or|and)\s+[a-z]+s)*)\s+(.+)$/.exec(sentence);
  if (!opening) {
    return [];
  }
  const verbs = opening[1].toLowerCase().replace(/[a-z]+s\b/g, (verb) => (verb === 'or' || verb === 'and' ? verb : baseForm(verb)));
  // The object up to where the sentence turns to how, where or with what.
  const object = opening[2]
    .split(/\s+(?:by|from|using|in the|against)\s+|\s*[(,;]/)[0]
    .split(/\s+/)
    .slice(0, maxObjectWords)
    .join(' ');
  return [`${verbs} ${object}`, `can you ${verbs} ${object} for me?`];
}

/** The verb of "Drafts", "Triages", "Reviews", "Applies" as a request says it. */
function baseForm(verb: string): string {
  if (verb.endsWith('ies')) {
    return `${verb.slice(0, -3)}y`;
  }
  if (/(?:ss|sh|ch|x)es$/.test(verb)) {
    return verb.slice(0, -2);
  }
  return verb.slice(0, -1);
}

/** The cases after "Use when" ("the user asks for X, Y, or is preparing Z"), each as the user would ask. */
function useWhenRequests(description: string): string[] {
  const clause = /\bUse (?:it )?when\b:?\s*([^.]+)/i.exec(description)?.[1];
  if (!clause) {
    return [];
  }
  const pieces = clause
    .replace(/^the user\s+/i, '')
    .split(/,\s*/)
    .map((piece) => piece.replace(/^(?:or|and)\s+/, '').trim())
    .filter((piece) => piece !== '');
  const requests: string[] = [];
  let lead = '';
  let verb = '';
  for (const piece of pieces) {
    const ownLead = /^(asks? (?:for|about|to|how to)|wants? to|wants?|needs?|is|pastes?|mentions?|[a-z]+ing)\b\s*(.*)$/.exec(piece);
    let words = piece;
    if (ownLead) {
      [lead, words] = [ownLead[1], ownLead[2]];
      verb = words.split(' ')[0];
    } else if (/^asks? (?:how )?to$/.test(lead) && !startsWithVerb(piece)) {
      // "asks to describe the endpoints, request bodies": the noun goes with the last verb.
      words = `${verb} ${piece}`;
    } else {
      verb = piece.split(' ')[0];
    }
    const request = asRequest(lead, words);
    if (request) {
      requests.push(request);
    }
  }
  return requests;
}

/** "update the API docs" (a verb and its object) rather than "request bodies" (a noun). */
function startsWithVerb(piece: string): boolean {
  return /^[a-z]+\s+(?:a|an|the|this|that|its|their|my|our|some|all)\b/.test(piece);
}

function asRequest(lead: string, words: string): string | undefined {
  if (words === '') {
    return undefined;
  }
  if (/^asks? (?:for|about)$/.test(lead)) {
    return /^(?:what|how|which|why|where|when)\b/.test(words) ? `show me ${words}` : `I need ${words}`;
  }
  if (/^asks? to$/.test(lead)) {
    return `please ${words}`;
  }
  if (/^asks? how to$/.test(lead)) {
    return `how do I ${words}?`;
  }
  if (/^wants? to$/.test(lead)) {
    return `I want to ${words}`;
  }
  if (/^(?:wants?|needs?)$/.test(lead)) {
    return `I need ${words}`;
  }
  if (lead === 'is') {
    return `I'm ${words}`;
  }
  if (/^pastes?$/.test(lead)) {
    return `here is ${words}: the save button does nothing`;
  }
  if (/^mentions?$/.test(lead)) {
    return `a question about ${words}`;
  }
  if (/ing$/.test(lead)) {
    return `I'm ${lead} ${words}`;
  }
  return undefined;
}

/** Plain requests naming the skill's subject, when its description gave too few. */
function paddingRequests(skill: DescribedSkill): string[] {
  const subject = skill.name.replace(/-/g, ' ');
  return [`help me with the ${subject}`, `I have a task involving ${subject}, where do I start?`, `what are the steps for ${subject} in this project?`, `walk me through the ${subject} work`];
}

function distinct(queries: readonly string[]): string[] {
  const kept: string[] = [];
  queries.forEach((query) => pushDistinct(kept, query));
  return kept;
}

function pushDistinct(queries: string[], query: string): void {
  if (!queries.some((kept) => kept.toLowerCase() === query.toLowerCase())) {
    queries.push(query);
  }
}
