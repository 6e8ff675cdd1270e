// The baseline the find section holds our ranking against: plain Okapi BM25 (k1 1.2, b 0.75) over
// one field, the name and the description together, split into lowercase words. No stemming, no
// prefixes, no typos, no field weights: what a search library gives out of the box.

import { tokenize } from '../../src/core/use/find';

const K1 = 1.2;
const B = 0.75;

export interface BaselineSkill {
  name: string;
  description: string;
}

export class PlainBm25 {
  private readonly counts: Map<string, number>[];
  private readonly lengths: number[];
  private readonly documentFrequency = new Map<string, number>();
  private readonly averageLength: number;

  constructor(private readonly skills: readonly BaselineSkill[]) {
    const documents = skills.map((skill) => tokenize(`${skill.name} ${skill.description}`));
    this.lengths = documents.map((words) => words.length);
    this.counts = documents.map((words) => {
      const counts = new Map<string, number>();
      for (const word of words) {
        counts.set(word, (counts.get(word) ?? 0) + 1);
      }
      for (const word of counts.keys()) {
        this.documentFrequency.set(word, (this.documentFrequency.get(word) ?? 0) + 1);
      }
      return counts;
    });
    this.averageLength = this.lengths.reduce((sum, length) => sum + length, 0) / Math.max(1, skills.length);
  }

  /** Names of the matching skills, best first. */
  search(query: string): string[] {
    const words = [...new Set(tokenize(query))];
    const scored: { name: string; score: number }[] = [];
    this.counts.forEach((counts, index) => {
      let score = 0;
      for (const word of words) {
        const frequency = counts.get(word);
        if (!frequency) {
          continue;
        }
        const holders = this.documentFrequency.get(word)!;
        const idf = Math.log(1 + (this.skills.length - holders + 0.5) / (holders + 0.5));
        score += (idf * frequency * (K1 + 1)) / (frequency + K1 * (1 - B + (B * this.lengths[index]) / this.averageLength));
      }
      if (score > 0) {
        scored.push({ name: this.skills[index].name, score });
      }
    });
    return scored.sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : 1)).map((match) => match.name);
  }
}
