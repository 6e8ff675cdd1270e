// Instructions that fetch code and run it at once, so nothing is looked at before it runs: a
// download piped into an interpreter (also when the command goes on over lines), run through eval
// or process substitution, saved and then run, or fetched by Python or JavaScript and passed to
// exec or eval. Each line is read in one pass, so a hostile file costs linear time.

import type { Position } from '../model/types';
import { capped, finding, quoted, type AuditFinding } from './rules';

/** Words one of the command rules needs: a file or line without any is not looked at further. */
const MAY_FETCH_OR_DECODE = /curl|wget|fetch|base64|iwr|irm|invoke-|iex|download/i;
const INTERPRETER = String.raw`(?:(?:/usr)?/bin/)?(?:ba|z|k|da|fi)?sh|python[0-9.]*|perl|ruby|node|"?\$\{?SHELL\}?"?`;

/**
 * One pass over a command line: a download (1) or a base64 decode (2); the end of a command (3);
 * a pipe (4) into an interpreter or Invoke-Expression, with the words it is given (5).
 */
const PIPELINE_TOKEN = new RegExp(
  [
    String.raw`\b(curl|wget|fetch|iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b`,
    String.raw`(\bbase64\s+(?:-d|--decode|-D)\b|\[(?:System\.)?Convert\]::FromBase64String)`,
    String.raw`(\|\||&&?|;)`,
    String.raw`\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+)?(${INTERPRETER}|iex\b|Invoke-Expression\b)(?![\w.$-])([^|;&)"'\x60]*)`,
  ].join('|'),
  'gi',
);

