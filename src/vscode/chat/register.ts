// Chat's one entry: the language-model tools and the @skills participant, both released with the
// extension.

import type * as vscode from 'vscode';
import type { SkillsHost } from '../skills/types';
import { createSkillsParticipant } from './participant';
import { registerSkillTools } from './tools';

export function register(context: vscode.ExtensionContext, { host }: { host: SkillsHost }): void {
  context.subscriptions.push(registerSkillTools(host), createSkillsParticipant(context.extensionUri, host));
}
