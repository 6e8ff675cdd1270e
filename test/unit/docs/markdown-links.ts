// Finds the relative links of Markdown files that lead nowhere: to a file that does not exist, or to
// a `#anchor` no heading of the target produces, with GitHub's heading slugs.

import * as fs from 'node:fs';
import * as path from 'node:path';

export interface BrokenLink {
  file: string;
  line: number;
  target: string;
  problem: string;
}

/** A repository's documentation: its README.md and every Markdown file of its docs/ folder. */
export function documentationPages(root: string): string[] {
  const docs = path.join(root, 'docs');
  return [
    path.join(root, 'README.md'),
    ...fs
      .readdirSync(docs)
      .filter((name) => name.endsWith('.md'))
      .map((name) => path.join(docs, name)),
  ];
}

/** The anchors GitHub gives a Markdown file's headings (repeats numbered `-1`, `-2`, …), and its `<a id>`/`<a name>` tags. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text } of proseLines(markdown)) {
    for (const [, id] of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) {
      anchors.add(id);
    }
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
    if (!heading) {
      continue;
    }
    const slug = headingSlug(heading[1]);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** GitHub's slug of a heading: its visible text lowercased, punctuation dropped except `-` and `_`, spaces to `-`. */
export function headingSlug(heading: string): string {
  const visible = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*]/g, '');
  return visible
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-');
}

/** The broken relative links of the given Markdown files; web addresses are not followed. */
export function brokenLinks(files: readonly string[]): BrokenLink[] {
  const anchorCache = new Map<string, Set<string>>();
  const anchorsOf = (file: string) => {
    let anchors = anchorCache.get(file);
    if (!anchors) {
      anchors = headingAnchors(fs.readFileSync(file, 'utf8'));
      anchorCache.set(file, anchors);
    }
    return anchors;
  };
  const broken: BrokenLink[] = [];
  for (const file of files) {
    for (const { line, target } of relativeLinks(fs.readFileSync(file, 'utf8'))) {
      const hashAt = target.indexOf('#');
      const pathPart = decodeURIComponent(hashAt < 0 ? target : target.slice(0, hashAt));
      const anchor = hashAt < 0 ? undefined : decodeURIComponent(target.slice(hashAt + 1));
      const resolved = pathPart === '' ? file : path.resolve(path.dirname(file), pathPart);
      if (!fs.existsSync(resolved)) {
        broken.push({ file, line, target, problem: `${path.relative(path.dirname(file), resolved) || resolved} does not exist` });
      } else if (anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) {
        broken.push({ file, line, target, problem: `no heading of ${path.basename(resolved)} has the anchor #${anchor}` });
      }
    }
  }
  return broken;
}

/** Each link target outside code that is neither a web address nor another scheme's, with its line. */
function relativeLinks(markdown: string): Array<{ line: number; target: string }> {
  const links: Array<{ line: number; target: string }> = [];
  for (const { line, text } of proseLines(markdown)) {
    const withoutCode = text.replace(/`[^`]*`/g, '');
    const targets = [
      ...[...withoutCode.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map(([, target]) => target),
      ...[...withoutCode.matchAll(/^\s*\[[^\]]+\]:\s*<?([^\s>]+)>?/g)].map(([, target]) => target),
    ];
    for (const target of targets) {
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) {
        links.push({ line, target });
      }
    }
  }
  return links;
}

/** The lines of a Markdown file outside fenced code blocks, numbered from 1. */
function proseLines(markdown: string): Array<{ line: number; text: string }> {
  const lines: Array<{ line: number; text: string }> = [];
  let fence: string | undefined;
  markdown.split(/\r?\n/).forEach((text, index) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(text)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) {
        fence = undefined;
      }
    } else if (marker) {
      fence = marker;
    } else {
      lines.push({ line: index + 1, text });
    }
  });
  return lines;
}
