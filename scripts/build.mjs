/**
 * `npm run build`: the TypeScript that runs in Node and in Electron's main process, bundled by
 * esbuild into dist/node/, and the Electron preload into dist/app/preload/index.cjs. npm's
 * `prepare` (scripts/prepare.mjs) runs it, so `npm ci` leaves a runnable `asset-sync`.
 *
 * Rules of the output, and why:
 * - One folder, every file at its top: entry points by name (cli.js, service.js, demo.js, app.js
 *   and each worker), shared code in chunk-*.js. A module that starts a worker finds it as
 *   `./<worker>.js` beside itself, whichever chunk its code landed in.
 * - Code splitting: a command of the CLI imports its module when it runs (main/cli/commands.ts),
 *   so `asset-sync --help` loads commander and a few kilobytes, not the engine.
 * - Packages stay in node_modules, but for the few plain-JavaScript ones every command loads
 *   (BUNDLED): loading them from many small files cost about a third of a sync's start-up.
 *   Native modules (better-sqlite3, sharp, @napi-rs/canvas, @napi-rs/keyring) cannot be
 *   bundled, and packages that start their own workers or read their own files (pino's
 *   transports, pdf.js, libheif's wasm, trash's helpers) find them where they were installed.
 * - Source maps without the sources' text (they stay in the checkout): bin/asset-sync.js and the
 *   Electron main enable them, so a stack trace names the TypeScript file and line.
 *
 * `--outdir DIR` builds the Node part alone, into DIR; `--entry name=path` (repeatable) adds an
 * entry point (the benchmark's children). `--watch` rebuilds the Node part on every change.
 */
import { readFileSync } from 'node:fs';
import { cp, mkdir, readdir, rm } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import * as esbuild from 'esbuild';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = join(ROOT, 'dist');

/** The programs, by their file name in the output. */
export const ENTRIES = {
  cli: 'main/cli/main.ts',
  service: 'service/cli.ts',
  demo: 'demo/demo.ts',
  app: 'main/app/start.ts',
  // Workers: started from a file beside the module that starts them (main/local/module-worker.ts).
  'picture-worker': 'main/media/picture-worker.ts',
  'fs-worker': 'main/local/fs-worker.ts',
  // pino-roll, which writes the log file (main/logging.ts), imported when a log file is opened.
  'log-roll': 'node_modules/pino-roll/pino-roll.js',
};

/** Pure JavaScript, no files of their own read at run time: bundled into the chunks. */
const BUNDLED = ['commander', 'zod', 'undici', 'jose', 'ignore', 'cli-progress', 'eventsource-parser'];

/** Every other package (and its subpaths) is imported from node_modules. */
function externals() {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const names = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }).filter((name) => !BUNDLED.includes(name));
  return names.flatMap((name) => [name, `${name}/*`]);
}

/**
 * Zod's table of 50 languages' messages is replaced by its English one, the only one set (zod sets
 * English itself, and Asset Sync never calls `z.config` with another): the table is a third of
 * zod's code, and a command compiles what it loads at every start.
 */
