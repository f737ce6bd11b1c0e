/**
 * A worker thread running one of our own TypeScript modules, typed and linted like the rest.
 * Built (dist/node, the benchmark's build, the packaged app's asar, which Electron's workers read
 * from), it is the compiled `<name>.js` beside the module that starts it: the build puts every
 * entry point and worker at the top of its folder. Under tsx and Vitest it is the `.ts` source,
 * loaded through tsx's loader registered in the worker itself.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** Starts the worker `name` (its module's file name without extension), found from `from`: the starting module's `import.meta.url`. */
export function startModuleWorker(from: string, name: string, options: WorkerOptions = {}): Worker {
  if (!from.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, from), options);
  const entry = new URL(`./${name}.ts`, from).href;
  const tsx = pathToFileURL(tsxEsmApi(from)).href;
  const code = `const { register } = await import(${JSON.stringify(tsx)}); register(); await import(${JSON.stringify(entry)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(code)}`), options);
}

/** tsx's ESM API (its CommonJS build resolves its own parts wrongly from a data: URL worker). */
function tsxEsmApi(from: string): string {
  const manifest = createRequire(from).resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  const entry = exports['./esm/api']?.import.default;
  if (!entry) throw new Error("tsx has no ESM API to load a worker's TypeScript with");
  return join(dirname(manifest), entry);
}
