/**
 * The tools Asset Sync is measured against, from Debian: rclone (copy over `rclone serve
 * webdav`) and curl (the HTTP floor: the same signed URLs on keep-alive connections, nothing
 * else). Everything listens on and talks to 127.0.0.1 only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { createServer, connect } from 'node:net';
import { join } from 'node:path';
import { load1, type Run } from './measure.js';
import { run, runTimed } from './proc.js';

// openssl hashes the files of the curl floor that checks what it fetched; GNU time measures every
// timed process (wall time, peak RSS, CPU).
const PEER_PACKAGES = ['rclone', 'syncthing', 'curl', 'openssl', 'time'];

async function has(command: string): Promise<boolean> {
  return run('sh', ['-c', `command -v ${command}`]).then(() => true, () => false);
}

/** Installs the peers from Debian when one is missing (the benchmark runs as root). */
export async function ensurePeers(log: (line: string) => void): Promise<void> {
  const missing: string[] = [];
  for (const pkg of PEER_PACKAGES) if (!(await has(pkg))) missing.push(pkg);
  if (missing.length === 0) return;
  log(`installing ${missing.join(', ')} with apt-get …`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run('apt-get', ['update', '-qq'], { env });
  await run('apt-get', ['install', '-y', '-qq', ...PEER_PACKAGES], { env });
}

export async function peerVersions(): Promise<Record<string, string>> {
  const first = async (cmd: string, args: string[]): Promise<string> => (await run(cmd, args).catch(() => 'missing')).split('\n')[0]?.trim() ?? '';
  return {
    rclone: await first('rclone', ['version']),
    syncthing: await first('syncthing', ['--version']),
    curl: await first('curl', ['--version']),
  };
}

/** A free TCP port on 127.0.0.1 (taken and released: good enough for a benchmark). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitForPort(port: number, child: ChildProcess, what: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what} did not listen on port ${port}`);
}

export interface Webdav {
  url: string;
  stop(): Promise<void>;
}

/** `rclone serve webdav DIR` on a loopback port. */
export async function serveWebdav(dir: string): Promise<Webdav> {
  const port = await freePort();
  const child = spawn('rclone', ['serve', 'webdav', dir, '--addr', `127.0.0.1:${port}`, '--config', '/dev/null'], { stdio: ['ignore', 'ignore', 'ignore'] });
  await waitForPort(port, child, 'rclone serve webdav');
  return {
    url: `http://127.0.0.1:${port}/`,
    async stop() {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}

/** `rclone copy` with its defaults (4 transfers, 8 checkers); the webdav side is `:webdav:`. */
export function rcloneCopy(from: string, to: string, webdav: Webdav): Promise<Run> {
  const env = { ...process.env, RCLONE_WEBDAV_URL: webdav.url, RCLONE_WEBDAV_VENDOR: 'other' };
  return runTimed('rclone', ['copy', from, to, '--config', '/dev/null', '--exclude', '.assetsync', '--exclude', '.stfolder/**'], { env });
}

export const WEBDAV_REMOTE = ':webdav:';

/**
 * The HTTP floor: `parallel` curl processes, each fetching (or PUTting) its share of the URLs
 * one after another on one keep-alive connection. Wall time of the whole batch; RSS of the
 * largest process. After a download, and before the clock stops:
 * - `verified`: each file fetched is hashed with SHA-256, as Asset Sync checks every download
 *   (`openssl dgst`, which uses the CPU's SHA instructions as Node does; coreutils `sha256sum`
 *   does not, and takes four times as long: 0.96 s for 256 MiB against 0.24 s);
 * - `durable`: each is fsynced (coreutils `sync FILE…`), as Asset Sync does before it calls a
 *   file downloaded: the floor of a download that survives a power cut.
 * Before an upload, `verified` hashes each file first: the API asks for the checksum before it
 * hands out the signed URL, so any client of it reads a file once before sending it.
 */
export async function curlBatch(
  jobs: ReadonlyArray<{ url: string; path: string }>,
  direction: 'get' | 'put',
  workDir: string,
  parallel = 4,
  { durable = false, verified = false, headers = [], follow = false }: { durable?: boolean; verified?: boolean; headers?: readonly string[]; follow?: boolean } = {},
): Promise<Run> {
  const blocks = jobs.map((job) => [`url = ${curlQuote(job.url)}`, direction === 'get' ? `output = ${curlQuote(job.path)}` : `upload-file = ${curlQuote(job.path)}`]);
  // `Expect:` off: curl would otherwise wait for a 100-continue before large PUT bodies.
  const common = ['Expect:', 'Content-Type: application/octet-stream', ...headers].map(curlHeader);
  if (follow) common.push('location');
  const start = process.hrtime.bigint();
  if (direction === 'put' && verified) await inShares(jobs.map((job) => job.path), parallel, ['openssl', 'dgst', '-sha256']);
  const runs = await curlConfigs(blocks, common, workDir, `${direction}`, parallel);
  if (direction === 'get') {
    const paths = jobs.map((job) => job.path);
    if (verified) await inShares(paths, parallel, ['openssl', 'dgst', '-sha256']);
    if (durable) await inShares(paths, parallel, ['sync']);
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return { seconds, rssMiB: Math.max(...runs.map((r) => r.rssMiB ?? 0)), load: load1() };
}

/** Runs `command… FILE…` over the files in `parallel` processes at once, up to 1,000 files a call. */
async function inShares(paths: readonly string[], parallel: number, [command, ...args]: readonly [string, ...string[]]): Promise<void> {
  const shares = Array.from({ length: parallel }, (_, i) => paths.filter((_, j) => j % parallel === i)).filter((share) => share.length > 0);
  await Promise.all(shares.map(async (share) => {
    for (let at = 0; at < share.length; at += 1000) await run(command, [...args, ...share.slice(at, at + 1000)]);
  }));
}

/** A string as a curl config file quotes it. */
export const curlQuote = (s: string): string => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/** A request header as a line of a curl config file. */
export const curlHeader = (header: string): string => `header = ${curlQuote(header)}`;

/**
 * Runs `parallel` curl processes, each through its share of the transfers (a config block each:
 * `url = …` and its own options) on one keep-alive connection per host. `common`: config lines
 * for every transfer. `separate`: blocks are split by `next`, so one block's options (a request
 * body) do not leak into the next, at the price of repeating `common` in each.
 */
export async function curlConfigs(
  blocks: ReadonlyArray<readonly string[]>,
  common: readonly string[],
  workDir: string,
  name: string,
  parallel = 4,
  { separate = false }: { separate?: boolean } = {},
): Promise<Run[]> {
  const shared = ['silent', 'show-error', 'fail', 'create-dirs', ...common];
  const lists: string[][] = Array.from({ length: parallel }, () => (separate ? [] : [...shared]));
  blocks.forEach((block, i) => {
    const list = lists[i % parallel] as string[];
    if (separate) list.push(...(list.length > 0 ? ['next'] : []), ...shared);
    list.push(...block);
  });
  const configs: string[] = [];
  for (const [i, lines] of lists.entries()) {
    if (i >= blocks.length) continue;
    const file = join(workDir, `curl-${name}-${i}.conf`);
    await writeFile(file, `${lines.join('\n')}\n`);
    configs.push(file);
  }
  return Promise.all(configs.map((config) => runTimed('curl', ['-K', config])));
}
