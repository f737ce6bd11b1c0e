/**
 * `npm run bench:service -- [--duration 5] [--connections 64] [--size-mib 1024] [--json out.json] [--profile]`
 *
 * Throughput of the local service over loopback, with the service in a child process so the
 * load generator does not share its event loop:
 *   1. requests/s of small metadata calls (GET /users, GET /workspaces/assets/{id}) on N keep-alive connections;
 *   2. MB/s (10^6 bytes) of one large signed-URL upload and of its download.
 * Targets: ≥ 3,000 req/s and ≥ 400 MB/s. `--profile` runs the service under `node --cpu-prof`.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Command, InvalidArgumentError } from 'commander';
import { Agent, Pool, request } from 'undici';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TARGET_RPS = 3_000;
const TARGET_MBPS = 400;
const MiB = 1024 * 1024;

interface ServiceInfo {
  base_url: string;
  blob_url: string;
  account_id: string;
  workspace_id: string;
  api_key: string;
  api_secret: string;
}

interface Row {
  name: string;
  value: number;
  unit: 'req/s' | 'MB/s';
  target: number;
  detail: string;
}

const positive = (name: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`${name} must be a positive number.`);
  return n;
};

const options = new Command('service-bench')
  .description('Requests/s and transfer MB/s of the local service, measured from another process')
  .option('--duration <seconds>', 'seconds per metadata measurement', positive('--duration'), 5)
  .option('--connections <n>', 'concurrent keep-alive connections', positive('--connections'), 64)
  .option('--size-mib <n>', 'size of the transferred blob in MiB', positive('--size-mib'), 1024)
  .option('--json <file>', 'also write the figures as JSON')
  .option('--profile', 'run the service under node --cpu-prof (profiles in bench/data/profiles)')
  .parse()
  .opts<{ duration: number; connections: number; sizeMib: number; json?: string; profile?: boolean }>();

/** Builds and starts the service (dist/node/service.js, as `npm run service` runs it) and reads the connection details it prints. */
async function startServiceProcess(profile: boolean): Promise<{ child: ChildProcess; info: ServiceInfo; profileDir?: string }> {
  const profileDir = profile ? join(ROOT, 'bench', 'data', 'profiles') : undefined;
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const nodeArgs = ['--enable-source-maps', ...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [])];
  const child = spawn(process.execPath, [...nodeArgs, join(ROOT, 'dist', 'node', 'service.js'), '--port', '0', '--blob-port', '0', '--demo', '--demo-assets', '24', '--json'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`the service exited early (code ${String(code)})`);
  });
  const lines = createInterface({ input: child.stdout as Readable });
  const first = (async () => {
    for await (const line of lines) if (line.trim().startsWith('{')) return JSON.parse(line) as ServiceInfo;
    throw new Error('the service printed no connection details');
  })();
  const info = await Promise.race([first, exited]);
  exited.catch(() => undefined);
  return { child, info, ...(profileDir ? { profileDir } : {}) };
}

async function stopServiceProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = once(child, 'exit');
  // SIGINT lets the service stop cleanly (and write its CPU profile when asked).
  child.kill('SIGINT');
  await exited;
}

