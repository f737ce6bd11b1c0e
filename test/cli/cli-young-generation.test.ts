/**
 * The command as installed (`asset-sync`, the file run through its first line, as a shell or
 * npm's shim runs it) starts with the engine's small young generation (main/heap-growth.ts):
 * V8 fixes the young generation's largest size when the process starts, so it must come from
 * the command line. A probe imported first makes long-lived objects and says how far the young
 * generation grew.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { YOUNG_SEMI_SPACE_MIB } from '../../main/heap-growth.js';
import { CLI, REPO } from './cli-helpers.js';

const PROBE = pathToFileURL(`${REPO}test/fixtures/probes/young-generation.mjs`).href;

async function youngGenerationOf(command: string, args: string[]): Promise<number> {
  const child = spawn(command, args, { cwd: REPO, env: { ...process.env, NODE_OPTIONS: `--import=${PROBE}` }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdout.resume();
  const [code] = (await once(child, 'close')) as [number | null];
  expect(code, stderr).toBe(0);
  const bytes = /young generation: (\d+) bytes/.exec(stderr)?.[1];
  expect(bytes, stderr).toBeDefined();
  return Number(bytes);
}

describe('the young generation of the command line', () => {
  // Windows runs the command through npm's shim, which passes on the same first line's flags.
  it.skipIf(process.platform === 'win32')('stays within two semi-spaces of the engine size when the command runs as installed', async () => {
    const young = await youngGenerationOf(CLI, ['--help']);
    expect(young).toBeGreaterThan(0);
    expect(young).toBeLessThanOrEqual(2 * YOUNG_SEMI_SPACE_MIB * 1024 * 1024);
  });
});
