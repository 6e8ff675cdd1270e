// Small text helpers shared by everything that shows skill text on one line.

/** Folds runs of white space (newlines included) into single spaces, for one-line display. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