/** Whole commands that run a download. */
const RUNS: readonly { pattern: RegExp; what: (match: RegExpExecArray) => string }[] = [
  { pattern: /(?:(?:ba|z)?sh|source|\.)\s+<\(\s*(?:curl|wget)\b/i, what: () => 'runs a download through process substitution' },
  {
    pattern: /\b(eval|(?:ba|z|k|da)?sh\s+-c|python[0-9.]*\s+-c|(?:node|perl|ruby)\s+-e)\s+["']?(?:\$\(|`)\s*(?:curl|wget|fetch)\b/i,
    what: (match) => `runs a download with ${match[1].replace(/\s+/g, ' ')}`,
  },
  {
    pattern: /\b(?:iex|Invoke-Expression)\b[\s(]*(?:New-Object\s+(?:System\.)?Net\.WebClient\)?\.DownloadString|iwr|irm|Invoke-WebRequest|Invoke-RestMethod)/i,
    what: () => 'runs a download with Invoke-Expression',
  },
];

/** Options that give an interpreter its program on the command line, so it does not read its input. */
const PROGRAM_OPTIONS: readonly { interpreter: RegExp; shortOptions: RegExp; longOptions: RegExp }[] = [
  { interpreter: /^python/i, shortOptions: /[cm]/, longOptions: /^--(?:command|module)$/ },
  { interpreter: /^node$/i, shortOptions: /[ep]/, longOptions: /^--(?:eval|print)$/ },
  { interpreter: /^(?:perl|ruby)$/i, shortOptions: /[eE]/, longOptions: /^--eval$/ },
];
/** Shells: `-c` gives the program; `-s` reads it from the input, what follows being its arguments. */
const SHELL_OPTIONS = { shortOptions: /c/, longOptions: /^--command$/ };

/** Whether `interpreter`, given `words`, runs what it reads from its input (no script, no -c/-e/-m). */
function readsProgramFromInput(interpreter: string, words: string): boolean {
  const name = interpreter.replace(/^.*\//, '').replace(/["${}]/g, '');
  const options = PROGRAM_OPTIONS.find((candidate) => candidate.interpreter.test(name)) ?? SHELL_OPTIONS;
  for (const word of words
    .replace(/\s#.*$/, '')
    .trim()
    .split(/\s+/)) {
    if (word === '' || word === '-') {
      return true; // The end of the command, or `-`: the program is the input.
    }
    if (/^\d*[<>]/.test(word) || word === '--') {
      continue; // A redirection, or the end of the options.
    }
    if (word.startsWith('--')) {
      if (options.longOptions.test(word.split('=')[0])) {
        return false;
      }
    } else if (word.startsWith('-')) {
      if (options.shortOptions.test(word.slice(1))) {
        return false;
      }
      if (options === SHELL_OPTIONS && word.includes('s')) {
        return true;
      }
    } else {
      return false; // A script file: the input is its data.
    }
  }
  return true;
}

/** A command line as the shell reads it: one or more physical lines, and where each starts. */
interface CommandLine {
  text: string;
  pieces: { offset: number; line: number; column: number }[];
}

/**
 * A Markdown table row as commands: a bare `|` between cells ends one (`;`), an escaped `\|` or a
 * `|` in a code span is a pipe, as a model reading the text takes it. Same length, so columns stay.
 */
function tableCells(row: string): string {
  let inCode = false;
  return row.replace(/`+|\\\||\|/g, (token) => {
    if (token.startsWith('`')) {
      inCode = !inCode;
      return token;
    }
    return token !== '|' ? ' |' : inCode ? '|' : ';';
  });
}

/**
 * The text's lines joined as a shell joins them: a line ending in `\` (or PowerShell's backtick)
 * goes on on the next, and so does one ending in `|`, `&&` or `||`; a Markdown table row is cells.
 */
function commandLines(text: string): CommandLine[] {
  const result: CommandLine[] = [];
  let current: CommandLine | undefined;
  text.split('\n').forEach((raw, line) => {
    const physical = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const readable = current === undefined && /^\s*\|/.test(physical) ? tableCells(physical) : physical;
    const indent = current ? readable.length - readable.trimStart().length : 0;
    current ??= { text: '', pieces: [] };
    current.pieces.push({ offset: current.text.length, line, column: indent });
    const piece = readable.slice(indent).trimEnd();
    if (/\\$|\s`$/.test(piece)) {
      current.text += `${piece.slice(0, -1)} `;
    } else if (/(?:\||&&)$/.test(piece)) {
      current.text += `${piece} `;
    } else {
      current.text += piece;
      result.push(current);
      current = undefined;
    }
  });
  if (current) {
    result.push(current);
  }
  return result;
}

function positionIn(command: CommandLine, index: number): Position {
  let low = 0;
  let high = command.pieces.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (command.pieces[middle].offset <= index) {
      low = middle;
    } else {
      high = middle - 1;
    }
  }
  const piece = command.pieces[low];
  return { line: piece.line, column: piece.column + index - piece.offset };
}

interface Candidate {
  position: Position;
  what: string;
  quote: string;
}

/** What a download is given when a text names the pattern rather than a command: nothing, `…` or `<url>`. */
const NO_ADDRESS = /^\s*(?:(?:…|\.{3}|<[^<>]*>)\s*)*$/;

/**
 * A download or a decode piped, in the same command, into an interpreter that reads its program
 * from its input; or piped into Invoke-Expression anywhere later on the line (PowerShell keeps
 * values across `;`). A download given no address (`curl … | sh`) names the pattern: not reported.
 */
function pipedIntoInterpreter(command: CommandLine): Candidate | undefined {
  let inCommand: { index: number; end: number; decodes: boolean } | undefined;
  let onLine: typeof inCommand;
  const found = (source: NonNullable<typeof inCommand>, into: string, pipe: number): Candidate | undefined =>
    !source.decodes && NO_ADDRESS.test(command.text.slice(source.end, pipe))
      ? undefined
      : { position: positionIn(command, source.index), what: `${source.decodes ? 'decodes base64' : 'pipes a download'} into ${into}`, quote: command.text };
  for (const token of command.text.matchAll(PIPELINE_TOKEN)) {
    if (token[1] !== undefined || token[2] !== undefined) {
      inCommand = onLine = { index: token.index, end: token.index + token[0].length, decodes: token[2] !== undefined };
    } else if (token[3] !== undefined) {
      inCommand = undefined;
    } else if (/^(?:iex|Invoke-Expression)$/i.test(token[4])) {
      const candidate = onLine && found(onLine, 'Invoke-Expression', token.index);
      if (candidate) {
        return candidate;
      }
    } else if (inCommand && readsProgramFromInput(token[4], token[5])) {
      const candidate = found(inCommand, 'an interpreter', token.index);
      if (candidate) {
        return candidate;
      }
    }
  }
  return undefined;
}

function runsDownload(command: CommandLine): Candidate | undefined {
  for (const { pattern, what } of RUNS) {
    const match = pattern.exec(command.text);
    if (match) {
      return { position: positionIn(command, match.index), what: what(match), quote: command.text };
    }
  }
  return undefined;
}

// ---- A download saved, then run ----------------------------------------------------------------

/** How much of one command its words are read from: more than any real command needs. */
const MAX_COMMAND_READ = 2000;
const DOWNLOAD_COMMAND = /\b(curl|wget|iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b/i;
/** curl's and wget's short options that take no value, which may come before -o / -O in one cluster. */
const CURL_FLAGS = '[fsSLkvigIN46Zq#]*';
const WGET_FLAGS = '[qvcNkrSb]*';
/**
 * How each downloader names the file it saves: an option before it (`named`), or joined to it
 * (`attached`, `long=FILE`); and when it saves under the last part of the address instead.
 */
const SAVE_OPTIONS: Readonly<Record<string, { named: RegExp; attached?: RegExp; long: string; byAddress?: RegExp | 'always' }>> = {
  curl: { named: new RegExp(`^-${CURL_FLAGS}o$`), attached: new RegExp(`^-${CURL_FLAGS}o(.+)$`), long: '--output', byAddress: new RegExp(`^(?:-${CURL_FLAGS}O|--remote-name)$`) },
  wget: { named: new RegExp(`^-${WGET_FLAGS}O$`), attached: new RegExp(`^-${WGET_FLAGS}O(.+)$`), long: '--output-document', byAddress: 'always' },
  powershell: { named: /^-OutFile$/i, long: '-OutFile' },
};
/** `(New-Object Net.WebClient).DownloadFile(address, file)`, a call, not a command's words. */
const DOWNLOAD_FILE_CALL = /\.DownloadFile\(\s*[^,\n]{0,200},\s*(["'])([^"'\n]{1,500})\1/gi;

/** The file a simple command saves its download in: curl -o/--output/-O/`>`, wget -O or its default name, iwr -OutFile. */
function savedAs(command: string): string | undefined {
  const found = DOWNLOAD_COMMAND.exec(command);
  if (!found) {
    return undefined;
  }
  const tool = found[1].toLowerCase();
  const options = SAVE_OPTIONS[tool === 'curl' || tool === 'wget' ? tool : 'powershell'];
  const words = command
    .slice(found.index + found[0].length, found.index + found[0].length + MAX_COMMAND_READ)
    .trim()
    .split(/\s+/)
    .map((word) => word.replace(/^["']|["')]+$/g, ''));
  let file: string | undefined;
  let byAddress = options.byAddress === 'always';
  words.forEach((word, index) => {
    const attached = options.attached?.exec(word)?.[1] ?? (word.startsWith(`${options.long}=`) ? word.slice(options.long.length + 1) : undefined);
    if (options.named.test(word) || word === options.long || word === '>' || word === '>>') {
      file = words[index + 1];
    } else if (attached !== undefined || /^>>?[^>&]/.test(word)) {
      file = attached ?? word.replace(/^>>?/, '');
    } else if (options.byAddress instanceof RegExp && options.byAddress.test(word)) {
      byAddress = true;
    }
  });
  if (file === undefined && byAddress) {
    file = words.find((word) => /^https?:\/\//i.test(word))?.match(/^https?:\/\/[^/]*\/(?:[^?#]*\/)?([^/?#]+)/i)?.[1];
  }
  return file === '-' || file === '/dev/null' ? undefined : file;
}

const RUN_BY = /^(?:(?:ba|z|k|da|fi)?sh|source|\.|python[0-9.]*|perl|ruby|node|pwsh|powershell(?:\.exe)?|&)$/i;
/** Where one command ends and the next starts. */
const COMMAND_SEPARATOR = /;|&&|\|\||\||\$\(|`|\(|\b(?:then|do|else)\b/g;

function baseName(file: string): string {
  return file.replace(/^["']|["']$/g, '').replace(/^.*[\\/]/, '');
}

/** The file a command runs as a program: after its interpreter, or the command itself given as a path. */
function programRun(command: string): string | undefined {
  const words = command
    .trimStart()
    .slice(0, MAX_COMMAND_READ)
    .replace(/^(?:(?:sudo|exec|time|nohup)\s+(?:-\S+\s+)*)+/, '')
    .split(/\s+/);
  if (RUN_BY.test(words[0] ?? '')) {
    return words.slice(1).find((word) => !word.startsWith('-'));
  }
  return /[\\/]/.test(words[0] ?? '') ? words[0] : undefined;
}

/** A command that runs a file an earlier command (or call) of the text saved a download in. */
function savedThenRun(commands: readonly CommandLine[]): Candidate[] {
  const found: Candidate[] = [];
  const saved = new Map<string, number>();
  for (const command of commands) {
    const mayDownload = MAY_FETCH_OR_DECODE.test(command.text);
    if (!mayDownload && saved.size === 0) {
      continue;
    }
    for (const call of mayDownload ? command.text.matchAll(DOWNLOAD_FILE_CALL) : []) {
      saved.set(baseName(call[2]), command.pieces[0].line);
    }
    let start = 0;
    const segments: { text: string; offset: number }[] = [];
    for (const separator of command.text.matchAll(COMMAND_SEPARATOR)) {
      segments.push({ text: command.text.slice(start, separator.index), offset: start });
      start = separator.index + separator[0].length;
    }
    segments.push({ text: command.text.slice(start), offset: start });
    for (const segment of segments) {
      const program = programRun(segment.text);
      const savedOn = program === undefined ? undefined : saved.get(baseName(program));
      if (program !== undefined && savedOn !== undefined) {
        const offset = segment.offset + segment.text.length - segment.text.trimStart().length;
        found.push({ position: positionIn(command, offset), what: `runs "${quoted(program, 60)}", downloaded on line ${savedOn + 1}`, quote: segment.text });
      }
      const file = mayDownload ? savedAs(segment.text) : undefined;
      if (file !== undefined) {
        saved.set(baseName(file), positionIn(command, segment.offset).line);
      }
    }
  }
  return found;
}

// ---- Python and JavaScript that pass what they fetch to exec or eval ---------------------------

const FETCH_CALL = /\b(?:urlopen|requests\.(?:get|post|request)|httpx\.(?:get|post|request)|fetch)\s*\(/;
const EXEC_CALL = /(?<![\w.])(?:exec|eval)\s*\(|\bnew\s+Function\s*\(/g;
const ASSIGNED = /^\s*(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)\s*(?::[^=]*)?=(?!=)(.*)$/;
const WITH_AS = /^\s*(?:async\s+)?with\b(.*)\bas\s+([A-Za-z_]\w*)\s*:?\s*$/;
/** Bounds on the names followed in one file, and on the calls looked at on one line. */
const MAX_FOLLOWED_NAMES = 100;
const MAX_CALLS_PER_LINE = 20;
/** How much of a call's argument is read. */
const MAX_ARGUMENT = 1000;

/**
 * Code that fetches text and runs it: `exec(urlopen(…).read())` on one line, or a name assigned
 * from a fetch (directly or through other names) and later passed to exec, eval or new Function.
 */
function fetchedThenExecuted(text: string): Candidate[] {
  const found: Candidate[] = [];
  const fetched: { name: RegExp; line: number }[] = [];
  const fetchedOn = (code: string, lineIndex: number): number | undefined => (FETCH_CALL.test(code) ? lineIndex : fetched.find(({ name }) => name.test(code))?.line);
  text.split('\n').forEach((line, lineIndex) => {
    let calls = 0;
    for (const call of line.matchAll(EXEC_CALL)) {
      const argumentStart = call.index + call[0].length;
      const from = fetchedOn(line.slice(argumentStart, argumentStart + MAX_ARGUMENT), lineIndex);
      if (from !== undefined) {
        const callee = call[0].replace(/\s*\($/, '');
        const what = from === lineIndex ? `passes a download to ${callee}` : `passes code downloaded on line ${from + 1} to ${callee}`;
        found.push({ position: { line: lineIndex, column: call.index }, what, quote: line });
        return;
      }
      if (++calls >= MAX_CALLS_PER_LINE) {
        break;
      }
    }
    if (fetched.length >= MAX_FOLLOWED_NAMES || (fetched.length === 0 && !FETCH_CALL.test(line))) {
      return;
    }
    const assignment = ASSIGNED.exec(line);
    const withAs = assignment ? null : WITH_AS.exec(line);
    const binding = assignment ? { name: assignment[1], value: assignment[2] } : withAs ? { name: withAs[2], value: withAs[1] } : undefined;
    const from = binding && fetchedOn(binding.value, lineIndex);
    if (binding && from !== undefined) {
      fetched.push({ name: new RegExp(String.raw`(?<![\w$.])${binding.name.replace(/\$/g, '\\$')}(?![\w$])`), line: from });
    }
  });
  return found;
}

// ---- The rule ----------------------------------------------------------------------------------

/** Commands that fetch code and run it at once, so nothing is looked at before it runs: one finding a line. */
export function findDownloadAndRun(text: string, file: string): AuditFinding[] {
  // Most files name no download at all: they are not split into commands.
  const commands = MAY_FETCH_OR_DECODE.test(text) ? commandLines(text) : [];
  const candidates = [
    ...commands.flatMap((command) => (MAY_FETCH_OR_DECODE.test(command.text) ? (pipedIntoInterpreter(command) ?? runsDownload(command) ?? []) : [])),
    ...savedThenRun(commands),
    ...(/\b(?:exec|eval|Function)\s*\(/.test(text) ? fetchedThenExecuted(text) : []),
  ];
  const byLine = new Map<number, Candidate>();
  for (const candidate of candidates) {
    if (!byLine.has(candidate.position.line)) {
      byLine.set(candidate.position.line, candidate);
    }
  }
  const findings = [...byLine.values()]
    .sort((a, b) => a.position.line - b.position.line)
    .map(({ position, what, quote }) => finding('download-and-run', `This ${what}: the code that runs is never shown to the user. "${quoted(quote)}"`, file, position));
  return capped(findings, 'download-and-run lines');
}
