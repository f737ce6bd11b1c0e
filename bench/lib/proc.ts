/**
 * Child processes of the benchmark: commands timed with their peak RSS (GNU time), and our own
 * built children (the service, the in-process engine, the scanner) that talk in JSON lines on
 * stdout.
 */
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { once } from 'node:events';
import { openSync, closeSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { load1, type Run } from './measure.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const TIME_BIN = '/usr/bin/time';

export interface CommandOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Where stdout goes: a file path, or discarded (default). */
  stdoutFile?: string;
}

/** Runs a peer command to completion and measures it; a non-zero exit throws with its stderr. */
export async function runTimed(cmd: string, args: readonly string[], options: CommandOptions = {}): Promise<Run> {
  const rssFile = join(tmpdir(), `bench-rss-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const out = openSync(options.stdoutFile ?? '/dev/null', 'w');
  const start = process.hrtime.bigint();
  try {
    const { code, stderr } = await collect(spawn(TIME_BIN, ['-f', '%M', '-o', rssFile, cmd, ...args], {
      cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', out, 'pipe'],
    }));
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    if (code !== 0) throw new Error(`${cmd} exited with ${String(code)}: ${stderr.slice(-2000)}`);
    const kib = Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop());
    return { seconds, rssMiB: Number.isFinite(kib) ? kib / 1024 : undefined, load: load1() };
  } finally {
    closeSync(out);
    rmSync(rssFile, { force: true });
  }
}

/** Runs a command for its effect (apt-get, a generator); throws on failure. */
export async function run(cmd: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; stdio?: StdioOptions } = {}): Promise<string> {
  const child = spawn(cmd, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: options.stdio ?? ['ignore', 'pipe', 'pipe'] });
  const stdout: Buffer[] = [];
  child.stdout?.on('data', (c: Buffer) => stdout.push(c));
  const { code, stderr } = await collect(child);
  if (code !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${String(code)}: ${stderr.slice(-2000)}`);
  return Buffer.concat(stdout).toString('utf8');
}

async function collect(child: ChildProcess): Promise<{ code: number | null; stderr: string }> {
  const chunks: Buffer[] = [];
  child.stderr?.on('data', (c: Buffer) => {
    chunks.push(c);
    if (chunks.length > 256) chunks.splice(0, 128);
  });
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stderr: Buffer.concat(chunks).toString('utf8') };
}

/** The service as built (dist/node/service.js), as `npm run service` runs it. */
export const SERVICE_SCRIPT = join(ROOT, 'dist', 'node', 'service.js');

/** The command line as installed: `asset-sync` is this file. */
export const CLI_SCRIPT = join(ROOT, 'bin', 'asset-sync.js');

/** The node flags of its first line (`#!/usr/bin/env -S node …`), which a shell or npm's shim passes on. */
export const CLI_NODE_FLAGS: readonly string[] = (/^#!\S*env -S node(.*)$/.exec(readFileSync(CLI_SCRIPT, 'utf8').split('\n', 1)[0] ?? '')?.[1] ?? '').split(' ').filter(Boolean);

export interface ScriptOptions {
  env?: NodeJS.ProcessEnv;
  /** Keep stdin open for `send()` (default: no stdin). */
  stdin?: boolean;
  /** Runs the child under `node --cpu-prof`, writing its profile here. */
  profileDir?: string | undefined;
}

/**
 * A child running one of our built scripts (a file of dist/) that prints JSON lines on stdout. `next()` waits for the
 * next JSON line; the child's stderr passes through, so its failures are seen.
 */
export class ScriptChild {
  readonly child: ChildProcess;
  private readonly lines: AsyncIterator<string>;
  private readonly exited: Promise<number | null>;

  constructor(script: string, args: readonly string[], options: ScriptOptions = {}) {
    const profile = options.profileDir ? ['--cpu-prof', '--cpu-prof-dir', options.profileDir] : [];
    this.child = spawn(process.execPath, ['--enable-source-maps', ...profile, script, ...args], {
      cwd: ROOT,
      env: options.env ?? process.env,
      stdio: [options.stdin ? 'pipe' : 'ignore', 'pipe', 'inherit'],
    });
    this.exited = once(this.child, 'exit').then(([code]) => code as number | null);
    this.lines = createInterface({ input: this.child.stdout! })[Symbol.asyncIterator]();
  }

  /** The next JSON line; throws if the child ends first. */
  async next<T>(): Promise<T> {
    for (;;) {
      const { value, done } = await this.lines.next();
      if (done) throw new Error(`child ${this.child.spawnargs.slice(-3).join(' ')} ended (exit ${String(await this.exited)}) without answering`);
      const line = value.trim();
      if (line.startsWith('{')) return JSON.parse(line) as T;
    }
  }

  /** Every JSON line until the child closes its stdout. */
  async remaining<T>(): Promise<T[]> {
    const out: T[] = [];
    for (;;) {
      const { value, done } = await this.lines.next();
      if (done) return out;
      if (value.trim().startsWith('{')) out.push(JSON.parse(value) as T);
    }
  }

  /** Writes one line to the child's stdin (started with `stdin: true`). */
  send(line: string): void {
    this.child.stdin?.write(`${line}\n`);
  }

  /** Closes the child's stdin: a child reading commands takes that as the end. */
  endInput(): void {
    this.child.stdin?.end();
  }

  async exit(): Promise<number | null> {
    return this.exited;
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

/** Runs a one-shot script child to completion and returns its last JSON line. */
export async function runScript<T>(script: string, args: readonly string[], options: ScriptOptions = {}): Promise<T> {
  const child = new ScriptChild(script, args, options);
  const answers = await child.remaining<T>();
  const code = await child.exit();
  const last = answers.at(-1);
  if (code !== 0 || last === undefined) throw new Error(`${script} exited with ${String(code)}${last === undefined ? ' without answering' : ''}`);
  return last;
}
