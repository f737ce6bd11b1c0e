#!/usr/bin/env -S node --max-semi-space-size=4
// The young generation of an engine's process (main/heap-growth.ts, YOUNG_SEMI_SPACE_MIB): V8 reads
// it only when node starts, so it is given here; npm's shims pass this line's flags on too.
// Runs the command line as built by `npm run build` (npm ci builds it): plain JavaScript, so it
// starts without compiling anything. Stack traces name the TypeScript sources (source maps).
import { existsSync } from 'node:fs';

const cli = new URL('../dist/node/cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write('asset-sync: the command line is not built. Run `npm run build` in the Asset Sync folder (npm ci does it).\n');
  process.exit(2);
}
process.setSourceMapsEnabled(true);
const { main } = await import(cli.href);
process.exitCode = await main(process.argv);
// Nothing should keep the process alive once the command is done; if a stray handle does, end it.
setTimeout(() => process.exit(), 2000).unref();
