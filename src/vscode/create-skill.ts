// "Skills: Create Skill…": asks for a name (checked as it is typed), picks a location when there
// are several, scaffolds a valid SKILL.md without ever touching an existing folder, and opens it.

import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { newSkillNameProblem, scaffoldSkillText } from '../core/skill-file/scaffold';
import type { SkillRoot } from '../core/model/types';
import type { SkillsHost } from './skills-host';
import { errorMessage } from '../core/util/errors';

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
  return host.roots.filter((root) => root.kind !== 'builtin' && !root.untrusted);
}

/** The line of `description:` in a scaffolded SKILL.md (after `---` and `name:`). */
const DESCRIPTION_LINE = 2;

/** Creates the skill and returns its SKILL.md, or undefined when the user cancelled or it failed. */
export async function createSkill(host: SkillsHost, args: CreateSkillArgs = {}): Promise<vscode.Uri | undefined> {
  // The name first, as the README tells it; the location only matters once there is a name.
  const name =
    args.name ??
    (await vscode.window.showInputBox({
      title: 'Create Skill',
      prompt: 'Skill name (lowercase letters, digits and hyphens)',
      placeHolder: 'e.g. release-notes',
      validateInput: newSkillNameProblem,
      ignoreFocusOut: true,
    }));
  if (name === undefined) {
    return undefined;
  }
  const root = await chooseRoot(host, args.location);
  if (!root) {
    return undefined;
  }
  const problem = newSkillNameProblem(name) ?? (fs.existsSync(path.join(root.path, name)) ? `A folder named "${name}" already exists in ${root.path}.` : undefined);
  if (problem) {
    void vscode.window.showErrorMessage(`Cannot create the skill: ${problem}`);
    return undefined;
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
    return undefined;
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

async function chooseRoot(host: SkillsHost, location: string | undefined): Promise<SkillRoot | undefined> {
  const roots = writableRoots(host);
  if (location !== undefined) {
    const wanted = roots.find((root) => root.label === location || path.resolve(location) === root.path);
    if (!wanted) {
      void vscode.window.showErrorMessage(`Cannot create a skill in "${location}": it is not a skill location of this window.`);
    }
    return wanted;
  }
  if (roots.length === 0) {
    void vscode.window.showErrorMessage(
      host.trusted
        ? 'There is no skill location to create a skill in. Open a folder or turn on agentSkills.userSkills.'
        : 'Trust this workspace to create skills in it, or turn on agentSkills.userSkills.',
    );
    return undefined;
  }
  if (roots.length === 1) {
    return roots[0];
  }
  const picked = await vscode.window.showQuickPick(
    roots.map((root) => ({ label: root.label, description: root.path, root })),
    { title: 'Create Skill', placeHolder: 'Where should the new skill live?', ignoreFocusOut: true },
  );
  return picked?.root;
}
