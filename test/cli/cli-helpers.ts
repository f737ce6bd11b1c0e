/**
 * Running the real command line as a child process, as a user would: `node bin/asset-sync.js`,
 * which runs the build in dist/node (test/build-first.ts makes it), with its own ASSET_SYNC_HOME and only the credentials the test gives it.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const CLI = join(REPO, 'bin', 'asset-sync.js');
/** What `npm run demo` runs (vitest's global setup builds it first). */
export const DEMO = join(REPO, 'dist', 'node', 'demo.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The parent's environment without anything of ours, so no stray credential or home leaks in. */
function cleanEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('ASSET_SYNC_')) env[name] = value;
  for (const [name, value] of Object.entries(extra)) if (value !== undefined) env[name] = value;
  return env;
}

export function runNode(args: readonly string[], options: { env?: Record<string, string | undefined>; cwd?: string } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...args], { cwd: options.cwd ?? REPO, env: cleanEnv(options.env ?? {}), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export const runCli = (args: readonly string[], options: { env?: Record<string, string | undefined>; cwd?: string } = {}): Promise<CliResult> =>
  runNode([CLI, ...args], options);

export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** Every regular file below `dir` (relative, POSIX) with its SHA-256, leaving out Asset Sync's own files. */
export function filesBelow(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name.startsWith('.assetsync')) continue;
    const abs = join(entry.parentPath, entry.name);
    out.set(relative(dir, abs).split(sep).join('/'), sha256(readFileSync(abs)));
  }
  return out;
}
