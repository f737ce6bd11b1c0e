/**
 * The children (engine, scanner, service, seeding) run as plain JavaScript, as the shipped app
 * does: under tsx, the loader thread and its transforms alone add about 80 MiB to a process's
 * RSS and slow its start, which would blur the memory and start-up figures. Each source file is
 * transpiled on its own (TypeScript's transpileModule, no type checking: `npm run typecheck`
 * does that) into a build folder inside the repository, so packages resolve from node_modules.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { ROOT } from './proc.js';

const SOURCES = ['main', 'shared', 'service', 'bench/children', 'bench/lib'];

async function sourceFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await sourceFiles(path)));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Transpiles the sources the children need into `outDir`; returns how many files. */
export async function buildChildren(outDir: string): Promise<number> {
  await rm(outDir, { recursive: true, force: true });
  const options: ts.CompilerOptions = { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2023, verbatimModuleSyntax: false, sourceMap: false };
  await mkdir(outDir, { recursive: true });
  // Below node_modules the repository's "type": "module" no longer applies: say it again.
  await writeFile(join(outDir, 'package.json'), '{ "type": "module" }\n');
  let count = 0;
  for (const folder of SOURCES) {
    for (const file of await sourceFiles(join(ROOT, folder))) {
      const { outputText } = ts.transpileModule(await readFile(file, 'utf8'), { compilerOptions: options, fileName: file });
      const target = join(outDir, relative(ROOT, file)).replace(/\.ts$/, '.js');
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, outputText);
      count += 1;
    }
  }
  return count;
}
