// The audit's checks over one file's text or leading bytes: pure functions, no file system. Each
// finding says what it found and why it matters; the heuristic ones say they are heuristics.

import type { Position } from '../model/types';
import { collapseWhitespace } from '../util/text';

/** high: acts against the user or hides what it does; medium: worth a look; low: heuristic; info: listed. */
export type AuditSeverity = 'high' | 'medium' | 'low' | 'info';

export const SEVERITY_ORDER: readonly AuditSeverity[] = ['high', 'medium', 'low', 'info'];

export type AuditCode =
  | 'invisible-character'
  | 'download-and-run'
  | 'encoded-blob'
  | 'script'
  | 'native-binary'
  | 'link-outside'
  | 'link-to-neighbour'
  | 'file-too-large'
  | 'archive'
  | 'unrestricted-shell'
  | 'model-directed-text'
  | 'hidden-instruction'
  | 'secret-in-url'
  | 'install-hook'
  | 'archive-entry-outside'
  | 'hard-link';

export interface AuditFinding {
  code: AuditCode;
  severity: AuditSeverity;
  message: string;
  /** The file, relative to the skill folder, `/`-separated. */
  file: string;
  /** Zero-based, as diagnostics count; absent for findings about a whole file. */
  position?: Position;
}

const SEVERITY_OF: Readonly<Record<AuditCode, AuditSeverity>> = {
  'invisible-character': 'high',
  'download-and-run': 'high',
  'native-binary': 'high',
  'link-outside': 'high',
  'hidden-instruction': 'high',
  'secret-in-url': 'high',
  'install-hook': 'high',
  'archive-entry-outside': 'high',
  'link-to-neighbour': 'medium',
  'unrestricted-shell': 'medium',
  'encoded-blob': 'medium',
  archive: 'medium',
  'file-too-large': 'medium',
  'hard-link': 'medium',
  'model-directed-text': 'low',
  script: 'info',
};

export function finding(code: AuditCode, message: string, file: string, position?: Position): AuditFinding {
  return position ? { code, severity: SEVERITY_OF[code], message, file, position } : { code, severity: SEVERITY_OF[code], message, file };
}

/** More findings of one kind in one file add nothing; the rest is counted in the last one. */
const MAX_FINDINGS_PER_RULE_AND_FILE = 5;

// ---- Invisible and direction-changing characters ------------------------------------------------

const INVISIBLE_NAMES: ReadonlyMap<number, string> = new Map([
  [0x200b, 'ZERO WIDTH SPACE'],
  [0x200c, 'ZERO WIDTH NON-JOINER'],
  [0x200d, 'ZERO WIDTH JOINER'],
  [0x200e, 'LEFT-TO-RIGHT MARK'],
  [0x200f, 'RIGHT-TO-LEFT MARK'],
  [0x202a, 'LEFT-TO-RIGHT EMBEDDING'],
  [0x202b, 'RIGHT-TO-LEFT EMBEDDING'],
  [0x202c, 'POP DIRECTIONAL FORMATTING'],
  [0x202d, 'LEFT-TO-RIGHT OVERRIDE'],
  [0x202e, 'RIGHT-TO-LEFT OVERRIDE'],
  [0x2060, 'WORD JOINER'],
  [0x2061, 'FUNCTION APPLICATION'],
  [0x2062, 'INVISIBLE TIMES'],
  [0x2063, 'INVISIBLE SEPARATOR'],
  [0x2064, 'INVISIBLE PLUS'],
  [0x2066, 'LEFT-TO-RIGHT ISOLATE'],
  [0x2067, 'RIGHT-TO-LEFT ISOLATE'],
  [0x2068, 'FIRST STRONG ISOLATE'],
  [0x2069, 'POP DIRECTIONAL ISOLATE'],
  [0x061c, 'ARABIC LETTER MARK'],
  [0x180e, 'MONGOLIAN VOWEL SEPARATOR'],
  [0xfeff, 'ZERO WIDTH NO-BREAK SPACE'],
]);
const INVISIBLE_CLASS = String.raw`\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\u061C\u180E\uFEFF`;
const INVISIBLE = new RegExp(String.raw`[${INVISIBLE_CLASS}]|\u{E0000}|[\u{E0001}-\u{E007F}]+`, 'gu');
/** What a quote from a file must not carry as it is: control characters, invisible ones, tags. */
const UNQUOTABLE = new RegExp(String.raw`[\u0000-\u001F\u007F-\u009F${INVISIBLE_CLASS}\u{E0000}-\u{E007F}]`, 'gu');
const TAG_BLACK_FLAG = 0x1f3f4;
/** Joiners belong in emoji sequences and in scripts that shape letters with them (Persian, Indic…). */
const JOINER_CONTEXT = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\u{FE0F}]|(?![A-Za-z])\p{L}|\p{M}/u;

