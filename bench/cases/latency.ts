/**
 * Case 5, change latency with the engine watching (`start()`, default debounce, quiet period and
 * poll interval): a local save of a 1 MiB file until its new version is visible through the API,
 * and a new version made on the service until the local file holds its bytes. Median and p95.
 * A remote change is seen at the next poll, so remote samples start at a random point of the
 * poll period; otherwise each would wait a whole period.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createWorkspace } from '../lib/api.js';
import { engineWatching } from '../lib/asset-sync.js';
import type { BenchContext } from '../lib/context.js';
import { load1, median, percentile, type CaseResult, type Row } from '../lib/measure.js';

const FILE = 'latency.bin';
const POLL_EVERY_MS = 50;
const GIVE_UP_MS = 120_000;
const DEFAULT_POLL_MS = 30_000;

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it holds; returns the seconds since `since`. */
async function until(since: bigint, what: string, check: () => Promise<boolean>): Promise<number> {
  for (;;) {
    if (await check()) return Number(process.hrtime.bigint() - since) / 1e9;
    if (Number(process.hrtime.bigint() - since) / 1e6 > GIVE_UP_MS) throw new Error(`latency: ${what} not seen after ${GIVE_UP_MS / 1000} s`);
    await sleep(POLL_EVERY_MS);
  }
}

export async function latencyCase(ctx: BenchContext): Promise<CaseResult> {
  const name = 'latency';
  const sizes = ctx.sizes.latency;
  const { service, tenant, client } = await ctx.service();
  const ws = await createWorkspace(service, tenant, 'latency');
  const upload = async (bytes: Buffer) => {
    const checksum = sha256(bytes);
    const ticket = await client.requestUpload(ws.workspaceId, { fileName: FILE, contentType: 'application/octet-stream', checksum, size: bytes.length });
    await client.putSignedUpload(ticket.signed_url, bytes, { size: bytes.length });
    return { key: ticket.key, checksum, size: bytes.length };
  };
  const first = await upload(randomBytes(sizes.fileBytes));
  const asset = await client.createAsset(ws.workspaceId, { key: first.key, file_name: FILE, folder_id: null, checksum: first.checksum, size: first.size });

  const root = await ctx.scratch('latency');
  const file = join(root, 'ws', FILE);
  const pollMs = sizes.pollIntervalMs ?? DEFAULT_POLL_MS;
  const engine = await engineWatching({ service, tenant: ws, root, folder: 'ws', indexPath: join(root, 'index.db'), pollIntervalMs: sizes.pollIntervalMs }, ctx.child);
  const localUp: number[] = [];
  const remoteDown: number[] = [];
  const loads: number[] = [];
  let rssMiB = 0;
  try {
    const samples = Math.max(sizes.localSamples, sizes.remoteSamples);
    for (let i = 0; i < samples; i += 1) {
      if (i < sizes.localSamples) {
        ctx.log(`latency: local save ${i + 1}/${sizes.localSamples}`);
        const bytes = randomBytes(sizes.fileBytes);
        const want = sha256(bytes);
        const since = process.hrtime.bigint();
        await writeFile(file, bytes);
        localUp.push(await until(since, 'the local save on the service', async () => (await client.getAsset(ws.workspaceId, asset.id)).currentVersion?.checksum === want));
        loads.push(load1());
        // Let the engine confirm its own upload before the next change.
        await sleep(1500);
      }
      if (i < sizes.remoteSamples) {
        await sleep(Math.random() * pollMs);
        ctx.log(`latency: remote version ${i + 1}/${sizes.remoteSamples}`);
        const bytes = randomBytes(sizes.fileBytes);
        const want = sha256(bytes);
        const current = await client.getAsset(ws.workspaceId, asset.id);
        const up = await upload(bytes);
        await client.createVersion(ws.workspaceId, asset.id, { key: up.key, checksum: up.checksum, size: up.size, commit_parent_id: current.current_version_id });
        const since = process.hrtime.bigint();
        remoteDown.push(await until(since, 'the remote version on disk', async () => sha256(await readFile(file).catch(() => Buffer.alloc(0))) === want));
        loads.push(load1());
        await sleep(1500);
      }
    }
  } finally {
    rssMiB = await engine.stop();
  }

  const settings = sizes.pollIntervalMs === undefined ? 'default settings' : `poll ${pollMs / 1000} s (--quick), other settings default`;
  const row = (tool: string, values: number[]): Row => ({ case: name, tool, group: tool, runs: values.map((seconds) => ({ seconds, load: median(loads) })), note: `p95 ${percentile(values, 95).toFixed(2)} s; ${settings}` });
  const up = row('Asset Sync: local save → new version on the service', localUp);
  const down = row('Asset Sync: new remote version → local file replaced', remoteDown);
  up.runs[0] = { ...(up.runs[0] ?? { seconds: Number.NaN, load: 0 }), rssMiB };
  return {
    rows: [up, down],
    targets: [],
    facts: [
      { case: name, what: 'local save → service: median / p95', value: `${median(localUp).toFixed(2)} s / ${percentile(localUp, 95).toFixed(2)} s (n=${localUp.length})` },
      { case: name, what: 'remote version → local file: median / p95', value: `${median(remoteDown).toFixed(2)} s / ${percentile(remoteDown, 95).toFixed(2)} s (n=${remoteDown.length}, poll every ${pollMs / 1000} s)` },
    ],
  };
}
