// Skill arguments: split like a shell, then substituted into the body's placeholders.

/**
 * Splits an argument string like a shell does: whitespace separates, single and double quotes
 * group, and a backslash escapes a quote, a backslash or a space (other backslashes stay, so
 * Windows paths survive).
 */
export function splitArguments(input: string): string[] {
  const args: string[] = [];
  let current = '';
  let inArgument = false;
  let quote: string | undefined;
  for (let index = 0; index < input.length; index++) {
    const char = input[index];
    const next = input[index + 1];
    if (quote) {
      if (char === quote) {
        quote = undefined;
      } else if (char === '\\' && quote === '"' && (next === '"' || next === '\\')) {
        current += next;
        index++;
      } else {
        current += char;
      }
    } else if (/\s/.test(char)) {
      if (inArgument) {
        args.push(current);
        current = '';
        inArgument = false;
      }
    } else if (char === '"' || char === "'") {
      quote = char;
      inArgument = true;
    } else if (char === '\\' && next !== undefined && /[\s"'\\]/.test(next)) {
      current += next;
      index++;
      inArgument = true;
    } else {
      current += char;
      inArgument = true;
    }
  }
  if (inArgument) {
    args.push(current);
  }
  return args;
}

// `\$…` keeps a placeholder literal; `$ARGUMENTS[N]` and `$N` are 0-based.
const PLACEHOLDER = /\\(\$(?:ARGUMENTS|\d+))|\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS(?!\w)|\$(\d+)/g;

/**
 * Substitutes `$ARGUMENTS` (the whole string), `$ARGUMENTS[N]` and `$N` (the N-th argument).
 * Placeholders without a value become empty, so a skill run without arguments reads cleanly.
 * When arguments are given but the body has no placeholder, they are appended so they are not lost.
 */
export function substituteArguments(body: string, argumentText = ''): string {
  const whole = argumentText.trim();
  const args = splitArguments(whole);
  let substituted = false;
  const text = body.replace(PLACEHOLDER, (_match, escaped: string | undefined, indexed: string | undefined, positional: string | undefined) => {
    if (escaped !== undefined) {
      return escaped;
    }
    substituted = true;
    const index = indexed ?? positional;
    return index === undefined ? whole : (args[Number(index)] ?? '');
  });
  return !substituted && whole !== '' ? `${text}\n\nARGUMENTS: ${whole}` : text;
}
