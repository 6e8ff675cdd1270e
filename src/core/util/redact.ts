// Keeps secrets (an API key, a password in a URL) out of what is shown or written: messages,
// reports, files.

/** The user information of each URL in a text; the last `@` before the path ends it, as in URL parsers. */
const URL_USER_INFO = /([a-z][a-z0-9+.-]*:\/\/)([^/?#\s'"]*)@/gi;

/** What stands in for a secret that was taken out. */
export const REDACTED = '***';

/**
 * `text` with each secret replaced by `***` wherever it appears, as written, JSON-escaped or
 * percent-encoded (the ways a server or git echoes it back), and so also inside any longer word
 * that holds it. Empty secrets are ignored; longer ones go first, so a secret that holds another is
 * taken out whole.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret) {
      forms.add(secret);
      forms.add(JSON.stringify(secret).slice(1, -1));
      forms.add(encodeURIComponent(secret));
    }
  }
  let redacted = text;
  for (const form of [...forms].sort((a, b) => b.length - a.length)) {
    redacted = redacted.split(form).join(REDACTED);
  }
  return redacted;
}

/**
 * `text` (a URL, or a message quoting URLs) without the user information of its URLs: all of it, as
 * a user name over HTTP is often a token; for ssh:// only the password, as the user there is the
 * account to log in to.
 */
export function withoutCredentials(text: string): string {
  return text.replace(URL_USER_INFO, (_match, scheme: string, userInfo: string) => (/^ssh:/i.test(scheme) ? `${scheme}${userInfo.split(':')[0]}@` : scheme));
}

/** `text` (a message about `url`, such as git's) with the credentials of `url` taken out, inside URLs and anywhere else. */
export function hideCredentials(text: string, url: string): string {
  const userInfo = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)@/i.exec(url)?.[1];
  if (userInfo === undefined) {
    return withoutCredentials(text);
  }
  const colon = userInfo.indexOf(':');
  // A user name alone is often a token; beside a password it is kept out of URLs only.
  const secrets = colon < 0 ? [userInfo] : [userInfo.slice(colon + 1)];
  return redactSecrets(
    withoutCredentials(text),
    secrets.flatMap((secret) => [secret, safelyDecoded(secret)]),
  );
}

function safelyDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
