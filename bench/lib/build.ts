/**
 * Everything the bench runs is built JavaScript, as an installation runs it: `npm run build`
 * (scripts/build.mjs) makes dist/node, whose CLI (`bin/asset-sync.js`) and service are what the
 * cases time; the bench's own children (the in-process engine, the scanner, the seeding) are
 * built by the same script beside a copy of the programs, into dist/bench. Under tsx, the loader thread and its transforms alone added about
 * 80 MiB to a process and slowed its start.
 */
import { join } from 'node:path';
import { ROOT, run } from './proc.js';

/** The children, by the name of their built file. */
export const CHILDREN = {
  'bench-engine': 'bench/children/engine.ts',
  'bench-scan': 'bench/children/scan.ts',
  'bench-seed': 'bench/children/seed-scale.ts',
} as const;

export type ChildName = keyof typeof CHILDREN;

export const CHILDREN_DIR = join(ROOT, 'dist', 'bench');

/** The built file of a child. */
export const builtChild = (name: ChildName): string => join(CHILDREN_DIR, `${name}.js`);

/** Builds dist/node and the children; returns what the build printed. */
export async function buildAll(): Promise<string> {
  const built = await run(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT });
  const entries = Object.entries(CHILDREN).flatMap(([name, path]) => ['--entry', `${name}=${path}`]);
  const children = await run(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--outdir', CHILDREN_DIR, ...entries], { cwd: ROOT });
  return `${built.trim()}; ${children.trim()}`;
}
