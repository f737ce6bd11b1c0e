/**
 * npm's `prepare`, which `npm ci` and `npm install` run in the checkout: builds the command line,
 * service, demo and Electron main into dist/node (scripts/build.mjs, esbuild, a dependency), then
 * the interface into dist/renderer (as `npm run build:renderer` does), so `asset-sync` runs and
 * `asset-sync sync --ui` serves the interface right after installing. `--outDir <dir>` builds all
 * of it into that folder instead of dist/ (<dir>/node, <dir>/app, <dir>/renderer). Installed without devDependencies (no Vite), it says how to build the
 * interface later instead of failing the install: syncing needs no interface.
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DIST, buildNode, buildPreload } from './build.mjs';

const { values } = parseArgs({ options: { outDir: { type: 'string' } } });
const dist = values.outDir ? resolve(values.outDir) : DIST;

await buildNode({ outdir: join(dist, 'node') });
await buildPreload({ outfile: join(dist, 'app', 'preload', 'index.cjs') });

let vite;
try {
  vite = await import('vite');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
  console.warn('asset-sync: the interface was not built (Vite is a devDependency). Run `npm install` with devDependencies, then `npm run build:renderer`.');
  process.exit(0);
}

await vite.build({ logLevel: 'warn', ...(values.outDir ? { build: { outDir: join(dist, 'renderer'), emptyOutDir: true } } : {}) });
