/**
 * Case 5, how soon a change arrives while the app is open: `asset-sync sync --ui` (a process of its
 * own with its default settings) with the web UI's event stream followed, as an open page does.
 * Someone looking is what makes the engine poll every 2 s; a `sync` nobody looks at polls at the
 * configured interval once a minute has passed without a transfer, and every round here transfers,
 * so only the open page gives a steady, known cadence. Each of `samples`
 * rounds measures three things, median and p95 of each:
 * - local → service: a 1 MiB file saved in the sync folder until its new version is visible
 *   through the API;
 * - service → local: a new 1 MiB version made by another client (ticket, PUT, then the version
 *   record) until the local file holds its bytes, timed from the version record;
 * - a review request for this user, made at the same moment, until the command prints it (the
 *   engine's review poller; the app shows the same event as a notification).
 * A remote change is seen at the next poll, so each round waits a random part of the poll interval
 * first; otherwise every round would start at the same point of the period.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createWorkspace } from '../lib/api.js';
import { WatchingSync } from '../lib/asset-sync.js';
import type { BenchContext } from '../lib/context.js';
import { UI_ADDRESS, followEvents } from '../lib/ui-events.js';
import { load1, median, percentile, target, type CaseResult, type Row } from '../lib/measure.js';

const FILE = 'latency.bin';
const CHECK_EVERY_MS = 50;
const GIVE_UP_MS = 120_000;
const DEFAULT_POLL_SECONDS = 30;
/** The engine's cadence while someone looks (poll-cadence.ts), shorter than any configured interval. */
const WATCHED_POLL_MS = 2000;

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const since = (start: bigint, end = process.hrtime.bigint()): number => Number(end - start) / 1e9;

/** Checks until `check` holds; returns the seconds since `start`. */
async function until(start: bigint, what: string, check: () => Promise<boolean>): Promise<number> {
  for (;;) {
    if (await check()) return since(start);
    if (since(start) * 1000 > GIVE_UP_MS) throw new Error(`latency: ${what} not seen after ${GIVE_UP_MS / 1000} s`);
    await sleep(CHECK_EVERY_MS);
  }
}

