// "Skills: Create Skill…": asks for a name (checked as it is typed), picks a location when there
// are several, scaffolds a valid SKILL.md without ever touching an existing folder, and opens it.

import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { newSkillNameProblem, newSkillPlaces, scaffoldSkillText } from '../../core/skill-file/scaffold';
import type { SkillRoot } from '../../core/model/types';
import type { SkillsHost } from '../skills/types';
import { errorMessage } from '../../core/util/errors';

/** Arguments for automation and tests; anything left out is asked for. */
export interface CreateSkillArgs {
  name?: string;
  /** The root folder (absolute path) or its label as shown in the Skills view. */
  location?: string;
  description?: string;
  /** Open the new SKILL.md in an editor (default true). */
  open?: boolean;
}

/** Roots a user may write a new skill into: the workspace's (when trusted), the user's and AGENT_SKILLS_PATH. */
export function writableRoots(host: SkillsHost): SkillRoot[] {
  return host.roots.filter((root) => root.kind !== 'builtin' && root.kind !== 'server' && !root.untrusted);
}

/** The line of `description:` in a scaffolded SKILL.md (after `---` and `name:`). */
const DESCRIPTION_LINE = 2;

/** Creates the skill and returns its SKILL.md, or undefined when the user cancelled or it failed. */
export async function createSkill(host: SkillsHost, args: CreateSkillArgs = {}): Promise<vscode.Uri | undefined> {
  const roots = writableRoots(host);
  if (roots.length === 0) {
    void vscode.window.showErrorMessage(
      host.trusted
        ? 'There is no skill location to create a skill in. Open a folder or turn on agentSkills.userSkills.'
        : 'Trust this workspace to create skills in it, or turn on agentSkills.userSkills.',
    );
    return undefined;
  }
  // The name first, as the README tells it; the location only matters once there is a name. After
  // a failure the name is asked again with what was typed, never lost.
  let typed: string | undefined;
  for (;;) {
    const name = args.name ?? (await askName(roots, typed));
    if (name === undefined) {
      return undefined;
    }
    const created = await createNamed(host, name, roots, args);
    if (created !== 'failed') {
      return created;
    }
    if (args.name !== undefined) {
      return undefined;
    }
    typed = name;
  }
}

/** The name, checked as it is typed: its rules, and a folder of that name in each location. */
function askName(roots: readonly SkillRoot[], value: string | undefined): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title: 'Create Skill',
    prompt: 'Skill name (lowercase letters, digits and hyphens)',
    placeHolder: 'e.g. release-notes',
    value,
    validateInput: (name) => {
      const ruleProblem = newSkillNameProblem(name);
      if (ruleProblem) {
        return ruleProblem;
      }
      const { problem } = newSkillPlaces(name, roots, fs.existsSync);
      return problem && { message: problem.message, severity: problem.severity === 'error' ? vscode.InputBoxValidationSeverity.Error : vscode.InputBoxValidationSeverity.Warning };
    },
    ignoreFocusOut: true,
  });
}

/** Scaffolds `name` in a location without a folder of that name; 'failed' once the user was told why. */
async function createNamed(host: SkillsHost, name: string, roots: readonly SkillRoot[], args: CreateSkillArgs): Promise<vscode.Uri | undefined | 'failed'> {
  const places = newSkillPlaces(name, roots, fs.existsSync);
  const problem = newSkillNameProblem(name) ?? (places.problem?.severity === 'error' ? places.problem.message : undefined);
  if (problem) {
    void vscode.window.showErrorMessage(`Cannot create the skill: ${problem}`);
    return 'failed';
  }
  const root = await chooseRoot(roots, places.free, args.location);
  if (root === 'failed' || root === undefined) {
    return root;
  }
  const dir = path.join(root.path, name);
  const file = path.join(dir, 'SKILL.md');
  try {
    await fs.promises.mkdir(root.path, { recursive: true });
    // No `recursive`: mkdir fails if the folder appeared meanwhile, so nothing is ever overwritten.
    await fs.promises.mkdir(dir);
    await fs.promises.writeFile(file, scaffoldSkillText(name, args.description), { flag: 'wx' });
  } catch (error) {
    const reason = errorMessage(error);
    host.log.error(`Create Skill failed for ${dir}: ${reason}`);
    void vscode.window.showErrorMessage(`Cannot create the skill "${name}": ${reason}`);
    return 'failed';
  }
  host.log.info(`Created skill "${name}" at ${file}.`);
  // Load it right away rather than waiting for the file watcher.
  await host.applyChanges([{ path: dir, kind: 'created' }]);
  const uri = vscode.Uri.file(file);
  if (args.open !== false) {
    const editor = await vscode.window.showTextDocument(uri);
    // The placeholder description is what to write first: select it, ready to be typed over.
    const line = editor.document.lineAt(DESCRIPTION_LINE).text;
    const start = line.indexOf('"') + 1;
    editor.selection = new vscode.Selection(DESCRIPTION_LINE, start, DESCRIPTION_LINE, Math.max(start, line.lastIndexOf('"')));
  }
  return uri;
}

/** The location: the one asked for, else the only free one, else the user's pick among the free ones. */
async function chooseRoot(roots: readonly SkillRoot[], free: readonly SkillRoot[], location: string | undefined): Promise<SkillRoot | undefined | 'failed'> {
  if (location !== undefined) {
    const wanted = roots.find((root) => root.label === location || path.resolve(location) === root.path);
    if (!wanted) {
      void vscode.window.showErrorMessage(`Cannot create a skill in "${location}": it is not a skill location of this window.`);
      return 'failed';
    }
    if (!free.includes(wanted)) {
      void vscode.window.showErrorMessage(`Cannot create the skill: a folder of that name already exists in ${wanted.path}.`);
      return 'failed';
    }
    return wanted;
  }
  if (free.length === 1) {
    return free[0];
  }
  const picked = await vscode.window.showQuickPick(
    free.map((root) => ({ label: root.label, description: root.path, root })),
    { title: 'Create Skill', placeHolder: 'Where should the new skill live?', ignoreFocusOut: true },
  );
  return picked?.root;
}
