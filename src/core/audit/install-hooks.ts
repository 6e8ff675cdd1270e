// Files that make a package manager or an interpreter run code when the skill's files are installed
// or used as a package: a Python .pth file, and npm's install-time scripts in a package.json.

import { finding, positionAt, quoted, type AuditFinding } from './rules';

/** The scripts `npm install` runs in a package's folder, or when it is installed from git. */
const INSTALL_SCRIPTS: readonly string[] = ['preinstall', 'install', 'postinstall', 'preprepare', 'prepare', 'postprepare'];

/** A Python `.pth` file, whatever it holds: Python reads it, whether this audit can or not. */
export function pthFileHook(file: string): AuditFinding[] {
  return /\.pth$/i.test(file) ? [finding('install-hook', 'A Python .pth file: once in a site-packages folder, its lines that start with "import" run each time Python starts.', file)] : [];
}

/** The install-time scripts of a `package.json`, each at its key. */
export function findInstallScripts(text: string, file: string): AuditFinding[] {
  if (file !== 'package.json' && !file.endsWith('/package.json')) {
    return [];
  }
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch {
    return []; // Not a manifest npm would read either.
  }
  const scripts = typeof manifest === 'object' && manifest !== null ? (manifest as { scripts?: unknown }).scripts : undefined;
  if (typeof scripts !== 'object' || scripts === null) {
    return [];
  }
  return INSTALL_SCRIPTS.filter((script) => typeof (scripts as Record<string, unknown>)[script] === 'string').map((script) => {
    const command = (scripts as Record<string, string>)[script];
    const key = new RegExp(String.raw`"${script}"\s*:`).exec(text);
    return finding(
      'install-hook',
      `An install-time script, "${script}": "${quoted(command, 80)}": npm runs it when the packages of this folder are installed.`,
      file,
      key ? positionAt(text, key.index) : undefined,
    );
  });
}
