// Chat's one entry point for the composition root: the language-model tools and the @skills
// participant, both released with the extension.

import type * as vscode from 'vscode';
import type { SkillsHost } from '../skills/skills-host';
import { createSkillsParticipant } from './participant';
import { registerSkillTools } from './tools';

export function registerChat(context: vscode.ExtensionContext, host: SkillsHost): void {
  context.subscriptions.push(registerSkillTools(host), createSkillsParticipant(context.extensionUri, host));
}