const englishZodMessages = {
  name: 'english-zod-messages',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => {
      if (!/[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)) return undefined;
      return { path: join(dirname(args.importer), '..', 'locales', 'index.js'), namespace: 'english-zod-messages' };
    });
    build.onLoad({ filter: /.*/, namespace: 'english-zod-messages' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(join(dirname(args.path), 'en.js'))};`,
      resolveDir: dirname(args.path),
    }));
  },
};

/**
 * The client's `undici` is the two dispatchers it uses (Agent, Pool) with their request API:
 * undici's index also loads fetch, WebSocket, cookies, caches and mocks, about 1 MB of code that
 * every command compiled at start for nothing. The bench's own code keeps the whole package.
 */
const UNDICI_DISPATCHERS = `
const Dispatcher = require('undici/lib/dispatcher/dispatcher');
Object.assign(Dispatcher.prototype, require('undici/lib/api'));
module.exports = { Agent: require('undici/lib/dispatcher/agent'), Pool: require('undici/lib/dispatcher/pool') };
`;
const undiciDispatchers = {
  name: 'undici-dispatchers',
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, (args) => {
      if (!args.importer.startsWith(join(ROOT, 'main') + sep)) return undefined;
      return { path: 'undici', namespace: 'undici-dispatchers' };
    });
    build.onLoad({ filter: /.*/, namespace: 'undici-dispatchers' }, () => ({ contents: UNDICI_DISPATCHERS, loader: 'js', resolveDir: ROOT }));
  },
};

/**
 * pino-roll's `date-fns` is the five functions it calls: the package's index loads its 250
 * modules, which cost the log's worker thread more CPU at every start than anything else it does.
 */
const DATE_FNS_USED = ['format', 'addDays', 'addHours', 'parse', 'isValid'];
const dateFnsUsed = {
  name: 'date-fns-used',
  setup(build) {
    build.onResolve({ filter: /^date-fns$/ }, (args) => {
      if (!/[\\/]node_modules[\\/]pino-roll[\\/]/.test(args.importer)) return undefined;
      return { path: 'date-fns', namespace: 'date-fns-used' };
    });
    build.onLoad({ filter: /.*/, namespace: 'date-fns-used' }, () => ({
      contents: `module.exports = { ${DATE_FNS_USED.map((name) => `${name}: require('date-fns/${name}').${name}`).join(', ')} };`,
      loader: 'js',
      resolveDir: join(ROOT, 'node_modules', 'pino-roll'),
    }));
  },
};

/**
 * Undici's HTTP/2 client is replaced by a function that refuses: nothing here allows HTTP/2
 * (`allowH2` is never set, so no connection negotiates it), and its module loads node:http2,
 * which every start compiled for nothing.
 */
const NO_HTTP2 = `module.exports = function connectH2() { throw new Error('HTTP/2 is not built into Asset Sync'); };`;
const noHttp2 = {
  name: 'no-http2',
  setup(build) {
    build.onResolve({ filter: /^\.\/client-h2\.js$/ }, (args) => {
      if (!/[\\/]node_modules[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/.test(args.importer)) return undefined;
      return { path: 'client-h2', namespace: 'no-http2' };
    });
    build.onLoad({ filter: /.*/, namespace: 'no-http2' }, () => ({ contents: NO_HTTP2, loader: 'js' }));
  },
};

/** Files read at run time beside the module that reads them (the demo's HEIC photos). */
const ASSETS = [['service/demo/fixtures', 'fixtures']];

/** esbuild options of the Node part: what `buildNode` and `--watch` share. */
function nodeOptions(outdir, extra = {}) {
  const entryPoints = Object.fromEntries(Object.entries({ ...ENTRIES, ...extra }).map(([name, path]) => [name, join(ROOT, path)]));
  return {
    entryPoints,
    outdir,
    absWorkingDir: ROOT,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: externals(),
    // Bundled CommonJS packages call require(): the ES module output gets one.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    sourcemap: 'linked',
    sourcesContent: false,
    entryNames: '[name]',
    chunkNames: 'chunk-[hash]',
    logLevel: 'warning',
    legalComments: 'none',
    plugins: [englishZodMessages, undiciDispatchers, dateFnsUsed, noHttp2],
  };
}

/**
 * Builds the Node part into `outdir` (default dist/node). Files of an earlier build are removed
 * only after the new ones are written: a chunk's name is its content's hash, so a program started
 * from the earlier build keeps finding what it has not loaded yet while the new files are written.
 */
export async function buildNode({ outdir = join(DIST, 'node'), extra = {} } = {}) {
  await mkdir(outdir, { recursive: true });
  const result = await esbuild.build({ ...nodeOptions(outdir, extra), metafile: true });
  const written = new Set(Object.keys(result.metafile.outputs).map((file) => resolve(ROOT, file)));
  for (const [from, to] of ASSETS) {
    await cp(join(ROOT, from), join(outdir, to), { recursive: true });
    written.add(join(outdir, to));
  }
  for (const name of await readdir(outdir)) {
    if (!written.has(join(outdir, name))) await rm(join(outdir, name), { recursive: true, force: true });
  }
  return [...written].filter((file) => file.endsWith('.js')).length;
}

/** The Electron preload: sandboxed, so one CommonJS file with nothing to import but electron. */
export async function buildPreload({ outfile = join(DIST, 'app', 'preload', 'index.cjs') } = {}) {
  await esbuild.build({
    entryPoints: [join(ROOT, 'preload', 'index.ts')],
    outfile,
    bundle: true,
    minify: true,
    platform: 'browser',
    format: 'cjs',
    target: 'chrome130',
    external: ['electron'],
    logLevel: 'warning',
  });
}

async function main() {
  const { values } = parseArgs({ options: { outdir: { type: 'string' }, entry: { type: 'string', multiple: true }, watch: { type: 'boolean' } } });
  const outdir = values.outdir ? resolve(values.outdir) : join(DIST, 'node');
  const extra = Object.fromEntries((values.entry ?? []).map((spec) => spec.split('=', 2)));
  if (values.watch) {
    const context = await esbuild.context({ ...nodeOptions(outdir, extra), logLevel: 'info' });
    await context.watch();
    return;
  }
  const started = performance.now();
  const files = await buildNode({ outdir, extra });
  if (!values.outdir) await buildPreload();
  console.log(`asset-sync: built ${files} JavaScript files into ${outdir}${values.outdir ? '' : ' and the preload'} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
