/**
 * `node scripts/checks.mjs lint typecheck build:renderer`: what `npm test` runs before the tests,
 * the steps of those package.json scripts side by side, as many at a time as there are cores (two
 * at least). Each step (a script's commands between `&&`) is one single-threaded process that
 * needs nothing from another, so one after the other they left a core of a two-core machine idle
 * for most of a minute. The commands stay in package.json, where `npm run <name>` runs one alone.
 *
 * A step's output is printed whole when it ends, so two never mix. Every step runs even when one
 * fails (all the errors at once); the failed ones are named and the exit code is then 1.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

const names = process.argv.slice(2);
const unknown = names.filter((name) => typeof scripts[name] !== 'string');
if (names.length === 0 || unknown.length > 0) {
  const why = unknown.length > 0 ? ` (package.json has no script ${unknown.join(', ')})` : '';
  process.stderr.write(`usage: node scripts/checks.mjs <script>...${why}\n`);
  process.exit(2);
}

/** Taken in turn from each script, so that the long type check does not wait behind the others. */
function steps() {
  const lists = names.map((name) => scripts[name].split(' && ').map((command) => ({ name, command: command.trim() })));
  const out = [];
  for (let i = 0; lists.some((list) => i < list.length); i += 1) for (const list of lists) if (i < list.length) out.push(list[i]);
  return out;
}

// As `npm run` does: the project's own binaries first on the PATH.
const env = { ...process.env, PATH: [join(ROOT, 'node_modules', '.bin'), process.env.PATH].join(delimiter) };

function run({ name, command }) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(command, { cwd: ROOT, env, shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      process.stdout.write(`> ${name}: ${command}: ${code === 0 ? 'ok' : `failed (exit ${code})`} in ${seconds} s\n${output}`);
      resolve(code === 0);
    });
  });
}

const queue = steps();
const failed = [];
const lane = async () => {
  for (let step = queue.shift(); step; step = queue.shift()) if (!(await run(step))) failed.push(step.command);
};
await Promise.all(Array.from({ length: Math.max(2, availableParallelism()) }, lane));
if (failed.length > 0) {
  process.stderr.write(`\nFailed: ${failed.join('; ')}\n`);
  process.exitCode = 1;
}
