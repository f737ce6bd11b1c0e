#!/usr/bin/env node
/**
 * The engine scenarios of the `service-variants` project once per service switch, each switch on
 * its own at its other value (`npm test` runs them once with every switch combined). A switch
 * that breaks the client alone is named by its own run. Arguments pick switches
 * (`npm run test:variants -- checksumAlgorithm=md5`); without them every switch runs.
 * ASSET_SYNC_SERVICE_VARIANT tells vitest.config.ts which variant the project runs.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Each switch the reference leaves open, at the value the default service does not use. */
const SWITCHES = JSON.parse(readFileSync(new URL('../test/service-switches.json', import.meta.url), 'utf8'));

const chosen = process.argv.slice(2);
const unknown = chosen.filter((s) => !SWITCHES.includes(s));
if (unknown.length > 0) {
  console.error(`test:variants: unknown switch ${unknown.join(', ')}; one of ${SWITCHES.join(', ')}`);
  process.exit(2);
}

const results = [];
for (const variant of chosen.length > 0 ? chosen : SWITCHES) {
  console.log(`\ntest:variants: ${variant}`);
  const started = Date.now();
  const run = spawnSync('npx', ['vitest', 'run', '--project', 'service-variants'], {
    stdio: 'inherit',
    env: { ...process.env, ASSET_SYNC_SERVICE_VARIANT: variant },
  });
  results.push({ variant, passed: run.status === 0, seconds: Math.round((Date.now() - started) / 1000) });
}

console.log('\ntest:variants: summary');
for (const r of results) console.log(`  ${r.passed ? 'pass' : 'FAIL'}  ${r.variant.padEnd(24)} ${r.seconds} s`);
process.exit(results.every((r) => r.passed) ? 0 : 1);
