// What a Markdown or HTML page says to a model and not to its reader: hidden text that asks for
// credentials or to reach a web address, and links whose address is made to carry a secret.

import { cappedAt, forbidsOrQuotes, MARKDOWN_LINK, quoted, type AuditFinding } from './rules';

/** Text a reader of the rendered page does not see, and where it starts in the file. */
interface HiddenText {
  kind: string;
  text: string;
  offset: number;
}

const HTML_COMMENT = /<!--([\s\S]*?)(?:-->|$)/g;
/** `[//]: # (text)` and its kin: a link definition nothing refers to, used as a comment. */
const DEFINITION_COMMENT = /^ {0,3}\[[^\]\n]+\]:[ \t]*(?:#|<>|\/\/)[ \t]+(?:\(([^)\n]*)\)|"([^"\n]*)"|'([^'\n]*)')[ \t]*$/gm;
/** An element the page does not show, up to its closing tag (or HIDDEN_ELEMENT_WINDOW characters on). */
const HIDDEN_ELEMENT =
  /<([a-z][\w-]*)\b[^<>]{0,2000}?\s(?:hidden\b|style\s*=\s*["'][^"'<>]{0,2000}?(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?![.\d]*[1-9])|opacity\s*:\s*0(?![.\d]*[1-9])))[^<>]{0,2000}>/gi;
const HIDDEN_ELEMENT_WINDOW = 16 * 1024;
/** Hidden texts, and their sentences, read in one file: bounds the work a hostile file can ask for. */
const MAX_HIDDEN_TEXTS = 1000;
const MAX_HIDDEN_SENTENCES = 10_000;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Fenced code blocks, as [start, end) offsets: what they hold is shown, not hidden. */
function fencedCode(text: string): [number, number][] {
  const blocks: [number, number][] = [];
  let open: { fence: string; start: number } | undefined;
  let offset = 0;
  for (const line of text.split('\n')) {
    const fence = FENCE.exec(line)?.[1];
    if (open === undefined && fence !== undefined) {
      open = { fence, start: offset };
    } else if (open !== undefined && fence !== undefined && fence[0] === open.fence[0] && fence.length >= open.fence.length && line.trim() === fence) {
      blocks.push([open.start, offset + line.length]);
      open = undefined;
    }
    offset += line.length + 1;
  }
  return open ? [...blocks, [open.start, text.length]] : blocks;
}

/** HTML comments, comment-like link definitions, hidden HTML elements and frontmatter comments. */
function hiddenTexts(text: string, markdown: boolean): HiddenText[] {
  const texts: HiddenText[] = [];
  for (const match of text.matchAll(HTML_COMMENT)) {
    texts.push({ kind: 'an HTML comment', text: match[1], offset: match.index + 4 });
  }
  for (const match of text.matchAll(HIDDEN_ELEMENT)) {
    if (texts.length >= MAX_HIDDEN_TEXTS) {
      break; // Each element reads a window of text: their number is bounded.
    }
    const start = match.index + match[0].length;
    const content = text.slice(start, start + HIDDEN_ELEMENT_WINDOW);
    const end = content.search(new RegExp(String.raw`</${match[1]}\s*>`, 'i'));
    texts.push({ kind: 'a hidden HTML element', text: end < 0 ? content : content.slice(0, end), offset: start });
  }
  if (markdown) {
    for (const match of text.matchAll(DEFINITION_COMMENT)) {
      const comment = match[1] ?? match[2] ?? match[3];
      texts.push({ kind: 'a Markdown comment', text: comment, offset: match.index + match[0].lastIndexOf(comment) });
    }
    const frontmatter = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---/.exec(text);
    const yamlStart = frontmatter ? frontmatter[0].indexOf(frontmatter[1]) : 0;
    for (const comment of frontmatter?.[1].matchAll(/^[ \t]*#(.*)$/gm) ?? []) {
      texts.push({ kind: 'a frontmatter comment', text: comment[1], offset: yamlStart + comment.index + comment[0].indexOf('#') + 1 });
    }
  }
  const code = markdown ? fencedCode(text) : [];
  return texts.filter((hidden) => !inBlocks(code, hidden.offset)).slice(0, MAX_HIDDEN_TEXTS);
}

/** Whether `offset` is inside one of `blocks` (sorted, apart). */
function inBlocks(blocks: readonly [number, number][], offset: number): boolean {
  let low = 0;
  let high = blocks.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (offset < blocks[middle][0]) {
      high = middle - 1;
    } else if (offset >= blocks[middle][1]) {
      low = middle + 1;
    } else {
      return true;
    }
  }
  return false;
}

const SENTENCE_END = /\n\s*(?:[-*+]|\d+[.)])\s+|\n\s*\n|(?<=[.!?])\s+/g;

/** The sentences of a hidden text, each with its offset, one at a time: split at sentence ends, blank lines and list items. */
function* sentences(hidden: HiddenText): Generator<{ text: string; offset: number }> {
  const sentence = (start: number, end: number): { text: string; offset: number }[] => {
    const part = hidden.text.slice(start, end);
    return part.trim() === '' ? [] : [{ text: part.trim(), offset: hidden.offset + start + part.length - part.trimStart().length }];
  };
  let start = 0;
  for (const end of hidden.text.matchAll(SENTENCE_END)) {
    yield* sentence(start, end.index);
    start = end.index + end[0].length;
  }
  yield* sentence(start, hidden.text.length);
}

const CREDENTIAL = new RegExp(
  [
    String.raw`~?/?\.ssh\b|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|\.aws/credentials|(?<![\w.$])\.env\b|\.netrc\b|\.npmrc\b|\.pypirc\b|\.git-credentials\b|\.docker/config\.json|\.kube/config|/etc/(?:passwd|shadow)\b|\bkeychain\b`,
    String.raw`\b[A-Z][A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY)\b`,
    String.raw`\b(?:api[ _-]?keys?|access[ _-]?tokens?|auth(?:entication)?[ _-]?tokens?|bearer[ _-]?tokens?|secret[ _-]?keys?|private[ _-]?keys?|ssh[ _-]?keys?|passwords?|credentials|secrets|session[ _-]?cookies?)\b`,
    String.raw`\b(?:aws|gcp|azure|github|gitlab|npm|pypi|openai|anthropic|slack|stripe|cloud)[ _-]?(?:keys?|tokens?|credentials?)\b|\benv(?:ironment)?[ _-]?var(?:iable)?s\b`,
  ].join('|'),
  'i',
);
const READ_OR_SEND =
  /\b(?:read|cat|open|load|collect|gather|copy|send|post|upload|exfiltrate|include|append|attach|forward|print|output|dump|leak|share|transmit|e-?mail|grab|extract|encode|paste|embed)\b/i;
const CONTACT =
  /\b(?:send|post|upload|submit|forward|transmit|beacon|ping|notify|fetch|curl|wget|download|visit|browse|navigate|call|contact|request|load|get|go\s+to|connect\s+to|make\s+a\s+request)\b/i;
const WEB_ADDRESS = /\b(?:https?|wss?|ftp):\/\/[^\s"'<>()]+/i;

/**
 * Hidden text (HTML comments, `[//]: # (…)` comments, hidden HTML elements, frontmatter comments,
 * outside code blocks) whose sentence looks like it tells the model to read or send credentials
 * (`~/.ssh`, `.env`, tokens), or to reach a web address. A sentence that forbids it is left alone.
 */
export function findHiddenInstructions(text: string, file: string, markdown: boolean): AuditFinding[] {
  const found: { offset: number; code: 'hidden-instruction'; message: string }[] = [];
  let sentencesLeft = MAX_HIDDEN_SENTENCES;
  for (const hidden of hiddenTexts(text, markdown)) {
    for (const { text: sentence, offset } of sentences(hidden)) {
      if (--sentencesLeft < 0) {
        return cappedAt(text, file, 'hidden instructions', found);
      }
      const verb = READ_OR_SEND.exec(sentence);
      const contact = CONTACT.exec(sentence);
      const address = WEB_ADDRESS.exec(sentence);
      const asks =
        verb && CREDENTIAL.test(sentence) && !forbidsOrQuotes(sentence, verb.index)
          ? 'to read or send credentials'
          : contact && address && contact.index < address.index && !forbidsOrQuotes(sentence, contact.index)
            ? `to contact "${quoted(address[0], 80)}"`
            : undefined;
      if (asks) {
        found.push({ offset, code: 'hidden-instruction', message: `Hidden text (${hidden.kind}) looks like it tells the model ${asks}: "${quoted(sentence)}"` });
      }
    }
  }
  return cappedAt(text, file, 'hidden instructions', found);
}

// ---- Secrets in link addresses ------------------------------------------------------------------

const HTML_ADDRESS = /<(img|a|image|source|iframe|script|link|embed|object)\b[^<>]{0,2000}?\s(?:src|href|srcset|data)\s*=\s*["']([^"'<>]{1,8192})["']/gi;
const PLACEHOLDER = /\$\{?([A-Za-z_]\w*)\}?|\{\{?\s*([\w.-]+)\s*\}?\}|%([A-Za-z_]\w*)%|<([A-Za-z_]\w*)>/g;
const SECRET_WORD = /^(?:tokens?|secrets?|passw(?:or)?ds?|pwd|credentials?|cookies?|sessions?|auth|bearer)$/i;
const SECRET_KEY = /^(?:api|access|private|secret|signing|client)$/i;

/** Whether a placeholder's name is a secret's: GITHUB_TOKEN, apiKey, secrets.NPM_TOKEN… */
function namesSecret(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_.-]+/)
    .filter(Boolean);
  return words.some((word, index) => SECRET_WORD.test(word) || (/^keys?$/i.test(word) && index > 0 && SECRET_KEY.test(words[index - 1])));
}

function decodedAddress(address: string): string {
  try {
    return decodeURIComponent(address);
  } catch {
    return address;
  }
}

/**
 * Markdown images and links (and HTML `src`/`href`) to a web address that holds a placeholder for a
 * secret (`{AWS_SECRET_ACCESS_KEY}`, `$GITHUB_TOKEN`): a model that fills it in sends the secret to
 * that host, for an image as soon as it is shown.
 */
export function findSecretsInAddresses(text: string, file: string): AuditFinding[] {
  const targets = [
    ...[...text.matchAll(MARKDOWN_LINK)].map((match) => ({ address: match[1] ?? match[2], image: match[0].startsWith('!'), index: match.index })),
    ...[...text.matchAll(HTML_ADDRESS)].map((match) => ({ address: match[2], image: !/^a$/i.test(match[1]), index: match.index })),
  ];
  const found: { offset: number; code: 'secret-in-url'; message: string }[] = [];
  for (const { address, image, index } of targets) {
    const decoded = decodedAddress(address);
    const host = /^(?:https?:)?\/\/([^/?#\s]+)/i.exec(decoded)?.[1];
    const placeholder = host === undefined ? undefined : [...decoded.matchAll(PLACEHOLDER)].find((match) => namesSecret(match[1] ?? match[2] ?? match[3] ?? match[4]));
    if (placeholder) {
      const when = image ? 'as soon as the image is shown' : 'when the link is followed';
      found.push({
        offset: index,
        code: 'secret-in-url',
        message: `${image ? 'An image' : 'A link'} whose address holds a placeholder for a secret ("${quoted(placeholder[0], 60)}"): a model that fills it in may send the secret to ${quoted(host!, 60)} ${when}.`,
      });
    }
  }
  return cappedAt(text, file, 'such addresses', found);
}
