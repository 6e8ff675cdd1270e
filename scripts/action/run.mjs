// The GitHub Action's two steps (action.yml at the repository's root), runnable without GitHub:
//
//   node scripts/action/run.mjs install   installs the agent-skills-vscode package into RUNNER_TEMP
//   node scripts/action/run.mjs checks    runs validate, audit (SARIF), check and eval with it
//
// Inputs are the environment variables INPUT_<NAME> (the input's name in capitals, `-` as `_`),
// which action.yml sets from the action's inputs; GITHUB_WORKSPACE, RUNNER_TEMP and GITHUB_OUTPUT
// are the runner's. Every enabled check runs even after one fails, so the SARIF file is written
// for upload; the step then exits with the first failing command's exit code. An input that cannot
// be used exits 2, naming it. Nothing is passed through a shell, and the API key is handed to the
// command line in its environment only, never printed.

import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const actionRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(actionRoot, 'src', 'npm-package', 'manifest.json'), 'utf8'));
const PACKAGE_NAME = manifest.name;
const EXIT_INPUT = 2;

/** An input the action cannot use: its message names the input. */
class InputProblem extends Error {}

function input(name) {
  return (process.env[`INPUT_${name.toUpperCase().replaceAll('-', '_')}`] ?? '').trim();
}

function flag(name, fallback) {
  const value = input(name).toLowerCase();
  if (value === '') {
    return fallback;
  }
  if (value !== 'true' && value !== 'false') {
    throw new InputProblem(`input "${name}" is true or false, not "${input(name)}".`);
  }
  return value === 'true';
}

/** `value` unless it could be read as an option of the command it is passed to. */
function notAnOption(name, value) {
  if (value.startsWith('-')) {
    throw new InputProblem(`input "${name}" cannot start with "-": "${value}".`);
  }
  return value;
}

function inside(folder, file) {
  const relative = path.relative(folder, file);
  return relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}

/** The workspace (real path) and the project folder in it, which `working-directory` names. */
function folders() {
  const workspace = fs.realpathSync(process.env.GITHUB_WORKSPACE || process.cwd());
  const named = input('working-directory') || '.';
  const project = path.resolve(workspace, named);
  if (!fs.existsSync(project) || !fs.statSync(project).isDirectory()) {
    throw new InputProblem(`input "working-directory": ${named} is not a folder in the workspace.`);
  }
  if (!inside(workspace, fs.realpathSync(project))) {
    throw new InputProblem(`input "working-directory": ${named} leads outside the workspace ${workspace}.`);
  }
  return { workspace, project: fs.realpathSync(project) };
}

/** A path the user gave in input `name`, relative to the project folder: it must stay in the workspace, links included. */
function workspacePath(name, given, { workspace, project }) {
  const resolved = path.resolve(project, notAnOption(name, given));
  let real = resolved;
  for (let existing = resolved; ; existing = path.dirname(existing)) {
    if (fs.existsSync(existing)) {
      real = path.join(fs.realpathSync(existing), path.relative(existing, resolved));
      break;
    }
  }
  if (!inside(workspace, real)) {
    throw new InputProblem(`input "${name}": ${given} leads outside the workspace ${workspace}.`);
  }
  return real;
}

/** Where `install` puts the package, and the later step finds it. */
function installFolder() {
  const temporary = process.env.RUNNER_TEMP;
  if (!temporary) {
    throw new InputProblem('RUNNER_TEMP is not set: run this as the action does, with RUNNER_TEMP naming a folder for the package.');
  }
  return path.join(temporary, PACKAGE_NAME);
}

/** What npm installs: the version this action's ref belongs to, a version or range given, or a packed .tgz. */
function packageSpec() {
  const given = input('version');
  if (given === '') {
    const { version } = JSON.parse(fs.readFileSync(path.join(actionRoot, 'package.json'), 'utf8'));
    return `${PACKAGE_NAME}@${version}`;
  }
  if (given.endsWith('.tgz')) {
    const tarball = workspacePath('version', given, folders());
    if (!fs.existsSync(tarball)) {
      throw new InputProblem(`input "version": ${given} does not exist.`);
    }
    return tarball;
  }
  if (!/^[\w.^~<>=|* -]+$/.test(notAnOption('version', given))) {
    throw new InputProblem(`input "version" is an npm version or range of ${PACKAGE_NAME}, or a packed .tgz, not "${given}".`);
  }
  return `${PACKAGE_NAME}@${given}`;
}

