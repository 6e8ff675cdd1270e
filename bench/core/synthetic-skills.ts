// Writes trees of synthetic skills that look like real ones: descriptions of 80–400 characters,
// bodies of 2–20 KB of Markdown (headings, steps, code, links), some optional fields, and about
// a third with files under references/ that the body links to. Seeded, so every run writes the
// same tree and figures compare across runs.

import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { mapWithConcurrency } from '../../src/core/util/async';

const WORDS = [
  'pdf',
  'report',
  'invoice',
  'release',
  'notes',
  'changelog',
  'schema',
  'migration',
  'review',
  'deploy',
  'table',
  'chart',
  'form',
  'test',
  'coverage',
  'lint',
  'format',
  'api',
  'client',
  'server',
  'bookmark',
  'search',
  'index',
  'cache',
  'query',
  'ticket',
  'triage',
  'summary',
  'diagram',
  'spreadsheet',
  'slides',
  'translate',
  'audit',
  'security',
  'license',
  'docker',
  'kubernetes',
  'terraform',
  'budget',
  'metrics',
];
const VERBS = ['Extracts', 'Generates', 'Reviews', 'Converts', 'Validates', 'Summarizes', 'Fills', 'Formats', 'Migrates', 'Checks'];
const SENTENCE_TAILS = [
  'Use when the user asks for it by name or describes the task.',
  'Works on files in the workspace and explains each change it makes.',
  'Prefer it over ad-hoc scripts because it follows the team conventions.',
  'Handles large inputs by processing them in batches.',
  'Reports what it could not do instead of guessing.',
];
const WRITE_CONCURRENCY = 64;

export interface SyntheticSkill {
  name: string;
  description: string;
  /** The SKILL.md path. */
  file: string;
}

/** Small deterministic generator (mulberry32). */
function randomSource(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Picker {
  between(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(probability: number): boolean;
}

export function picker(seed: number): Picker {
  const random = randomSource(seed);
  return {
    between: (min, max) => min + Math.floor(random() * (max - min + 1)),
    pick: (items) => items[Math.floor(random() * items.length)],
    chance: (probability) => random() < probability,
  };
}

/** Text of about `length` characters made of sentences. */
function prose(random: Picker, length: number): string {
  let text = `${random.pick(VERBS)} ${random.pick(WORDS)} ${random.pick(WORDS)} files for the ${random.pick(WORDS)} workflow.`;
  while (text.length < length) {
    text += ` ${random.pick(SENTENCE_TAILS)}`;
  }
  return text
    .slice(0, length)
    .trimEnd()
    .replace(/[ .,:-]*$/, '.');
}

function body(random: Picker, bytes: number, references: readonly string[]): string {
  const sections: string[] = [`# ${random.pick(WORDS)} ${random.pick(WORDS)}\n`];
  let step = 0;
  while (sections.join('\n').length < bytes) {
    sections.push(`## Step ${++step}: ${random.pick(VERBS).toLowerCase()} the ${random.pick(WORDS)}\n`);
    sections.push(`${prose(random, random.between(200, 700))}\n`);
    sections.push(Array.from({ length: random.between(2, 6) }, () => `- ${prose(random, random.between(40, 120))}`).join('\n') + '\n');
    if (random.chance(0.4)) {
      sections.push(`\`\`\`bash\nnpx ${random.pick(WORDS)}-cli --input "$ARGUMENTS" --out ${random.pick(WORDS)}.json\n\`\`\`\n`);
    }
    if (references.length > 0 && random.chance(0.5)) {
      sections.push(`See [the ${random.pick(WORDS)} guide](references/${random.pick(references)}) for details.\n`);
    }
  }
  return sections.join('\n');
}

function skillFile(name: string, description: string, random: Picker, references: readonly string[]): string {
  const optional = [
    random.chance(0.5) ? 'license: MIT\n' : '',
    random.chance(0.3) ? `compatibility: Needs ${random.pick(WORDS)} and network access.\n` : '',
    random.chance(0.3) ? `metadata:\n  author: ${random.pick(WORDS)}-team\n  version: "1.${random.between(0, 9)}"\n` : '',
    random.chance(0.2) ? 'allowed-tools: Read Bash(git log:*)\n' : '',
  ].join('');
  return `---\nname: ${name}\ndescription: ${description}\n${optional}---\n\n${body(random, random.between(2 * 1024, 20 * 1024), references)}`;
}

/** Writes `count` skill folders under `root` (created) and returns what was written. */
export async function writeSyntheticSkills(root: string, count: number, seed = 1): Promise<SyntheticSkill[]> {
  await fs.mkdir(root, { recursive: true });
  const indexes = Array.from({ length: count }, (_, index) => index);
  return mapWithConcurrency(indexes, WRITE_CONCURRENCY, async (index) => {
    const random = picker(seed * 1_000_003 + index);
    const name = `${random.pick(WORDS)}-${random.pick(WORDS)}-${String(index).padStart(5, '0')}`;
    const description = prose(random, random.between(80, 400));
    const references = random.chance(0.33) ? Array.from({ length: random.between(1, 3) }, (_, file) => `${random.pick(WORDS)}-${file}.md`) : [];
    const dir = path.join(root, name);
    await fs.mkdir(dir);
    const file = path.join(dir, 'SKILL.md');
    await fs.writeFile(file, skillFile(name, description, random, references));
    if (references.length > 0) {
      await fs.mkdir(path.join(dir, 'references'));
      for (const reference of references) {
        await fs.writeFile(path.join(dir, 'references', reference), `# ${reference}\n\n${prose(random, random.between(500, 4000))}\n`);
      }
    }
    return { name, description, file };
  });
}

const ALIKE_WORDS = WORDS.slice(0, 12);
const ALIKE_VERBS = VERBS.slice(0, 5);

/**
 * Writes `count` skills whose descriptions are built from a few dozen words (five verbs, twelve
 * nouns and one sentence every skill shares): thousands of pairs alike enough for the
 * competing-skills check to warn, some skills alike to hundreds of others. Bodies are short.
 */
export async function writeAlikeSkills(root: string, count: number, seed = 7): Promise<SyntheticSkill[]> {
  await fs.mkdir(root, { recursive: true });
  const indexes = Array.from({ length: count }, (_, index) => index);
  return mapWithConcurrency(indexes, WRITE_CONCURRENCY, async (index) => {
    const random = picker(seed + index);
    const nouns = Array.from({ length: 3 }, () => random.pick(ALIKE_WORDS)).join(' ');
    const name = `alike-${String(index).padStart(5, '0')}`;
    const description = `${random.pick(ALIKE_VERBS)} ${nouns} files for the team. ${SENTENCE_TAILS[0]}`;
    const dir = path.join(root, name);
    await fs.mkdir(dir);
    const file = path.join(dir, 'SKILL.md');
    await fs.writeFile(file, `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\n${prose(random, 600)}\n`);
    return { name, description, file };
  });
}
