// `npm run lint` runs this: fails when the files of src/ import each other in a circle. Every
// import counts (type-only ones, re-exports, require() and import() loaded on demand), since a
// circle of any kind means neither file can be understood, tested or bundled without the other.
//
//   tsx scripts/import-cycles.ts [FOLDER]     FOLDER defaults to src/

import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { resolveSourceFile, sourceFiles } from './source-files';

/** The files a module imports from its own folder tree, resolved to existing source files. */
function localImports(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
  const resolved = new Set<string>();
  for (const { fileName } of importedFiles) {
    if (fileName.startsWith('.')) {
      const target = resolveSourceFile(path.resolve(path.dirname(file), fileName));
      if (target !== undefined) {
        resolved.add(target);
      }
    }
  }
  return [...resolved];
}

/**
 * Each circle of imports among the source files under `folder`, as the files of one strongly
 * connected component (Tarjan's algorithm), each given as one walk round it that ends where it
 * started, paths relative to `folder`.
 */
export function findImportCycles(folder: string): string[][] {
  const files = sourceFiles(folder);
  const edges = new Map(files.map((file) => [file, localImports(file).filter((target) => target.startsWith(folder + path.sep))]));
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  // Iterative, so a deep import chain cannot overflow the call stack.
  for (const root of files) {
    if (index.has(root)) {
      continue;
    }
    const work: { file: string; next: number }[] = [{ file: root, next: 0 }];
    index.set(root, index.size);
    lowLink.set(root, index.get(root)!);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const targets = edges.get(frame.file) ?? [];
      if (frame.next < targets.length) {
        const target = targets[frame.next++];
        if (!index.has(target)) {
          index.set(target, index.size);
          lowLink.set(target, index.get(target)!);
          stack.push(target);
          onStack.add(target);
          work.push({ file: target, next: 0 });
        } else if (onStack.has(target)) {
          lowLink.set(frame.file, Math.min(lowLink.get(frame.file)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].file;
        lowLink.set(parent, Math.min(lowLink.get(parent)!, lowLink.get(frame.file)!));
      }
      if (lowLink.get(frame.file) === index.get(frame.file)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.file);
        const selfImport = component.length === 1 && (edges.get(frame.file) ?? []).includes(frame.file);
        if (component.length > 1 || selfImport) {
          components.push(walkRound(component.sort(), edges));
        }
      }
    }
  }
  return components.map((walk) => walk.map((file) => path.relative(folder, file)));
}

/** The shortest walk from the component's first file back to it, through the component's files only. */
function walkRound(component: readonly string[], edges: ReadonlyMap<string, readonly string[]>): string[] {
  const members = new Set(component);
  const start = component[0];
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const target of edges.get(file) ?? []) {
      if (target === start) {
        const walk = [start];
        for (let step: string | undefined = file; step !== start && step !== undefined; step = cameFrom.get(step)) {
          walk.splice(1, 0, step);
        }
        return [...walk, start];
      }
      if (members.has(target) && !cameFrom.has(target)) {
        cameFrom.set(target, file);
        queue.push(target);
      }
    }
  }
  return [...component];
}

if (require.main === module) {
  const folder = path.resolve(process.argv[2] ?? path.join(__dirname, '..', 'src'));
  const cycles = findImportCycles(folder);
  for (const cycle of cycles) {
    console.error(`Import cycle in ${path.relative(process.cwd(), folder) || '.'}: ${cycle.join(' → ')}`);
  }
  if (cycles.length > 0) {
    console.error(`${cycles.length} import cycle(s): move what both sides need into a module of its own.`);
    process.exitCode = 1;
  }
}
