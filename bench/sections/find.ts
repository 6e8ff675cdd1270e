// The find tool's ranking on a corpus of hand-written skills (bench/find/skills.json: name and
// description, varied domains, with near-duplicates) and natural queries with their acceptable
// answers (bench/find/queries.json): top-1 and top-3 for our index and for a plain BM25 baseline
// computed in the same run; then latency per query and the cost of keeping the index current, at
// 1,000 skills (the corpus plus generated skills made of its own phrases).
//
// Figures: corpusSkills, corpusQueries, oursTop1, oursTop3, bm25Top1, bm25Top3 (percent),
// top1LeadOverBm25 (points), queryMs1000, bm25QueryMs1000, queryVsBm25Ratio, indexBuildMs1000,
// indexUpdateMs1000, updateVsBuildRatio, and the *Goal verdicts.

import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { SkillRecord } from '../../src/core/model/types';
import { SkillSearchIndex } from '../../src/core/use/find';
import { picker } from '../core/synthetic-skills';
import { PlainBm25, type BaselineSkill } from '../find/bm25';
import { alternatingMedians } from '../measure';
import { repositoryRoot } from '../../scripts/harness/repository';
import { checkGoal, printFigure, round, type BenchFigures } from '../section';

const CORPUS_FOLDER = path.join(repositoryRoot, 'bench', 'find');
const MIN_SKILLS = 150;
const MIN_QUERIES = 40;
const LARGE_CATALOG = 1000;
/** Ours must beat plain BM25 at top-1 by this many percentage points. */
const TOP1_LEAD_GOAL = 10;
/** The right skill among the first three for nearly every query. */
const TOP3_GOAL = 90;
const QUERY_MS_GOAL = 5;
/** Replacing one record must cost a small fraction of indexing everything again. */
const UPDATE_VS_BUILD_GOAL = 0.1;
const REPETITIONS = { warmups: 3, runs: 15 };

interface CorpusQuery {
  query: string;
  /** Names of the skills that are a right answer; the first three results should hold one. */
  answers: string[];
}

export async function run(): Promise<BenchFigures> {
  const { skills, queries } = await readCorpus();
  console.log(`  corpus: ${skills.length} skills, ${queries.length} queries (bench/find)`);
  const records = skills.map(toRecord);
  const index = new SkillSearchIndex();
  index.sync(records);
  const ours = quality('ours: SkillSearchIndex', queries, (query) => index.search(query).map((match) => match.record.name));
  const bm25 = new PlainBm25(skills);
  const baseline = quality('baseline: plain BM25 over name + description', queries, (query) => bm25.search(query));
  const lead = ours.top1 - baseline.top1;
  const figures: BenchFigures = {
    corpusSkills: skills.length,
    corpusQueries: queries.length,
    oursTop1: round(ours.top1, 1),
    oursTop3: round(ours.top3, 1),
    bm25Top1: round(baseline.top1, 1),
    bm25Top3: round(baseline.top3, 1),
    top1LeadOverBm25: round(lead, 1),
    top1LeadGoal: checkGoal({ label: 'top-1 lead over BM25', value: lead, unit: ' pts', target: TOP1_LEAD_GOAL, better: 'higher' }),
    top3Goal: checkGoal({ label: 'ours: right skill in the top 3', value: ours.top3, unit: '%', target: TOP3_GOAL, better: 'higher' }),
  };
  if (ours.outsideTop3.length > 0) {
    console.log(`  ours: not in the top 3: ${ours.outsideTop3.map((query) => `"${query}"`).join(', ')}`);
  }
  return { ...figures, ...(await latency(skills, records, queries)) };
}

async function readCorpus(): Promise<{ skills: BaselineSkill[]; queries: CorpusQuery[] }> {
  const skillsFile = path.join(CORPUS_FOLDER, 'skills.json');
  const queriesFile = path.join(CORPUS_FOLDER, 'queries.json');
  const skills = JSON.parse(await fs.readFile(skillsFile, 'utf8')) as BaselineSkill[];
  const queries = JSON.parse(await fs.readFile(queriesFile, 'utf8')) as CorpusQuery[];
  const names = new Set(skills.map((skill) => skill.name));
  if (names.size !== skills.length) {
    throw new Error(`${skillsFile}: skill names must be unique`);
  }
  if (skills.length < MIN_SKILLS) {
    throw new Error(`${skillsFile}: ${skills.length} skills, at least ${MIN_SKILLS} needed`);
  }
  if (queries.length < MIN_QUERIES) {
    throw new Error(`${queriesFile}: ${queries.length} queries, at least ${MIN_QUERIES} needed`);
  }
  for (const { query, answers } of queries) {
    const unknown = answers.filter((answer) => !names.has(answer));
    if (answers.length === 0 || unknown.length > 0) {
      throw new Error(`${queriesFile}: "${query}" needs answers that are skills of ${skillsFile}${unknown.length > 0 ? ` (unknown: ${unknown.join(', ')})` : ''}`);
    }
  }
  return { skills, queries };
}