async function getToken(info: ServiceInfo): Promise<string> {
  const res = await request(`${info.base_url}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-account-id': info.account_id },
    body: JSON.stringify({ key: info.api_key, secret: info.api_secret }),
  });
  const body = (await res.body.json()) as unknown;
  if (res.statusCode !== 200) throw new Error(`POST /auth/token answered ${res.statusCode}`);
  return typeof body === 'string' ? body : (body as { token: string }).token;
}

function percentile(sorted: number[], p: number): number {
  return sorted.length ? (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0) : 0;
}

/** As many requests as `connections` workers can do in `seconds`, each waiting for its answer. */
async function measureRequests(origin: string, path: string, headers: Record<string, string>, connections: number, seconds: number): Promise<Row> {
  const pool = new Pool(origin, { connections, pipelining: 1, keepAliveTimeout: 30_000 });
  const latencies: number[] = [];
  let failures = 0;
  const run = async (until: number) => {
    while (performance.now() < until) {
      const started = performance.now();
      const res = await pool.request({ method: 'GET', path, headers });
      await res.body.dump();
      if (res.statusCode === 200) latencies.push(performance.now() - started);
      else failures += 1;
    }
  };
  // A short warm-up opens the connections and lets the JIT settle.
  await Promise.all(Array.from({ length: connections }, () => run(performance.now() + 500)));
  latencies.length = 0;
  failures = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(Array.from({ length: connections }, () => run(until)));
  const elapsed = (performance.now() - started) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  if (failures > 0) throw new Error(`GET ${path}: ${failures} answers were not 200`);
  return {
    name: `GET ${path.replace(/[0-9a-f-]{36}/, '{id}')}`,
    value: latencies.length / elapsed,
    unit: 'req/s',
    target: TARGET_RPS,
    detail: `${connections} conns, p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`,
  };
}

/** `count` repetitions of one random block: cheap to generate, and the bytes are not trivially compressible. */
function* repeated(block: Buffer, count: number): Generator<Buffer> {
  for (let i = 0; i < count; i += 1) yield block;
}

async function measureTransfers(info: ServiceInfo, headers: Record<string, string>, sizeMib: number): Promise<Row[]> {
  const blockSize = Math.min(4 * MiB, sizeMib * MiB);
  const blocks = Math.ceil((sizeMib * MiB) / blockSize);
  const block = randomBytes(blockSize);
  const size = blockSize * blocks;
  const hash = createHash('sha256');
  for (const chunk of repeated(block, blocks)) hash.update(chunk);
  const checksum = hash.digest('hex');
  // Loopback transfers of a GiB: keep the connection settings out of the way.
  const dispatcher = new Agent({ bodyTimeout: 0, headersTimeout: 0 });

  const query = new URLSearchParams({ file_name: 'bench.bin', content_type: 'application/octet-stream', checksum, size: String(size) });
  const ticket = await request(`${info.base_url}/workspaces/upload?${query.toString()}`, { method: 'POST', headers });
  const { key, signed_url: signedUrl } = (await ticket.body.json()) as { key: string; signed_url: string };

  let started = performance.now();
  const put = await request(signedUrl, {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream', 'content-length': String(size) },
    body: Readable.from(repeated(block, blocks), { objectMode: false }),
    dispatcher,
  });
  const putText = await put.body.text();
  const uploadSeconds = (performance.now() - started) / 1000;
  if (put.statusCode !== 200) throw new Error(`PUT to the signed URL answered ${put.statusCode}: ${putText}`);

  const created = await request(`${info.base_url}/workspaces/assets`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ key, checksum, file_name: `bench-${Date.now()}.bin` }),
  });
  const asset = (await created.body.json()) as { id: string };
  if (created.statusCode !== 201) throw new Error(`POST /workspaces/assets answered ${created.statusCode}`);
  const link = await request(`${info.base_url}/workspaces/assets/${asset.id}/download?redirect=false`, { headers });
  const { url } = (await link.body.json()) as { url: string };

  started = performance.now();
  const get = await request(url, { dispatcher });
  let received = 0;
  for await (const chunk of get.body) received += (chunk as Buffer).length;
  const downloadSeconds = (performance.now() - started) / 1000;
  await dispatcher.close();
  if (get.statusCode !== 200 || received !== size) throw new Error(`download: status ${get.statusCode}, ${received} of ${size} bytes`);

  const mb = size / 1e6;
  const what = `${sizeMib} MiB on loopback`;
  return [
    { name: 'PUT signed URL (upload)', value: mb / uploadSeconds, unit: 'MB/s', target: TARGET_MBPS, detail: `${what}, ${uploadSeconds.toFixed(2)} s, hashed by the service` },
    { name: 'GET signed URL (download)', value: mb / downloadSeconds, unit: 'MB/s', target: TARGET_MBPS, detail: `${what}, ${downloadSeconds.toFixed(2)} s` },
  ];
}

function printTable(rows: Row[]): void {
  const cells = rows.map((r) => [r.name, `${Math.round(r.value).toLocaleString('en-US')} ${r.unit}`, `≥ ${r.target.toLocaleString('en-US')}`, r.value >= r.target ? 'ok' : 'MISSED', r.detail]);
  const head = ['measure', 'result', 'target', '', 'detail'];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
  const line = (c: string[]) => c.map((v, i) => v.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const c of cells) console.log(line(c));
}

const { child, info, profileDir } = await startServiceProcess(options.profile ?? false);
let rows: Row[] = [];
try {
  const token = await getToken(info);
  const headers = { authorization: `Bearer ${token}`, 'x-account-id': info.account_id, 'x-workspace-id': info.workspace_id };
  const listing = await request(`${info.base_url}/workspaces/folders/hierarchy`, { headers });
  const assetId = ((await listing.body.json()) as { assets: Array<{ id: string }> }).assets[0]?.id;
  if (!assetId) throw new Error('the demo workspace has no asset');
  rows = [
    await measureRequests(info.base_url, '/users', headers, options.connections, options.duration),
    await measureRequests(info.base_url, `/workspaces/assets/${assetId}`, headers, options.connections, options.duration),
    ...(await measureTransfers(info, headers, options.sizeMib)),
  ];
} finally {
  await stopServiceProcess(child);
}
printTable(rows);
if (profileDir) console.log(`\nCPU profile of the service: ${profileDir}`);
if (options.json) {
  const figures = {
    date: new Date().toISOString(),
    node: process.version,
    settings: { duration_s: options.duration, connections: options.connections, size_mib: options.sizeMib },
    results: rows.map((r) => ({ name: r.name, value: Math.round(r.value), unit: r.unit, target: r.target, met: r.value >= r.target, detail: r.detail })),
  };
  writeFileSync(options.json, `${JSON.stringify(figures, null, 2)}\n`);
}