function install() {
  const spec = packageSpec();
  const folder = installFolder();
  fs.rmSync(folder, { recursive: true, force: true });
  fs.mkdirSync(folder, { recursive: true });
  const args = ['install', '--prefix', folder, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--ignore-scripts', spec];
  console.log(`> npm ${args.join(' ')}`);
  const npm = spawnSync('npm', args, { stdio: 'inherit', env: commandEnvironment() });
  if (npm.status !== 0) {
    console.log(`::error title=${PACKAGE_NAME}::npm could not install ${spec} (exit code ${npm.status ?? npm.error?.message}).`);
    return npm.status || 1;
  }
  const { name, version } = installedPackage().json;
  console.log(`Installed ${name} ${version}.`);
  return 0;
}

/** The installed package's manifest and command line; only the package this action names is run. */
function installedPackage() {
  const folder = path.join(installFolder(), 'node_modules', PACKAGE_NAME);
  const manifestFile = path.join(folder, 'package.json');
  if (!fs.existsSync(manifestFile)) {
    throw new InputProblem(`${PACKAGE_NAME} is not installed in ${installFolder()}: run the install step first.`);
  }
  const json = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
  const bin = json.bin?.[PACKAGE_NAME];
  if (json.name !== PACKAGE_NAME || typeof bin !== 'string' || !inside(folder, path.resolve(folder, bin))) {
    throw new InputProblem(`${manifestFile} is not the ${PACKAGE_NAME} package.`);
  }
  return { json, cli: path.resolve(folder, bin) };
}

/** The runner's environment without the action's inputs (the API key among them), plus `extra`. */
function commandEnvironment(extra = {}) {
  const environment = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('INPUT_')));
  return { ...environment, ...extra };
}

/** The command line as printed: an endpoint shows only its origin and path (no credentials, no query). */
function shown(args) {
  return args
    .map((arg, index) => {
      if (args[index - 1] !== '--endpoint') {
        return arg;
      }
      const url = new URL(arg);
      return `${url.origin}${url.pathname}`;
    })
    .join(' ');
}

/**
 * Runs the installed command line in `cwd`; the exit code, and stdout when `capture`. What it
 * prints quotes the repository's files, which a pull request controls: the runner reads no
 * workflow command (`::error::`, `::add-mask::`…) from it, only from this script.
 */
function runCli(args, { cwd, env = {}, capture = false }) {
  const { cli } = installedPackage();
  console.log(`> ${PACKAGE_NAME} ${shown(args)}`);
  const resume = randomUUID();
  console.log(`::stop-commands::${resume}`);
  const run = spawnSync(process.execPath, [cli, ...args], {
    cwd,
    env: commandEnvironment(env),
    stdio: ['ignore', capture ? 'pipe' : 'inherit', 'inherit'],
    maxBuffer: 256 * 1024 * 1024,
  });
  console.log(`::${resume}::`);
  if (run.error) {
    throw run.error;
  }
  return { code: run.status ?? 1, stdout: capture ? run.stdout.toString('utf8') : '' };
}

function setOutput(name, value) {
  if (process.env.GITHUB_OUTPUT && !/[\r\n]/.test(value)) {
    fs.appendFileSync(process.env.GITHUB_OUTPUT, `${name}=${value}\n`);
  }
}

/** Text and properties of a workflow command, escaped as the runner reads them. */
const escapeData = (text) => text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
const escapeProperty = (text) => escapeData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');

const ANNOTATIONS = { error: 'error', warning: 'warning' };

/** Each error and warning of the SARIF log as an annotation on its file, then the count of each level. */
function annotate(sarif) {
  const counts = { error: 0, warning: 0, note: 0 };
  for (const result of sarif.runs.flatMap((run) => run.results)) {
    counts[result.level] = (counts[result.level] ?? 0) + 1;
    const command = ANNOTATIONS[result.level];
    const location = result.locations?.[0]?.physicalLocation;
    if (command && location) {
      const where = [`file=${escapeProperty(location.artifactLocation.uri)}`, ...(location.region ? [`line=${location.region.startLine}`, `col=${location.region.startColumn}`] : [])];
      console.log(`::${command} ${[...where, `title=${escapeProperty(`agent-skills audit: ${result.ruleId}`)}`].join(',')}::${escapeData(result.message.text)}`);
    }
  }
  return `${counts.error} high, ${counts.warning} medium, ${counts.note} low or informational`;
}

/**
 * Each check reads its inputs and returns the run it stands for, so that every input is checked
 * before the first command runs.
 */
