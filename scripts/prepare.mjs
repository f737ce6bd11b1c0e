/**
 * npm's `prepare`, which `npm ci` and `npm install` run in the checkout: builds the interface into
 * dist/renderer (as `npm run build:renderer` does), so `asset-sync sync --ui` serves it right
 * after installing. `--outDir <dir>` builds it elsewhere. Installed without devDependencies (no
 * Vite), it says how to build it later instead of failing the install: syncing needs no interface.
 */
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { outDir: { type: 'string' } } });

let vite;
try {
  vite = await import('vite');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
  console.warn('asset-sync: the interface was not built (Vite is a devDependency). Run `npm install` with devDependencies, then `npm run build:renderer`.');
  process.exit(0);
}

await vite.build({ logLevel: 'warn', ...(values.outDir ? { build: { outDir: values.outDir, emptyOutDir: true } } : {}) });