/**
 * Characters a reader does not see: bidi controls (which reorder what is shown, as in "Trojan
 * Source"), zero-width characters, and Unicode tag characters, which spell hidden ASCII a model
 * reads. Legitimate uses are left alone: a byte order mark at the start, joiners inside emoji or
 * between letters of scripts that need them, and the tags of a subdivision flag emoji.
 */
export function findInvisibleCharacters(text: string, file: string): AuditFinding[] {
  const findings: AuditFinding[] = [];
  let count = 0;
  for (const match of text.matchAll(INVISIBLE)) {
    const index = match.index;
    const code = match[0].codePointAt(0) ?? 0;
    if ((code === 0xfeff && index === 0) || ((code === 0x200c || code === 0x200d) && joinsVisibleCharacters(text, index, match[0].length))) {
      continue;
    }
    if (code >= 0xe0000 && text.codePointAt(index - 2) === TAG_BLACK_FLAG) {
      continue;
    }
    if (++count > MAX_FINDINGS_PER_RULE_AND_FILE) {
      continue;
    }
    const what =
      code >= 0xe0000
        ? `Unicode tag characters spelling hidden text "${hiddenAscii(match[0])}"`
        : `an invisible ${INVISIBLE_NAMES.get(code) ?? 'character'} (U+${code.toString(16).toUpperCase().padStart(4, '0')})`;
    findings.push(finding('invisible-character', `${what}: a reader does not see it, a model does.`, file, positionAt(text, index)));
  }
  return withOverflow(findings, count, 'invisible characters');
}

function joinsVisibleCharacters(text: string, index: number, length: number): boolean {
  const before = String.fromCodePoint(text.codePointAt(index - 1) ?? 0x20);
  const previous = index >= 2 && /[\uDC00-\uDFFF]/.test(before) ? String.fromCodePoint(text.codePointAt(index - 2) ?? 0x20) : before;
  const next = String.fromCodePoint(text.codePointAt(index + length) ?? 0x20);
  return JOINER_CONTEXT.test(previous) && JOINER_CONTEXT.test(next);
}

function hiddenAscii(tags: string): string {
  return Array.from(tags, (char) => String.fromCharCode((char.codePointAt(0) ?? 0) - 0xe0000))
    .join('')
    .replace(/[^\x20-\x7e]/g, '?')
    .slice(0, 80);
}

// ---- Encoded blobs ------------------------------------------------------------------------------

const BASE64_BLOB = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/]{200,}={0,2}(?![A-Za-z0-9+/_-])/g;
const HEX_BLOB = /(?<![0-9A-Za-z])(?:0x)?[0-9a-fA-F]{128,}(?![0-9A-Za-z])/g;
/** An embedded picture is not hidden code. */
const IMAGE_DATA_URI = /data:image\/(?:png|jpe?g|gif|webp|avif|bmp|x-icon);base64,$/i;

/**
 * Long base64 or hex runs: a payload nobody reads, which an instruction may decode and run. A
 * picture is not one: declared as such in a data: URI, or recognised by its decoded leading bytes.
 */
