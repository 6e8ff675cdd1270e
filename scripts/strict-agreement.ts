// `npx tsx scripts/strict-agreement.ts DIR [--python-reference SRC] [--python EXE]`: how many skill
// folders under DIR get the same verdict (valid or not) from `agent-skills validate --strict` as
// from the specification's reference validator. Compared with the npm port of `skills-ref` (a
// devDependency) and, given `--python-reference` (the `skills-ref/src` folder of a checkout of
// agentskills/agentskills; its interpreter needs `strictyaml`), with the reference itself.
// Prints each disagreement and the totals; exits 1 when strict disagrees with the reference used
// last (the Python one when given).

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../src/cli/run';
import type { ValidatedSkillJson } from '../src/cli/validate-command';

type Verdicts = Map<string, string[]>;

/** The folders under `root` holding a SKILL.md (or skill.md, the reference's two spellings), nested ones included. */
function skillFolders(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    const entries = fs.readdirSync(dir, { withFileTypes: true });
    if (entries.some((entry) => entry.isFile() && (entry.name === 'SKILL.md' || entry.name === 'skill.md'))) {
      found.push(dir);
    }
    for (const entry of entries) {
      if (entry.isDirectory() && entry.name !== '.git' && entry.name !== 'node_modules') {
        walk(path.join(dir, entry.name));
      }
    }
  };
  walk(root);
  return found.sort();
}

/** Strict mode's errors per folder, from the command itself (each folder alone, as the reference sees it). */
async function strictVerdicts(folders: readonly string[]): Promise<Verdicts> {
  const verdicts: Verdicts = new Map();
  for (const folder of folders) {
    let output = '';
    await runCli(['validate', '--strict', '--json', folder], { stdout: (text) => (output += text), stderr: () => undefined, cwd: folder });
    const skill = (JSON.parse(output) as { skills: ValidatedSkillJson[] }).skills[0];
    verdicts.set(
      folder,
      skill?.valid ? [] : (skill?.diagnostics.filter((diagnostic) => diagnostic.severity === 'error').map((diagnostic) => `${diagnostic.code}: ${diagnostic.message}`) ?? ['no skill']),
    );
  }
  return verdicts;
}

async function npmReferenceVerdicts(folders: readonly string[]): Promise<Verdicts> {
  // skills-ref is ESM only: a real dynamic import, which tsx would otherwise turn into require().
  const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<{ validate(dir: string): Promise<string[]> }>;
  const { validate } = await importEsm('skills-ref');
  const verdicts: Verdicts = new Map();
  for (const folder of folders) {
    verdicts.set(folder, await validate(folder));
  }
  return verdicts;
}

const PYTHON_PROGRAM = `
import json, sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from skills_ref.validator import validate
print(json.dumps({folder: validate(Path(folder)) for folder in json.load(sys.stdin)}))
`;

function pythonReferenceVerdicts(folders: readonly string[], source: string, python: string): Verdicts {
  const result = spawnSync(python, ['-c', PYTHON_PROGRAM, path.resolve(source)], { input: JSON.stringify(folders), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) {
    throw new Error(`${python} could not run the reference in ${source}: ${result.stderr || result.error?.message}`);
  }
  return new Map(Object.entries(JSON.parse(result.stdout) as Record<string, string[]>));
}

function compare(label: string, root: string, strict: Verdicts, reference: Verdicts): number {
  let agreeing = 0;
  for (const [folder, ours] of strict) {
    const theirs = reference.get(folder) ?? ['no verdict'];
    if ((ours.length === 0) === (theirs.length === 0)) {
      agreeing++;
      continue;
    }
    console.log(`${path.relative(root, folder)}\n  ${label}: ${theirs.length === 0 ? 'valid' : theirs.join(' | ').replace(/\s+/g, ' ')}\n  strict: ${ours.length === 0 ? 'valid' : ours.join(' | ')}`);
  }
  const invalid = [...reference.values()].filter((errors) => errors.length > 0).length;
  console.log(`strict agrees with ${label} on ${agreeing}/${strict.size} skill folders (${label} finds ${invalid} invalid).`);
  return strict.size - agreeing;
}

async function main(args: readonly string[]): Promise<number> {
  const root = args[0];
  const option = (name: string): string | undefined => {
    const index = args.indexOf(name);
    return index > 0 ? args[index + 1] : undefined;
  };
  if (root === undefined || root.startsWith('--')) {
    console.error('Usage: tsx scripts/strict-agreement.ts DIR [--python-reference SKILLS_REF_SRC] [--python EXE]');
    return 2;
  }
  const folders = skillFolders(path.resolve(root));
  const strict = await strictVerdicts(folders);
  let disagreeing = compare('skills-ref (npm)', path.resolve(root), strict, await npmReferenceVerdicts(folders));
  const pythonSource = option('--python-reference');
  if (pythonSource !== undefined) {
    disagreeing = compare('skills-ref (Python)', path.resolve(root), strict, pythonReferenceVerdicts(folders, pythonSource, option('--python') ?? 'python3'));
  }
  return disagreeing === 0 ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  },
);
