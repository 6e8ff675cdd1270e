// Small text helpers shared by everything that shows skill text on one line, and the token estimate.

/** Rough token estimate for English Markdown: about four characters per token. */
export const CHARS_PER_TOKEN = 4;

/** Folds runs of white space (newlines included) into single spaces, for one-line display. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** One line, and nothing that could close the block early. */
export function singleLine(text: string): string {
  return collapseWhitespace(text).replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Escapes text so Markdown shows it literally. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~$]/g, '\\$&');
}

/** "1 skill", "1,200 skills". */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? singular : pluralForm}`;
}