export function findEncodedBlobs(text: string, file: string): AuditFinding[] {
  const findings: AuditFinding[] = [];
  let count = 0;
  for (const [pattern, kind] of [
    [BASE64_BLOB, 'base64'],
    [HEX_BLOB, 'hex'],
  ] as const) {
    for (const match of text.matchAll(pattern)) {
      const blob = match[0];
      // Base64 of real data mixes cases and digits; a long run of one letter class is not a payload.
      if (kind === 'base64' && !(/[a-z]/.test(blob) && /[A-Z]/.test(blob) && /[0-9]/.test(blob))) {
        continue;
      }
      if (kind === 'base64' && (IMAGE_DATA_URI.test(text.slice(Math.max(0, match.index - 40), match.index)) || imageKind(Buffer.from(blob.slice(0, 1024), 'base64')))) {
        continue;
      }
      if (++count <= MAX_FINDINGS_PER_RULE_AND_FILE) {
        findings.push(finding('encoded-blob', `A ${blob.length.toLocaleString('en-US')}-character ${kind} blob: its content is not readable as it stands.`, file, positionAt(text, match.index)));
      }
    }
  }
  return withOverflow(findings, count, 'encoded blobs');
}

// ---- Text addressed to the model ----------------------------------------------------------------

/** Asking the model to drop its instructions: said to forbid it, or quoted, it is a rule, not a request. */
const IGNORE_INSTRUCTIONS =
  /\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+)?(?:previous|prior|above|earlier|preceding|system|original|other)\s+(?:instructions|prompts?|rules|guidelines|directions)\b/i;
