// How a skill's source is named to the user, the same in the Skills view, chat's /list and the
// Testing view.

import type { RegistrySnapshot } from './registry';
import type { SkillRoot } from '../model/types';

/**
 * Source labels as users see them. In a window with one workspace folder, its name in front of
 * each location or sub-project ("app · .github/skills", "app · packages/web") says nothing and gets
 * cut in a narrow view: what follows it alone is shown.
 */
export function sourceNamer(snapshot: RegistrySnapshot): (root: SkillRoot) => string {
  const workspaceFolders = new Set(snapshot.skills.filter((record) => record.root.kind === 'workspace').map((record) => record.root.folder));
  return (root) => {
    const prefix = `${root.folder} · `;
    return workspaceFolders.size === 1 && root.folder !== undefined && root.label.startsWith(prefix) ? root.label.slice(prefix.length) : root.label;
  };
}