const CHECKS = {
  validate(places) {
    const targets = input('target')
      .split(/[\s,]+/)
      .filter((target) => target !== '');
    for (const target of targets) {
      if (!/^[a-z0-9][a-z0-9-]*$/.test(target)) {
        throw new InputProblem(`input "target": "${target}" is no host id (see "${PACKAGE_NAME} --help").`);
      }
    }
    const paths = listedPaths(places).map((file) => path.relative(places.project, file) || '.');
    const args = ['validate', ...(flag('strict', false) ? ['--strict'] : []), ...targets.flatMap((target) => ['--target', target])];
    // Without paths, validate discovers the project as the editor does (its agentSkills.locations).
    return () => runCli(paths.length > 0 ? [...args, '--', ...paths] : args, { cwd: places.project }).code;
  },

  audit(places) {
    const sarifFile = workspacePath('sarif-file', input('sarif-file') || 'agent-skills.sarif', places);
    const listed = listedPaths(places);
    // Run from the workspace, so the SARIF log names files as code scanning does: relative to the repository.
    const paths = (listed.length > 0 ? listed : [places.project]).map((file) => path.relative(places.workspace, file) || '.');
    return () => {
      const { code, stdout } = runCli(['audit', '--sarif', '--', ...paths], { cwd: places.workspace, capture: true });
      let sarif;
      try {
        sarif = JSON.parse(stdout);
      } catch {
        console.log(`No SARIF log was written: audit gave none (exit code ${code}).`);
        return code || 1;
      }
      fs.mkdirSync(path.dirname(sarifFile), { recursive: true });
      fs.writeFileSync(sarifFile, stdout);
      setOutput('sarif-file', sarifFile);
      console.log(`Audit findings: ${annotate(sarif)}. SARIF log: ${path.relative(places.workspace, sarifFile)}`);
      return code;
    };
  },

  check(places) {
    return () => runCli(['check'], { cwd: places.project }).code;
  },

  eval(places) {
    const endpoint = input('eval-endpoint');
    const model = input('eval-model');
    if (endpoint === '' || model === '') {
      throw new InputProblem('eval needs the inputs "eval-endpoint" and "eval-model".');
    }
    if (!URL.canParse(endpoint) || !/^https?:$/.test(new URL(endpoint).protocol)) {
      throw new InputProblem('input "eval-endpoint" is an http:// or https:// URL.');
    }
    const api = input('eval-api') || 'openai';
    // The variables `eval` reads the key from, by API (src/core/evals/endpoint.ts).
    const keyVariable = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY' }[api];
    if (!keyVariable) {
      throw new InputProblem(`input "eval-api" is openai or anthropic, not "${api}".`);
    }
    const runs = input('eval-runs');
    if (runs !== '' && !/^[1-9]\d*$/.test(runs)) {
      throw new InputProblem(`input "eval-runs" is a whole number of runs per query, not "${runs}".`);
    }
    const junit = input('eval-junit');
    const baseline = input('eval-baseline');
    const listed = listedPaths(places);
    const roots = listed.length > 0 ? listed : [workspacePath('paths', '.agent/skills', places)];
    const args = [
      'eval',
      '--endpoint',
      endpoint,
      '--model',
      notAnOption('eval-model', model),
      '--api',
      api,
      ...(runs !== '' ? ['--runs', runs] : []),
      ...(junit !== '' ? ['--junit', workspacePath('eval-junit', junit, places)] : []),
      ...(baseline !== '' ? ['--baseline', notAnOption('eval-baseline', baseline)] : []),
      '--',
      ...roots.map((root) => path.relative(places.project, root) || '.'),
    ];
    const key = input('eval-api-key');
    return () => runCli(args, { cwd: places.project, env: key !== '' ? { [keyVariable]: key } : {} }).code;
  },
};

/** The checks on by default; eval needs an endpoint, so it is off unless asked for. */
const ON_BY_DEFAULT = { validate: true, audit: true, check: true, eval: false };

/** The paths of input `paths`, one per line, each checked to stay in the workspace. */
function listedPaths(places) {
  return input('paths')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => workspacePath('paths', line, places));
}

function checks() {
  const places = folders();
  const planned = Object.keys(CHECKS)
    .filter((name) => flag(name, ON_BY_DEFAULT[name]))
    .map((name) => ({ name, run: CHECKS[name](places) }));
  installedPackage();
  const outcomes = [];
  for (const { name, run } of planned) {
    console.log(`::group::${name}`);
    try {
      outcomes.push({ name, code: run() });
    } finally {
      console.log('::endgroup::');
    }
  }
  for (const { name, code } of outcomes) {
    console.log(`${name}: ${code === 0 ? 'passed' : `failed (exit code ${code})`}`);
  }
  return outcomes.find(({ code }) => code !== 0)?.code ?? 0;
}

const STEPS = { install, checks };

function main(step) {
  if (!Object.hasOwn(STEPS, step)) {
    console.log(`::error title=${PACKAGE_NAME}::unknown step "${step}" (steps: ${Object.keys(STEPS).join(', ')}).`);
    return EXIT_INPUT;
  }
  try {
    return STEPS[step]();
  } catch (error) {
    if (error instanceof InputProblem) {
      console.log(`::error title=${PACKAGE_NAME}::${escapeData(error.message)}`);
      return EXIT_INPUT;
    }
    throw error;
  }
}

process.exitCode = main(process.argv[2]);
