/**
 * No import cycle among the modules of main/, service/, shared/ and preload/, type-only imports
 * included: a cycle means two modules are one job split in two, or a shared piece that wants its
 * own module. Imports are read with TypeScript's own pre-processor, not a pattern.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const FOLDERS = ['main', 'service', 'shared', 'preload'];

function sourceFiles(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.tsx?$/.test(name) && !name.endsWith('.d.ts'))
    .map((name) => join(root, folder, name));
}

/** Each module's relative imports (and re-exports, and dynamic imports) that resolve to a module of the set. */
function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  const resolveTo = (from: string, specifier: string): string | undefined => {
    const base = resolve(dirname(from), specifier).replace(/\.js$/, '');
    return [`${base}.ts`, `${base}.tsx`].find((file) => known.has(file));
  };
  return new Map(files.map((file) => {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles.filter((i) => i.fileName.startsWith('.')).map((i) => resolveTo(file, i.fileName));
    return [file, targets.filter((t): t is string => t !== undefined)];
  }));
}

/** Every cycle a depth-first walk meets, each as the modules along it. */
function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const done = new Set<string>();
  const path: string[] = [];
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      const at = path.indexOf(next);
      if (at >= 0) cycles.push(path.slice(at));
      else if (!done.has(next)) visit(next);
    }
    path.pop();
    done.add(node);
  };
  for (const node of graph.keys()) if (!done.has(node)) visit(node);
  return cycles;
}

describe('import cycles', () => {
  it('the walk finds a cycle, however long, and nothing in a chain', () => {
    expect(cyclesOf(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).toEqual([['a', 'b', 'c']]);
    expect(cyclesOf(new Map([['a', ['b', 'c']], ['b', ['c']], ['c', []]]))).toEqual([]);
  });

  it('no module imports itself back, through any chain', () => {
    const files = FOLDERS.flatMap(sourceFiles);
    expect(files.length).toBeGreaterThan(100);
    const cycles = cyclesOf(importGraph(files)).map((cycle) => cycle.map((file) => relative(root, file)).join(' -> '));
    expect(cycles).toEqual([]);
  });
});
