// Skills in the shapes found in public collections that an MCP server must pass on as they are:
// metadata holding a YAML list (as awesome-copilot's acquire-codebase-knowledge does) or a nested
// map of lists with an emoji (as nano-banana-pro-openrouter does), and files in nested folders.
// Written for these tests; no public skill's text is copied.

import { skillText, writeTree } from '../../../fixtures/trees/tree';

/** The frontmatter of each skill as a YAML reader sees it, by name: what an entry must carry verbatim. */
export const PUBLIC_SHAPES_FRONTMATTER = {
  'acquire-knowledge': {
    name: 'acquire-knowledge',
    description: 'Maps an unfamiliar codebase into notes before any change is made.',
    metadata: { version: '1.3', enhancements: ['Manifest detection for 25+ languages', 'CI/CD pipeline detection'] },
  },
  'image-maker': {
    name: 'image-maker',
    description: 'Generates images through a hosted model, with the key from the environment.',
    metadata: { emoji: '🍌', primaryEnv: 'IMAGE_API_KEY', requires: { bins: ['uv'], env: ['IMAGE_API_KEY'] } },
  },
} as const;

/** Writes the skills into `dir` (a skills root): the first one holds nested folders. */
export async function writePublicShapes(dir: string): Promise<void> {
  await writeTree(dir, {
    'acquire-knowledge': {
      'SKILL.md': skillText(
        'acquire-knowledge',
        PUBLIC_SHAPES_FRONTMATTER['acquire-knowledge'].description,
        'Read [the template](assets/templates/ARCHITECTURE.md) first.',
        'metadata:\n  version: "1.3"\n  enhancements:\n    - "Manifest detection for 25+ languages"\n    - "CI/CD pipeline detection"\n',
      ),
      assets: { templates: { 'ARCHITECTURE.md': '# Architecture\n\nLayers, then flows.\n' } },
    },
    'image-maker': {
      'SKILL.md': skillText(
        'image-maker',
        PUBLIC_SHAPES_FRONTMATTER['image-maker'].description,
        'Run scripts/generate.py with the prompt.',
        'metadata:\n  emoji: "🍌"\n  primaryEnv: IMAGE_API_KEY\n  requires: { "bins": ["uv"], "env": ["IMAGE_API_KEY"] }\n',
      ),
      scripts: { 'generate.py': 'print("image")\n' },
    },
  });
}