const KEEP_FROM_USER: readonly RegExp[] = [
  /\b(?:do\s+not|don['’]t|never)\s+(?:tell|inform|mention\s+(?:this\s+)?to|reveal\s+(?:this\s+)?to|show\s+(?:this\s+)?to|let|notify|alert)\s+the\s+user(?:\s+know)?\b/i,
  /\bwithout\s+(?:telling|informing|notifying|alerting)\s+the\s+user\b/i,
  /\b(?:hide|conceal|keep)\s+(?:this|these|it|that|them|the\s+\w+)\s+(?:secret\s+)?from\s+the\s+user\b/i,
  /\bthe\s+user\s+(?:must|should)\s+not\s+(?:know|see|find\s+out|be\s+told)\b/i,
];
/** Words before an instruction, in its sentence, that forbid it or cite it as an example of an attack. */
const FORBIDDING = /\b(?:never|not|cannot|refuse|reject|resist|avoid|warn|detect|flag|such\s+as|e\.g\.|for\s+example|injections?|attacks?)\b|n['’]t\b/i;
const OPENING_QUOTE = /["'`“‘«]$/;

/** Whether the words at `index` are quoted, or their sentence forbids them before they start. */
export function forbidsOrQuotes(text: string, index: number): boolean {
  const before = text.slice(0, index);
  // "e.g." and its kin do not end a sentence.
  const start = before.replace(/\b(?:e\.g|i\.e|cf|etc|vs)\./gi, (abbreviation) => abbreviation.replace(/\./g, ' ')).search(/[^.!?;:]*$/);
  const sentence = before.slice(start);
  return OPENING_QUOTE.test(before) || FORBIDDING.test(sentence);
}

/**
 * Heuristic: sentences asking the model to ignore its instructions or to keep something from the
 * user. Plain words can say this innocently (a security skill describing attacks), so these are
 * low; a request to ignore instructions that its sentence forbids, or that is quoted, is left alone.
 */
export function findModelDirectedText(text: string, file: string): AuditFinding[] {
  const findings: AuditFinding[] = [];
  forEachLine(text, (line, lineIndex) => {
    const ignore = IGNORE_INSTRUCTIONS.exec(line);
    const match =
      ignore && !forbidsOrQuotes(line, ignore.index) ? ignore : KEEP_FROM_USER.map((pattern) => pattern.exec(line)).find((found) => found && !OPENING_QUOTE.test(line.slice(0, found.index)));
    if (match) {
      findings.push(
        finding('model-directed-text', `Heuristic: text that may ask the model to ignore its instructions or keep something from the user: "${quoted(match[0])}".`, file, {
          line: lineIndex,
          column: match.index,
        }),
      );
    }
  });
  return capped(findings, 'such lines');
}

// ---- Links leaving the folder -----------------------------------------------------------------

/** A link's text holds no bracket here, so a line of "[[[[" costs linear time. */
export const MARKDOWN_LINK = /!?\[[^[\]\n]{0,1000}\]\(\s*<?([^)\s>]+)>?(?:\s+["'][^)]*["'])?\s*\)|^\s*\[[^[\]\n]{1,1000}\]:\s*<?(\S+?)>?(?:\s|$)/gm;

/**
 * Markdown links and images to local files outside the skill folder. To an absolute path, a home
 * folder, a `file:` URL or a hidden file or folder (`.env`, `.ssh/…`), high: installed, they reach
 * the user's own files. A relative path up into a neighbouring folder of the source (another skill
 * of the same collection, as collections often do), medium: once installed alone it points at
 * whatever the user has there, or nothing.
 */
export function findLinksOutside(text: string, file: string): AuditFinding[] {
  const findings: AuditFinding[] = [];
  let count = 0;
  const fileDir = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
  for (const match of text.matchAll(MARKDOWN_LINK)) {
    const target = match[1] ?? match[2];
    const reach = linkReach(target, fileDir);
    if (reach === 'inside' || ++count > MAX_FINDINGS_PER_RULE_AND_FILE) {
      continue;
    }
    findings.push(
      reach === 'user-files'
        ? finding('link-outside', `A link to "${target}", outside the skill folder: once installed it points at the user's own files.`, file, positionAt(text, match.index))
        : finding(
            'link-to-neighbour',
            `A link to "${target}", a neighbouring folder of the source: once installed alone it points at whatever the user has there, or nothing.`,
            file,
            positionAt(text, match.index),
          ),
    );
  }
  return withOverflow(findings, count, 'links leaving the folder');
}

function linkReach(target: string, fileDir: string): 'inside' | 'neighbour' | 'user-files' {
  if (/^file:/i.test(target)) {
    return 'user-files';
  }
  // A scheme has two letters at least: `C:` starts a Windows path.
  if (/^[a-z][a-z0-9+.-]+:/i.test(target) || target.startsWith('#') || target.startsWith('//')) {
    return 'inside'; // A web address, another scheme, or an anchor in the same file.
  }
  const pathPart = decodeSafely(target.split(/[?#]/)[0]);
  if (pathPart.startsWith('/') || pathPart.startsWith('~') || /^[A-Za-z]:[\\/]/.test(pathPart)) {
    return 'user-files';
  }
  let depth = fileDir === '' ? 0 : fileDir.split('/').length;
  let left = false;
  for (const part of pathPart.split(/[\\/]/)) {
    if (part === '..') {
      left ||= --depth < 0;
    } else if (part !== '.' && part !== '') {
      depth++;
      if (left && part.startsWith('.')) {
        return 'user-files';
      }
    }
  }
  return left ? 'neighbour' : 'inside';
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

// ---- allowed-tools ------------------------------------------------------------------------------

const SHELL_TOOLS = /^(?:bash|shell|sh|zsh|powershell|pwsh|terminal|run_shell_command|run_terminal_cmd|runinterminal|execute|exec|command|computer)$/i;

/**
 * Entries of `allowed-tools` that grant a shell without restricting the command: `Bash`,
 * `Bash(*)`, `Bash(*:*)`… (`Bash(git:*)` names its command, and is fine).
 */
export function findUnrestrictedShell(allowedTools: readonly string[], file: string, position: Position | undefined): AuditFinding[] {
  return allowedTools
    .filter((tool) => {
      const match = /^([\w.-]+)\s*(?:\((.*)\))?$/.exec(tool.trim());
      return match !== null && SHELL_TOOLS.test(match[1]) && (match[2] === undefined || /^[\s*:]*$/.test(match[2]));
    })
    .map((tool) => finding('unrestricted-shell', `allowed-tools grants "${tool}": any shell command runs without asking. Name the commands instead, e.g. "Bash(git status:*)".`, file, position));
}

/** The entries of an `allowed-tools` value: a space- or comma-separated string, or a YAML list. */
export function allowedToolEntries(value: unknown): string[] {
  if (Array.isArray(value)) {
    return value.filter((entry): entry is string => typeof entry === 'string');
  }
  return typeof value === 'string' ? (value.match(/[^\s,()]+(?:\([^)]*\))?/g) ?? []) : [];
}

// ---- Whole files ------------------------------------------------------------------------------

const SCRIPT_EXTENSIONS: ReadonlyMap<string, string> = new Map([
  ['sh', 'sh'],
  ['bash', 'bash'],
  ['zsh', 'zsh'],
  ['fish', 'fish'],
  ['py', 'python'],
  ['js', 'node'],
  ['mjs', 'node'],
  ['cjs', 'node'],
  ['ts', 'a TypeScript runner'],
  ['rb', 'ruby'],
  ['pl', 'perl'],
  ['php', 'php'],
  ['lua', 'lua'],
  ['ps1', 'PowerShell'],
  ['psm1', 'PowerShell'],
  ['bat', 'cmd.exe'],
  ['cmd', 'cmd.exe'],
  ['vbs', 'Windows Script Host'],
  ['applescript', 'osascript'],
]);

/** A file that runs: its shebang's interpreter, else its extension's. */
export function scriptInterpreter(file: string, head: Buffer): string | undefined {
  if (head[0] === 0x23 && head[1] === 0x21) {
    const line = head.subarray(2, Math.min(head.length, 200)).toString('utf8').split('\n')[0].trim();
    const [command, ...args] = line.split(/\s+/);
    const base = command.split('/').pop() ?? command;
    return base === 'env' ? (args.find((arg) => !arg.startsWith('-')) ?? 'env') : base;
  }
  return SCRIPT_EXTENSIONS.get(extensionOf(file));
}

/** ELF, Mach-O (thin or fat) and PE executables and libraries, by their leading bytes. */
export function nativeBinaryKind(head: Buffer): string | undefined {
  if (head.length < 4) {
    return undefined;
  }
  const magic = head.readUInt32BE(0);
  if (magic === 0x7f454c46) {
    return 'ELF';
  }
  if ([0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe].includes(magic)) {
    return 'Mach-O';
  }
  // 0xCAFEBABE also starts Java class files; a fat Mach-O follows it with a small architecture count.
  if (magic === 0xcafebabe && head.length >= 8 && head.readUInt32BE(4) < 32) {
    return 'Mach-O (universal)';
  }
  if (head[0] === 0x4d && head[1] === 0x5a && head.length >= 0x40) {
    const peOffset = head.readUInt32LE(0x3c);
    if (peOffset + 4 <= head.length && head.readUInt32BE(peOffset) === 0x50450000) {
      return 'PE (Windows)';
    }
  }
  return undefined;
}

/** PNG, JPEG, GIF and WebP by their leading bytes, and SVG by its leading markup. */
export function imageKind(head: Buffer): string | undefined {
  const starts = (bytes: string, at = 0): boolean => head.subarray(at, at + bytes.length / 2).equals(Buffer.from(bytes, 'hex'));
  if (starts('89504e470d0a1a0a') && starts('49484452', 12)) {
    return 'PNG';
  }
  if (starts('ffd8ff') && head.length > 3 && (head[3] >= 0xc0 || head[3] === 0x01)) {
    return 'JPEG';
  }
  if (starts('474946383761') || starts('474946383961')) {
    return 'GIF';
  }
  if (starts('52494646') && starts('57454250', 8)) {
    return 'WebP';
  }
  const markup = head.toString('utf8').replace(/^\uFEFF/, '');
  return /^\s*(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*(?:<!DOCTYPE[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*<svg[\s>]/i.test(markup) ? 'SVG' : undefined;
}

const ARCHIVE_EXTENSIONS: ReadonlySet<string> = new Set([
  'zip',
  'tar',
  'gz',
  'tgz',
  'bz2',
  'tbz2',
  'xz',
  'txz',
  'zst',
  '7z',
  'rar',
  'jar',
  'war',
  'whl',
  'egg',
  'cab',
  'msi',
  'dmg',
  'iso',
  'deb',
  'rpm',
  'apk',
  'crx',
  'vsix',
  'nupkg',
]);
/** Office and other documents are zip containers too, but are opened, not unpacked. */
const DOCUMENT_CONTAINERS: ReadonlySet<string> = new Set(['docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp', 'epub', 'key', 'pages', 'numbers']);

/** Archives hide their content from a review of the folder: by extension, or by zip/gzip/7z/rar/xz/bzip2 magic. */
export function archiveKind(file: string, head: Buffer): string | undefined {
  const extension = extensionOf(file);
  if (DOCUMENT_CONTAINERS.has(extension)) {
    return undefined;
  }
  if (ARCHIVE_EXTENSIONS.has(extension)) {
    return `.${extension}`;
  }
  const starts = (...bytes: number[]): boolean => bytes.every((byte, index) => head[index] === byte);
  if (starts(0x50, 0x4b, 0x03, 0x04)) {
    return 'zip';
  }
  if (starts(0x1f, 0x8b)) {
    return 'gzip';
  }
  if (starts(0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c)) {
    return '7z';
  }
  if (starts(0x52, 0x61, 0x72, 0x21)) {
    return 'rar';
  }
  if (starts(0xfd, 0x37, 0x7a, 0x58, 0x5a)) {
    return 'xz';
  }
  return starts(0x42, 0x5a, 0x68) ? 'bzip2' : undefined;
}

// ---- Helpers ------------------------------------------------------------------------------------

function extensionOf(file: string): string {
  const name = file.slice(file.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

function forEachLine(text: string, visit: (line: string, index: number) => void): void {
  text.split('\n').forEach((line, index) => visit(line.endsWith('\r') ? line.slice(0, -1) : line, index));
}

/** Zero-based line and column (in UTF-16 code units, as editors count) of a string index. */
export function positionAt(text: string, index: number): Position {
  const lineStart = text.lastIndexOf('\n', index - 1) + 1;
  let line = 0;
  for (let at = text.indexOf('\n'); at >= 0 && at < index; at = text.indexOf('\n', at + 1)) {
    line++;
  }
  return { line, column: index - lineStart };
}

/** The first MAX_FINDINGS_PER_RULE_AND_FILE findings, in order, the rest counted in the last. */
export function capped(findings: readonly AuditFinding[], what: string): AuditFinding[] {
  return withOverflow(findings.slice(0, MAX_FINDINGS_PER_RULE_AND_FILE), findings.length, what);
}

/** As `capped`, for findings at offsets of `text`, first to last: only the positions kept are worked out. */
export function cappedAt(text: string, file: string, what: string, found: readonly { offset: number; code: AuditCode; message: string }[]): AuditFinding[] {
  const kept = [...found].sort((a, b) => a.offset - b.offset).slice(0, MAX_FINDINGS_PER_RULE_AND_FILE);
  return withOverflow(
    kept.map(({ offset, code, message }) => finding(code, message, file, positionAt(text, offset))),
    found.length,
    what,
  );
}

/**
 * Text from a file, fit to quote in a finding: one line, control and invisible characters shown as
 * "?" (so a quote cannot move a terminal's cursor or reorder what is shown), cut to `max` characters.
 */
export function quoted(text: string, max = 120): string {
  const shown = collapseWhitespace(text).replace(UNQUOTABLE, '?');
  return shown.length > max ? `${shown.slice(0, max - 1)}…` : shown;
}

function withOverflow(findings: AuditFinding[], count: number, what: string): AuditFinding[] {
  if (count > findings.length && findings.length > 0) {
    const last = findings[findings.length - 1];
    findings[findings.length - 1] = { ...last, message: `${last.message} (${count - findings.length} more ${what} in this file)` };
  }
  return findings;
}
