// The diagnostics area's one entry: the Problems panel's entries for skills and trigger-test files,
// their quick fixes, and the hovers on frontmatter fields.

import type * as vscode from 'vscode';
import type { SkillsHost } from '../skills/types';
import type { SourceDiagnostics } from '../sources/types';
import type { TargetFindings } from '../targets/types';
import type { TriggerTestFiles } from '../testing/types';
import { SkillDiagnostics } from './diagnostics';
import { registerFieldHovers } from './field-hovers';
import { registerQuickFixes } from './quick-fixes';
import type { Diagnostics } from './types';

export interface DiagnosticsDeps {
  host: SkillsHost;
  triggerTestFiles: TriggerTestFiles;
  targetFindings: TargetFindings;
  sourceDiagnostics: SourceDiagnostics;
}

export function register(context: vscode.ExtensionContext, { host, triggerTestFiles, targetFindings, sourceDiagnostics }: DiagnosticsDeps): Diagnostics {
  const diagnostics = new SkillDiagnostics(host, triggerTestFiles, targetFindings, sourceDiagnostics);
  context.subscriptions.push(diagnostics, registerQuickFixes(), registerFieldHovers());
  return { diagnostics };
}