export async function latencyCase(ctx: BenchContext): Promise<CaseResult> {
  const name = 'latency';
  const { samples, fileBytes, pollSeconds } = ctx.sizes.latency;
  const { service, tenant, client } = await ctx.service();
  const ws = await createWorkspace(service, tenant, 'latency');
  const me = (await client.getUser()).id;
  if (!me) throw new Error('latency: the service did not say who the user is');
  const upload = async (fileName: string, bytes: Buffer) => {
    const checksum = sha256(bytes);
    const ticket = await client.requestUpload(ws.workspaceId, { fileName, contentType: 'application/octet-stream', checksum, size: bytes.length });
    await client.putSignedUpload(ticket.signed_url, bytes, { size: bytes.length });
    return { key: ticket.key, checksum, size: bytes.length };
  };
  const create = async (fileName: string, bytes: Buffer) => {
    const up = await upload(fileName, bytes);
    return client.createAsset(ws.workspaceId, { key: up.key, file_name: fileName, folder_id: null, checksum: up.checksum, size: up.size });
  };
  const first = randomBytes(fileBytes);
  const asset = await create(FILE, first);
  // One asset per review request: a request asked again of the same asset and version is no news.
  const reviewed = [];
  for (let i = 0; i < samples; i += 1) reviewed.push(await create(`review-${String(i).padStart(2, '0')}.txt`, Buffer.from(`asset ${i} to review\n`)));

  const scratch = await ctx.scratch('latency');
  const root = join(scratch, 'root');
  const file = join(root, 'ws', FILE);
  const pollMs = Math.min(WATCHED_POLL_MS, (pollSeconds ?? DEFAULT_POLL_SECONDS) * 1000);
  const watching = new WatchingSync({ service, tenant: ws, root, folder: 'ws', home: join(scratch, 'state'), pollSeconds }, ctx.child, ['--ui', '0']);
  const stopFollowing = new AbortController();
  const localUp: number[] = [];
  const remoteDown: number[] = [];
  const reviews: number[] = [];
  const loads: number[] = [];
  let rssMiB: number | undefined;
  try {
    const address = await watching.lineAfter(0n, UI_ADDRESS, GIVE_UP_MS).then(() => watching.firstLine(UI_ADDRESS));
    await followEvents(new URL(address), stopFollowing.signal);
    await watching.lineAfter(0n, /^Watching for changes/, GIVE_UP_MS);
    const want = sha256(first);
    await until(process.hrtime.bigint(), 'the first sync', async () => sha256(await readFile(file).catch(() => Buffer.alloc(0))) === want);
    for (let i = 0; i < samples; i += 1) {
      ctx.log(`latency: round ${i + 1}/${samples}: local save`);
      const saved = randomBytes(fileBytes);
      const savedSum = sha256(saved);
      const savedAt = process.hrtime.bigint();
      await writeFile(file, saved);
      localUp.push(await until(savedAt, 'the local save on the service', async () => (await client.getAsset(ws.workspaceId, asset.id)).currentVersion?.checksum === savedSum));
      loads.push(load1());
      // The engine confirms its own upload before the next change.
      await sleep(1500);

      await sleep(Math.random() * pollMs);
      ctx.log(`latency: round ${i + 1}/${samples}: remote version and review request`);
      const bytes = randomBytes(fileBytes);
      const remoteSum = sha256(bytes);
      const current = await client.getAsset(ws.workspaceId, asset.id);
      const up = await upload(FILE, bytes);
      await client.createVersion(ws.workspaceId, asset.id, { key: up.key, checksum: up.checksum, size: up.size, commit_parent_id: current.current_version_id });
      const versionAt = process.hrtime.bigint();
      const reviewedAsset = reviewed[i];
      if (!reviewedAsset) throw new Error('latency: no asset to review');
      await client.requestReview(ws.workspaceId, reviewedAsset.id, me, { message: `round ${i + 1}` });
      const requestedAt = process.hrtime.bigint();
      const shownLine = new RegExp(`^review request: ${(reviewedAsset.file_name ?? '').replace(/\./g, '\\.')} `);
      const [down, review] = await Promise.all([
        until(versionAt, 'the remote version on disk', async () => sha256(await readFile(file).catch(() => Buffer.alloc(0))) === remoteSum),
        watching.lineAfter(requestedAt, shownLine, GIVE_UP_MS).then((at) => since(requestedAt, at)),
      ]);
      remoteDown.push(down);
      reviews.push(review);
      loads.push(load1());
      await sleep(1500);
    }
    rssMiB = await watching.peakRssMiB();
  } catch (error) {
    stopFollowing.abort();
    await watching.stop();
    throw error;
  }
  stopFollowing.abort();
  const code = await watching.stop();
  if (code !== 0) throw new Error(`latency: asset-sync sync ended with ${String(code)} when stopped`);

  const settings = `app open (sync --ui, its event stream followed), ${pollSeconds === undefined ? 'default settings' : `poll every ${pollSeconds} s (--quick), other settings default`}`;
  const load = median(loads);
  const row = (tool: string, values: number[]): Row => ({
    case: name,
    tool,
    group: tool,
    runs: values.map((seconds) => ({ seconds, load })),
    note: `p95 ${percentile(values, 95).toFixed(2)} s; ${settings}`,
  });
  const up = row('Asset Sync: local save → new version on the service', localUp);
  const down = row('Asset Sync: new remote version → local file replaced', remoteDown);
  const shown = row('Asset Sync: review request → shown', reviews);
  up.runs[0] = { ...(up.runs[0] ?? { seconds: Number.NaN, load }), rssMiB };
  const figure = (values: number[]): string => `median ${median(values).toFixed(2)} s, p95 ${percentile(values, 95).toFixed(2)} s`;
  const p95 = (values: number[]): number => percentile(values, 95);
  return {
    rows: [up, down, shown],
    targets: [
      ...target(name, 'local save → service, p95 ≤ 2 s', [up], () => ({ met: p95(localUp) <= 2, detail: `${p95(localUp).toFixed(2)} s` })),
      ...target(name, 'remote version → local file, p95 ≤ 3 s', [down], () => ({ met: p95(remoteDown) <= 3, detail: `${p95(remoteDown).toFixed(2)} s` })),
      ...target(name, 'review request → shown, p95 ≤ 5 s', [shown], () => ({ met: p95(reviews) <= 5, detail: `${p95(reviews).toFixed(2)} s` })),
    ],
    facts: [
      { case: name, what: 'local save → service', value: `${figure(localUp)} (n=${localUp.length})` },
      { case: name, what: 'remote version → local file', value: `${figure(remoteDown)} (n=${remoteDown.length}, poll every ${pollMs / 1000} s)` },
      { case: name, what: 'review request → shown', value: `${figure(reviews)} (n=${reviews.length})` },
    ],
    summary: [
      {
        what: `change latency, 1 MiB file (${samples} samples, ${settings})`,
        assetSync: `local save → service: ${figure(localUp)}; remote version → local file: ${figure(remoteDown)}; review request → shown: ${figure(reviews)}`,
        peers: '',
      },
    ],
  };
}