/** A discovered, usable skill as the registry would hold it; the folder is never read. */
function toRecord(skill: BaselineSkill): SkillRecord {
  const dir = path.join(CORPUS_FOLDER, 'skills', skill.name);
  return {
    name: skill.name,
    dir,
    file: path.join(dir, 'SKILL.md'),
    realDir: dir,
    root: { path: path.dirname(dir), kind: 'env', label: 'bench' },
    metadata: { name: skill.name, description: skill.description, userInvocable: true, disableModelInvocation: false },
    diagnostics: [],
    status: 'available',
    mtimeMs: 0,
    size: 0,
  };
}

interface Quality {
  /** Percent of queries whose first result is a right answer. */
  top1: number;
  /** Percent of queries with a right answer among the first three results. */
  top3: number;
  outsideTop3: string[];
}

function quality(label: string, queries: readonly CorpusQuery[], rank: (query: string) => string[]): Quality {
  let first = 0;
  const outsideTop3: string[] = [];
  for (const { query, answers } of queries) {
    const ranked = rank(query);
    if (answers.includes(ranked[0])) {
      first++;
    }
    if (!ranked.slice(0, 3).some((name) => answers.includes(name))) {
      outsideTop3.push(query);
    }
  }
  const result = { top1: (100 * first) / queries.length, top3: (100 * (queries.length - outsideTop3.length)) / queries.length, outsideTop3 };
  printFigure(`${label}, top-1 / top-3`, result.top1, `% / ${Math.round(result.top3)}%`);
  return result;
}

/**
 * Skills beyond the corpus, made of its own phrases so that the vocabulary and word frequencies
 * stay those of real descriptions: a name of two corpus words, a description of three clauses
 * taken from different corpus descriptions. Seeded, so every run ranks the same catalog.
 */
function generatedSkills(corpus: readonly BaselineSkill[], count: number): BaselineSkill[] {
  const random = picker(LARGE_CATALOG);
  const nameWords = [...new Set(corpus.flatMap((skill) => skill.name.split('-')))];
  const clauses = corpus.flatMap((skill) => skill.description.split(/(?<=[.:;])\s+/));
  return Array.from({ length: count }, (_, index) => ({
    name: `${random.pick(nameWords)}-${random.pick(nameWords)}-${index}`,
    description: [random.pick(clauses), random.pick(clauses), random.pick(clauses)].join(' '),
  }));
}

async function latency(corpus: readonly BaselineSkill[], corpusRecords: readonly SkillRecord[], queries: readonly CorpusQuery[]): Promise<BenchFigures> {
  const skills = [...corpus, ...generatedSkills(corpus, LARGE_CATALOG - corpus.length)];
  const records = [...corpusRecords, ...skills.slice(corpus.length).map(toRecord)];
  const index = new SkillSearchIndex();
  index.sync(records);
  const bm25 = new PlainBm25(skills);
  const searches = await alternatingMedians(
    {
      ours: async () => queries.forEach(({ query }) => index.search(query)),
      bm25: async () => queries.forEach(({ query }) => bm25.search(query)),
    },
    REPETITIONS,
  );
  const queryMs = searches.ours.wallMs / queries.length;
  const bm25Ms = searches.bm25.wallMs / queries.length;
  printFigure('plain BM25, one query over 1,000 skills (median)', bm25Ms, ' ms');
  const figures: BenchFigures = {
    queryMs1000: round(queryMs),
    bm25QueryMs1000: round(bm25Ms),
    queryVsBm25Ratio: round(queryMs / bm25Ms),
    queryLatencyGoal: checkGoal({ label: 'ours, one query over 1,000 skills (median)', value: queryMs, unit: ' ms', target: QUERY_MS_GOAL, better: 'lower' }),
  };
  printFigure('  ours ÷ plain BM25', queryMs / bm25Ms, '×');

  // The registry's snapshots move the index along by the records that changed: here one edit.
  const edited = records.map((record) => record);
  let edits = 0;
  const maintenance = await alternatingMedians(
    {
      build: async () => new SkillSearchIndex().sync(records),
      update: {
        prepare: async () => {
          edits++;
          const record = edited[0];
          edited[0] = { ...record, metadata: { ...record.metadata!, description: `${corpus[0].description} Edit ${edits}.` } };
        },
        run: async () => index.sync(edited),
      },
    },
    REPETITIONS,
  );
  printFigure('index 1,000 skills from scratch (first search)', maintenance.build.wallMs, ' ms');
  printFigure('update the index for one edited skill', maintenance.update.wallMs, ' ms');
  const ratio = maintenance.update.wallMs / maintenance.build.wallMs;
  return {
    ...figures,
    indexBuildMs1000: round(maintenance.build.wallMs),
    indexUpdateMs1000: round(maintenance.update.wallMs),
    updateVsBuildRatio: round(ratio),
    updateVsBuildGoal: checkGoal({ label: 'one-skill update ÷ full index build', value: ratio, unit: '×', target: UPDATE_VS_BUILD_GOAL, better: 'lower' }),
  };
}
